import {
  COMMAND_HEAD_SCHEMA,
  COMMAND_SCHEMAS,
  CommandMessage,
  CommandResultMessage,
  DeadLetterReasonCode,
  DEFAULT_PLATFORM_ID,
  describeViolations,
  isCommandType,
  validate,
} from '@studio/contracts';
import type { Clock } from '../clock/clock';
import { duplicateKeyOf } from '../http/duplicate-keys';
import { PlatformTopics } from '../kafka/platform-topics';
import type { RawCommandMessage } from '../kafka/raw-command-message';
import type { PlatformCommand } from '../use-cases/common/platform-command';
import { isRejection } from '../use-cases/common/table-command';
import type { CommandRejection, CommandResult } from '../use-cases/common/tables.port';
import {
  CommandApplier,
  IntakeCounters,
  isNotDrivenHere,
  platformCommandOf,
  platformOfMessage,
} from './command-applier';
import type { CommandInbox } from './inbox/command-inbox';
import type { PlatformCurrencies } from './platform-currencies';

export type IntakeOutcome =
  | { kind: 'answered'; result: CommandResultMessage }
  | { kind: 'dead-letter'; code: DeadLetterReasonCode; reason: string }
  /** Stored in its table's inbox: the table's owner answers it. */
  | { kind: 'forwarded' };

const UTF8 = new TextDecoder('utf-8', { fatal: true });

type Parsed = { command: CommandMessage } | { code: DeadLetterReasonCode; reason: string };
type Prepared = PlatformCommand | CommandRejection;

/**
 * The transport-free core of the Kafka command intake: bytes in, either an answer for the results
 * topic or a dead-letter reason out. Valid commands go through the same use cases as the HTTP API,
 * so a repeated command id gets the stored first answer (`duplicate: true`) whichever way it came.
 */
export class CommandIntake {
  /** Messages parsed ahead (prefetch), so their batch does not parse them again. */
  private readonly parsed = new WeakMap<RawCommandMessage, Parsed>();
  /**
   * Commands of tables driven here prepared ahead (prefetch): their batch takes these very
   * command objects, which is how their table recognises the step it computed ahead.
   */
  private readonly prepared = new WeakMap<RawCommandMessage, Prepared>();

  constructor(
    private readonly applier: CommandApplier,
    private readonly inbox: CommandInbox,
    private readonly clock: Clock,
    private readonly topics = new PlatformTopics(),
    private readonly currencies?: PlatformCurrencies,
  ) {}

  get counters(): IntakeCounters {
    return this.applier.counters;
  }

  /**
   * The next batch, while the current one commits: parses it and, for the tables driven here,
   * starts looking up the stored answers of its commands and stepping them. Changes nothing;
   * never throws.
   */
  prefetch(raws: readonly RawCommandMessage[]): void {
    try {
      const byTable = new Map<string, PlatformCommand[]>();
      for (const raw of raws) {
        const parsed = this.parse(raw);
        this.parsed.set(raw, parsed);
        // Prepared with the table driven here, as its batch would (it re-checks the route).
        if (!('command' in parsed) || this.inbox.route(parsed.command.tableId) !== 'here') continue;
        const prepared = platformCommandOf(parsed.command);
        this.prepared.set(raw, prepared);
        if (isRejection(prepared)) continue;
        const group = byTable.get(prepared.tableId) ?? [];
        group.push(prepared);
        byTable.set(prepared.tableId, group);
      }
      for (const [tableId, commands] of byTable) this.applier.prepareAhead(tableId, commands);
    } catch {
      // Only a head start: the batch looks its answers up itself.
    }
  }

  /** The platforms' currencies as the registry has them now; the last ones when it fails. */
  private async refreshCurrencies(raws: readonly RawCommandMessage[] = []): Promise<void> {
    try {
      await this.currencies?.refresh(
        raws.map((raw) => this.topics.platformOfCommandTopic(raw.topic) ?? DEFAULT_PLATFORM_ID),
      );
    } catch {
      // An outage of the registry does not stop the intake: the last snapshot stays.
    }
  }

