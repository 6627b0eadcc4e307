import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock/clock';
import { oneLine } from '../../common/one-line';
import { settleWithin } from '../../common/settle-within';
import {
  COMMAND_ANSWERED_CHANNEL,
  COMMAND_INBOX_CHANNEL,
  CommandInboxRepository,
  InboxEntry,
} from '../../database/command-inbox.repository';
import type { ChannelListenerSettings } from '../../database/pg-channel-listener';
import { PgChannelListener } from '../../database/pg-channel-listener';
import type { CommandAnswersPublisher } from '../../kafka/command-answers.publisher';
import type {
  DrivenTablesListener,
  TableRuntimeRegistry,
} from '../../tables/table-runtime.registry';
import type { SupervisionInput } from '../../table-core/table-input';
import type { PlatformCommand } from '../../use-cases/common/platform-command';
import { isRejection } from '../../use-cases/common/table-command';
import type {
  CommandForwarding,
  CommandRejection,
  CommandResult,
  ForwardedCommand,
  SupervisionRelay,
} from '../../use-cases/common/tables.port';
import { DecideCommand } from '../../use-cases/decide/decide.command';
import { PlaceBetCommand } from '../../use-cases/place-bet/place-bet.command';
import {
  AppliedCommand,
  CommandApplier,
  isNotDrivenHere,
  platformOfMessage,
  platformCommandOf,
} from '../command-applier';
import { commandKey, commandKeyOf, DEFAULT_PLATFORM } from '../../common/player-key';
import { CancelBetCommand } from '../../use-cases/cancel-bet/cancel-bet.command';
import { HttpInboxCommand, InboxCommand, sourceMessage } from './inbox-command';

export interface CommandInboxSettings {
  /** How long a command waits for an owner of its table before it is answered `table-not-driven-here`. */
  waitMs: number;
  /** Commands an owner applies per transaction when draining. */
  batchSize: number;
  /** The periodic check behind the notifications (and the only one on the embedded database). */
  pollMs: number;
  /** LISTEN/NOTIFY connection; absent on the embedded database (one instance, one connection). */
  listen?: ChannelListenerSettings;
}

/** Where a command for a table goes from this instance. */
export type CommandRoute = 'here' | 'inbox' | 'unknown-table';

type Waiter = (answer: CommandResult) => void;

/**
 * Commands reach their table's owner whichever instance reads them. A command for a table another
 * instance drives (or none yet) is stored in the table's inbox (one row, one round trip) and its
 * owner is woken with NOTIFY; the owner applies the inbox in order through the same batch path as
 * its own commands and answers each command once: on the results topic for Kafka commands, to the
 * waiting HTTP request for HTTP ones. While a table's inbox is not empty its owner queues its own
 * commands behind it, so a table's commands are applied in the order they were read.
 */