  /**
   * A batch as read from the topic: every message gets its own answer or dead letter, exactly as
   * if processed one by one in order, but each table's commands are applied together (one
   * transaction for a window's worth of bets or decisions) and different tables in parallel.
   * Commands of tables another instance drives go to their inbox (one statement for the batch).
   */
  async processBatch(raws: readonly RawCommandMessage[]): Promise<IntakeOutcome[]> {
    await this.refreshCurrencies(raws);
    const outcomes: IntakeOutcome[] = new Array(raws.length);
    const commands: CommandMessage[] = new Array(raws.length);
    const results: CommandResult[] = new Array(raws.length);
    const byTable = new Map<string, { at: number[]; commands: PlatformCommand[] }>();
    const forwarded: number[] = [];
    raws.forEach((raw, i) => {
      const parsed = this.parsed.get(raw) ?? this.parse(raw);
      if ('code' in parsed) {
        this.counters.deadLettered += 1;
        outcomes[i] = { kind: 'dead-letter', ...parsed };
        return;
      }
      commands[i] = parsed.command;
      // A suspended (or unregistered) platform is refused here, before anything is applied or
      // forwarded, as the HTTP key guard refuses it.
      const refusal = this.currencies?.refusal(platformOfMessage(parsed.command));
      if (refusal) {
        results[i] = refusal;
        return;
      }
      if (this.inbox.route(parsed.command.tableId) === 'inbox') {
        forwarded.push(i);
        return;
      }
      const prepared = this.prepared.get(raw) ?? platformCommandOf(parsed.command);
      if (isRejection(prepared)) {
        results[i] = prepared;
        return;
      }
      const group = byTable.get(prepared.tableId) ?? { at: [], commands: [] };
      group.at.push(i);
      group.commands.push(prepared);
      byTable.set(prepared.tableId, group);
    });
    const lateForwards: number[] = [];
    await Promise.all([
      this.forward(raws, commands, forwarded),
      ...[...byTable].map(async ([tableId, group]) => {
        const answers = await this.applier.applyTable(tableId, group.commands);
        group.at.forEach((i, k) => {
          const answer = answers[k];
          if ('failed' in answer) {
            this.counters.deadLettered += 1;
            outcomes[i] = { kind: 'dead-letter', code: 'command-failed', reason: answer.failed };
          } else if (isNotDrivenHere(answer)) lateForwards.push(i);
          else results[i] = answer;
        });
      }),
    ]);
    // The table was let go of while the batch ran: its next owner answers these.
    await this.forward(
      raws,
      commands,
      lateForwards.sort((a, b) => a - b),
    );
    for (const i of [...forwarded, ...lateForwards]) outcomes[i] = { kind: 'forwarded' };
    const answeredAt = this.clock.now().toISOString();
    raws.forEach((_, i) => {
      if (outcomes[i]) return;
      outcomes[i] = {
        kind: 'answered',
        result: this.applier.answer(commands[i], results[i], answeredAt),
      };
    });
    return outcomes;
  }

  private async forward(
    raws: readonly RawCommandMessage[],
    commands: readonly CommandMessage[],
    at: readonly number[],
  ): Promise<void> {
    if (at.length === 0) return;
    await this.inbox.forwardKafka(
      at.map((i) => ({
        via: 'kafka' as const,
        message: commands[i],
        source: { topic: raws[i].topic, partition: raws[i].partition, offset: raws[i].offset },
      })),
    );
  }

  private parse(raw: RawCommandMessage): Parsed {
    let json: unknown;
    let text: string;
    try {
      if (!raw.value || raw.value.length === 0) throw new Error('empty message');
      text = UTF8.decode(raw.value);
      json = JSON.parse(text);
    } catch (error) {
      return { code: 'invalid-json', reason: `Not UTF-8 JSON: ${(error as Error).message}` };
    }
    // JSON.parse keeps the last of a name given twice where the platform's own parser may keep
    // the first (`"amount":100,"amount":400000`): refused, as the HTTP API refuses such a body.
    const twice = duplicateKeyOf(text);
    if (twice !== undefined) {
      return {
        code: 'invalid-json',
        reason: `${twice} is given twice: each name once per object (parsers differ on which counts)`,
      };
    }
    const head = validate(COMMAND_HEAD_SCHEMA, json);
    const type = (json as { type?: unknown } | null)?.type;
    if (head.length > 0 || !isCommandType(type)) {
      return {
        code: isCommandType(type) ? 'schema-violation' : 'unknown-command-type',
        reason: describeViolations(head).slice(0, 500),
      };
    }
    const violations = validate(COMMAND_SCHEMAS[type], json);
    if (violations.length > 0) {
      return {
        code: 'schema-violation',
        reason: `${type}: ${describeViolations(violations)}`.slice(0, 500),
      };
    }
    // The topic names the platform (the broker lets a platform write only its own topic), and the
    // schemas refuse a platformId in the message: a command cannot speak for another platform.
    const command = json as CommandMessage & {
      platformId: string;
      platformCurrencies?: readonly string[];
    };
    command.platformId = this.topics.platformOfCommandTopic(raw.topic) ?? DEFAULT_PLATFORM_ID;
    // Its currencies go with it (to the table's inbox too): a bet in another is refused.
    const currencies = this.currencies?.of(command.platformId);
    if (currencies) command.platformCurrencies = currencies;
    // The key decides the partition: commands of one table are applied in the order sent only
    // if they all carry the table id as their key.
    if (raw.key !== null && raw.key !== command.tableId) {
      return {
        code: 'key-mismatch',
        reason: `Message key "${raw.key}" is not the command's tableId "${command.tableId}"`,
      };
    }
    return { command };
  }
}