export class CommandInbox implements DrivenTablesListener, SupervisionRelay, CommandForwarding {
  private readonly logger = new Logger('CommandInbox');
  /** Driven tables whose inbox may hold commands. */
  private readonly pending = new Set<string>();
  private readonly draining = new Map<string, Promise<void>>();
  private readonly waiters = new Map<string, Waiter>();
  private listener?: PgChannelListener;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly inbox: CommandInboxRepository,
    private readonly registry: TableRuntimeRegistry,
    private readonly applier: CommandApplier,
    private readonly answers: CommandAnswersPublisher | undefined,
    private readonly clock: Clock,
    private readonly settings: CommandInboxSettings,
  ) {
    registry.onDriven(this);
    registry.relaySupervisionVia(this);
  }

  route(tableId: string): CommandRoute {
    const lookup = this.registry.get(tableId);
    if (lookup.ok) return this.waiting(tableId) ? 'inbox' : 'here';
    return lookup.code === 'unknown-table' ? 'unknown-table' : 'inbox';
  }

  /** A table driven here whose inbox may hold commands: new ones queue behind them. */
  waiting(tableId: string): boolean {
    return this.pending.has(tableId) || this.draining.has(tableId);
  }

  /** A platform's HTTP command for a table driven elsewhere (or behind its inbox here). */
  forward(tableId: string, command: ForwardedCommand): Promise<CommandResult> {
    return this.forwardHttp(tableId, { via: 'http', ...command });
  }

  /** Stores Kafka commands for their owners (committed when this resolves; answered by them). */
  async forwardKafka(
    commands: ReadonlyArray<Extract<InboxCommand, { via: 'kafka' }>>,
  ): Promise<void> {
    await this.inbox.add(
      commands.map((command) => ({
        tableId: command.message.tableId,
        commandId: commandKey(platformOfMessage(command.message), command.message.commandId),
        replyTo: 'kafka' as const,
        command,
      })),
    );
    // Set before returning: this instance's next commands for these tables queue behind them.
    for (const command of commands) this.wake(command.message.tableId);
  }

  /** A dealer's or supervisor's action on a table driven elsewhere, answered by its owner. */
  relay(tableId: string, input: SupervisionInput): Promise<CommandResult> {
    return this.forwardHttp(tableId, { via: 'http', kind: 'supervision', input });
  }

  /** An HTTP command for a table driven elsewhere: stored, applied by the owner, answered here. */
  private async forwardHttp(tableId: string, command: HttpInboxCommand): Promise<CommandResult> {
    // Waiting once per platform's command (its key: another platform's same id is its own).
    const given = command.kind === 'supervision' ? undefined : command.command;
    const commandId =
      (given && commandKeyOf(given.platformId, given.commandId)) ?? `http:${randomUUID()}`;
    const [id] = await this.inbox.add([{ tableId, commandId, replyTo: 'http', command }]);
    if (id === undefined) {
      return {
        accepted: false,
        code: 'command-in-flight',
        message: `Command ${given?.commandId} is already waiting for table ${tableId}: repeat it for its answer`,
      };
    }
    const answered = new Promise<CommandResult>((resolve) => this.waiters.set(id, resolve));
    this.wake(tableId);
    const limit = this.settings.waitMs + 2 * this.settings.pollMs + 5_000;
    try {
      const answer = await settleWithin(answered, limit, undefined);
      if (answer) return answer;
      if (await this.inbox.withdraw(id)) return notDriven(tableId, this.settings.waitMs);
      return ((await this.inbox.takeAnswer(id)) as CommandResult) ?? notDriven(tableId, limit);
    } finally {
      this.waiters.delete(id);
    }
  }

  /** The consumer group moved partitions: commands another instance forwarded may still wait. */
  rebalanced(): void {
    for (const runtime of this.registry.all()) this.wake(runtime.tableId);
  }

  running(tableId: string): void {
    this.wake(tableId);
  }

  stopping(): void {
    // The table's commands wait in the inbox for its next owner.
  }

  async start(): Promise<void> {
    const listen = this.settings.listen;
    if (listen) {
      this.listener = new PgChannelListener(listen, [
        COMMAND_INBOX_CHANNEL,
        COMMAND_ANSWERED_CHANNEL,
      ]);
      await this.listener.listen({
        notification: (channel, payload) =>
          channel === COMMAND_INBOX_CHANNEL ? this.wake(payload) : void this.collect(payload),
        connected: () => void this.check(),
      });
    }
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.listener?.close();
    await Promise.all([...this.draining.values()]);
  }

  /** Wakes the owner's drain of a table (a no-op unless this instance drives it). */
  private wake(tableId: string): void {
    if (this.stopped || !this.registry.get(tableId).ok) return;
    this.pending.add(tableId);
    if (this.draining.has(tableId)) return;
    const run = this.drain(tableId).finally(() => this.draining.delete(tableId));
    this.draining.set(tableId, run);
  }

  private async drain(tableId: string): Promise<void> {
    try {
      while (this.pending.has(tableId) && !this.stopped && this.registry.get(tableId).ok) {
        this.pending.delete(tableId);
        const entries = await this.inbox.waiting(tableId, this.settings.batchSize);
        if (entries.length === 0) continue;
        const applied = await this.apply(tableId, entries);
        // Lost the table meanwhile: the rest waits for the next owner.
        if (applied < entries.length) return;
        this.pending.add(tableId);
      }
    } catch (error) {
      // An outage: the commands stay in the inbox and the periodic check tries again. The table
      // stays pending, so its newer commands keep queueing behind them.
      this.logger.warn(`Could not apply the inbox of table ${tableId}: ${oneLine(error)}`);
      this.pending.add(tableId);
    }
  }

  /** Applies and answers entries in order; returns how many were answered. */
  private async apply(tableId: string, entries: readonly InboxEntry[]): Promise<number> {
    const results: AppliedCommand[] = [];
    // Runs of platform commands go through the batch path; an action goes to the table alone.
    // Once the table is let go of, nothing after is applied here.
    for (let start = 0, end = 0; start < entries.length; start = end) {
      const action = supervisionOf(entries[start]);
      end = start + 1;
      while (!action && end < entries.length && !supervisionOf(entries[end])) end += 1;
      const applied = action
        ? [await this.applySupervision(tableId, action)]
        : await this.applyCommands(tableId, entries.slice(start, end));
      results.push(...applied);
      if (applied.some(isNotDrivenHere)) break;
    }
    const cut = results.findIndex(isNotDrivenHere);
    const count = cut === -1 ? results.length : cut;
    await this.answer(entries.slice(0, count), results.slice(0, count));
    return count;
  }

  private async applyCommands(
    tableId: string,
    entries: readonly InboxEntry[],
  ): Promise<AppliedCommand[]> {
    const results: AppliedCommand[] = new Array(entries.length);
    const at: number[] = [];
    const commands: PlatformCommand[] = [];
    entries.forEach((entry, i) => {
      const command = commandOf(entry.command as Exclude<InboxCommand, { kind: 'supervision' }>);
      if (isRejection(command)) results[i] = command;
      else {
        at.push(i);
        commands.push(command);
      }
    });
    const applied = await this.applier.applyTable(tableId, commands);
    at.forEach((i, k) => (results[i] = applied[k]));
    return results;
  }

  private async applySupervision(tableId: string, input: SupervisionInput): Promise<CommandResult> {
    const lookup = this.registry.get(tableId);
    if (!lookup.ok) return { accepted: false, code: lookup.code, message: lookup.message };
    return lookup.runtime.submit(input);
  }

  /** Kafka answers (and dead letters) published, then their rows removed; HTTP answers stored. */
  private async answer(entries: readonly InboxEntry[], results: readonly AppliedCommand[]) {
    const answeredAt = this.clock.now().toISOString();
    const kafka: InboxEntry[] = [];
    const http: Array<{ id: string; answer: CommandResult }> = [];
    const messages = [];
    const topics: string[] = [];
    for (let i = 0; i < entries.length; i += 1) {
      const command = entries[i].command as InboxCommand;
      const result = results[i];
      if (command.via === 'http') {
        const answer: CommandResult =
          'failed' in result
            ? { accepted: false, code: 'command-failed', message: result.failed }
            : result;
        http.push({ id: entries[i].id, answer });
        continue;
      }
      kafka.push(entries[i]);
      if ('failed' in result) {
        this.applier.counters.deadLettered += 1;
        await this.requireAnswers().publishDeadLetter(
          sourceMessage(command),
          'command-failed',
          result.failed,
          this.clock.now(),
        );
      } else {
        messages.push(this.applier.answer(command.message, result, answeredAt));
        topics.push(command.source.topic);
      }
    }
    // Answered on the results topic of the platform whose topic the command came from.
    if (messages.length > 0) await this.requireAnswers().publishResults(messages, topics);
    await this.inbox.remove(kafka.map((e) => e.id));
    if (http.length > 0) {
      await this.inbox.answer(http);
      // Requests held here need not wait for the notification.
      for (const { id } of http) if (this.waiters.has(id)) void this.collect(id);
    }
  }

  private requireAnswers(): CommandAnswersPublisher {
    if (!this.answers) throw new Error('Kafka commands in the inbox, but Kafka is not configured');
    return this.answers;
  }

  /** Hands a stored HTTP answer to the request waiting for it on this instance. */
  private async collect(id: string): Promise<void> {
    const waiter = this.waiters.get(id);
    if (!waiter) return;
    try {
      const answer = (await this.inbox.takeAnswer(id)) as CommandResult | undefined;
      if (answer && this.waiters.get(id) === waiter) {
        this.waiters.delete(id);
        waiter(answer);
      }
    } catch (error) {
      this.logger.warn(`Could not read the answer of inbox command ${id}: ${oneLine(error)}`);
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.check().finally(() => this.schedule());
    }, this.settings.pollMs);
  }

  /** What the notifications may have missed, and commands for tables nobody drives. */
  private async check(): Promise<void> {
    try {
      for (const tableId of await this.inbox.tablesWaiting()) this.wake(tableId);
      for (const id of this.waiters.keys()) await this.collect(id);
      await this.expireUndriven();
      await this.inbox.purgeUntaken(this.settings.waitMs * 10);
    } catch (error) {
      this.logger.warn(`Inbox check failed: ${oneLine(error)}`);
    }
  }

  private async expireUndriven(): Promise<void> {
    const expired = await this.inbox.claimUndriven(this.settings.waitMs, this.settings.batchSize);
    if (expired.length === 0) return;
    this.logger.warn(
      `${expired.length} command(s) waited ${this.settings.waitMs} ms for tables no instance drives: answered table-not-driven-here`,
    );
    await this.answer(
      expired,
      expired.map((e) => notDriven(e.tableId, this.settings.waitMs)),
    );
  }
}

function notDriven(tableId: string, waitMs: number): CommandResult {
  return {
    accepted: false,
    code: 'table-not-driven-here',
    message: `No instance drove table ${tableId} within ${Math.round(waitMs / 1000)} s: send the command again (same commandId) once the table is running`,
  };
}

/** A stored platform command as its use case's command object (validated again by the owner). */
function commandOf(
  command: Exclude<InboxCommand, { kind: 'supervision' }>,
): PlatformCommand | CommandRejection {
  if (command.via === 'kafka') return platformCommandOf(command.message);
  // Rows stored before commands named their platform were the default platform's.
  const platformId = (command.command.platformId as string | undefined) ?? DEFAULT_PLATFORM;
  switch (command.kind) {
    case 'bet':
      return PlaceBetCommand.create({ ...command.command, platformId });
    case 'cancel-bet':
      return CancelBetCommand.create({ ...command.command, platformId });
    default:
      return DecideCommand.create({ ...command.command, platformId });
  }
}

function supervisionOf(entry: InboxEntry): SupervisionInput | undefined {
  const command = entry.command as InboxCommand;
  return command.via === 'http' && command.kind === 'supervision' ? command.input : undefined;
}
