import {
  COMMAND_HEAD_SCHEMA,
  COMMAND_SCHEMAS,
  CommandMessage,
  CommandResultMessage,
  DeadLetterReasonCode,
  describeViolations,
  isCommandType,
  validate,
} from '@studio/contracts';
import type { Clock } from '../clock/clock';
import { oneLine } from '../common/one-line';
import type { BatchItem } from '../tables/table-runtime';
import type { ApplyCommands } from '../use-cases/apply-commands.use-case';
import type { Decide } from '../use-cases/decide.use-case';
import type { PlaceBet } from '../use-cases/place-bet.use-case';
import type { CommandResult } from '../use-cases/table-command';

/** One message of the commands topic, bytes as they arrived. */
export interface RawCommandMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: Buffer | null;
}

export type IntakeOutcome =
  | { kind: 'answered'; result: CommandResultMessage }
  | { kind: 'dead-letter'; code: DeadLetterReasonCode; reason: string };

export interface IntakeCounters {
  accepted: number;
  rejected: number;
  duplicates: number;
  deadLettered: number;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * True for a failure caused by the commands themselves: PostgreSQL data exceptions (class 22, e.g.
 * a NUL in a text value) and integrity violations (class 23), or a programming error their input
 * triggered. Connection errors, timeouts, lost leases and version conflicts are not: retrying the
 * batch later is right for those.
 */
export function isCommandSpecificFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code)) return true;
  return error instanceof TypeError || error instanceof RangeError;
}

/**
 * The transport-free core of the Kafka command intake: bytes in, either an answer for the results
 * topic or a dead-letter reason out. Valid commands go through the same use cases as the HTTP API,
 * so a repeated command id gets the stored first answer (`duplicate: true`) whichever way it came.
 */
export class CommandIntake {
  readonly counters: IntakeCounters = { accepted: 0, rejected: 0, duplicates: 0, deadLettered: 0 };

  constructor(
    private readonly placeBet: PlaceBet,
    private readonly decide: Decide,
    private readonly applyCommands: ApplyCommands,
    private readonly clock: Clock,
  ) {}

  async process(raw: RawCommandMessage): Promise<IntakeOutcome> {
    const [outcome] = await this.processBatch([raw]);
    return outcome;
  }

  /**
   * A batch as read from the topic: every message gets its own answer or dead letter, exactly as
   * if processed one by one in order, but each table's commands are applied together (one
   * transaction for a window's worth of bets or decisions) and different tables in parallel.
   */
  async processBatch(raws: readonly RawCommandMessage[]): Promise<IntakeOutcome[]> {
    const outcomes: IntakeOutcome[] = new Array(raws.length);
    const commands: CommandMessage[] = new Array(raws.length);
    const results: CommandResult[] = new Array(raws.length);
    const byTable = new Map<string, { at: number[]; items: BatchItem[] }>();
    raws.forEach((raw, i) => {
      const parsed = this.parse(raw);
      if ('code' in parsed) {
        this.counters.deadLettered += 1;
        outcomes[i] = { kind: 'dead-letter', ...parsed };
        return;
      }
      commands[i] = parsed.command;
      const prepared = this.prepare(parsed.command);
      if ('rejected' in prepared) {
        results[i] = prepared.rejected;
        return;
      }
      const group = byTable.get(parsed.command.tableId) ?? { at: [], items: [] };
      group.at.push(i);
      group.items.push(prepared.item);
      byTable.set(parsed.command.tableId, group);
    });
    await Promise.all(
      [...byTable].map(async ([tableId, group]) => {
        const answers = await this.applyIsolating(tableId, group.items);
        group.at.forEach((i, k) => {
          const answer = answers[k];
          if ('failed' in answer) {
            this.counters.deadLettered += 1;
            outcomes[i] = { kind: 'dead-letter', code: 'command-failed', reason: answer.failed };
          } else results[i] = answer;
        });
      }),
    );
    const answeredAt = this.clock.now().toISOString();
    raws.forEach((_, i) => {
      if (outcomes[i]) return;
      outcomes[i] = { kind: 'answered', result: this.answer(commands[i], results[i], answeredAt) };
    });
    return outcomes;
  }

  /**
   * Applies a table's commands; when that fails because of what one command carries (a value the
   * database refuses, a defect its input triggers) rather than an outage, the batch is split until
   * the failing command is alone, so it alone is dead-lettered and the partition moves on. Halves
   * are applied in order, so the answers stay those of applying the commands one by one. An outage
   * still throws: the batch is read again once the database is back.
   */
  private async applyIsolating(
    tableId: string,
    items: readonly BatchItem[],
  ): Promise<Array<CommandResult | { failed: string }>> {
    try {
      return await this.applyCommands.execute(tableId, items);
    } catch (error) {
      if (!isCommandSpecificFailure(error)) throw error;
      if (items.length === 1) {
        return [{ failed: `The command could not be applied: ${oneLine(error)}`.slice(0, 500) }];
      }
      const half = Math.ceil(items.length / 2);
      const first = await this.applyIsolating(tableId, items.slice(0, half));
      const second = await this.applyIsolating(tableId, items.slice(half));
      return [...first, ...second];
    }
  }

  private answer(
    command: CommandMessage,
    result: CommandResult,
    answeredAt: string,
  ): CommandResultMessage {
    if (result.duplicate) this.counters.duplicates += 1;
    if (result.accepted) this.counters.accepted += 1;
    else this.counters.rejected += 1;
    return {
      commandId: command.commandId,
      commandType: command.type,
      tableId: command.tableId,
      playerId: command.playerId,
      status: result.accepted ? 'accepted' : 'rejected',
      ...(result.accepted
        ? { reply: result.reply }
        : { code: result.code, message: result.message }),
      duplicate: result.duplicate === true,
      answeredAt,
    };
  }

  private parse(
    raw: RawCommandMessage,
  ): { command: CommandMessage } | { code: DeadLetterReasonCode; reason: string } {
    let json: unknown;
    try {
      if (!raw.value || raw.value.length === 0) throw new Error('empty message');
      json = JSON.parse(UTF8.decode(raw.value));
    } catch (error) {
      return { code: 'invalid-json', reason: `Not UTF-8 JSON: ${(error as Error).message}` };
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
    const command = json as CommandMessage;
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

  /** The platform command as the table input of its use case. */
  private prepare(command: CommandMessage): { item: BatchItem } | { rejected: CommandResult } {
    const common = {
      tableId: command.tableId,
      commandId: command.commandId,
      roundId: command.roundId,
      playerId: command.playerId,
    };
    switch (command.type) {
      case 'PlaceBet':
        return this.placeBet.prepare({
          ...common,
          betType: command.betType,
          spot: command.spot,
          amount: command.amount,
          sideBets: command.sideBets,
          currency: command.currency,
        });
      case 'TakeSeat':
        // A Lux seat is taken by its seat bet (games.md), so the seat request carries the bet.
        return this.placeBet.prepare({
          ...common,
          betType: 'main',
          spot: String(command.seat),
          amount: command.amount,
          sideBets: command.pairs ? { pairs: command.pairs } : undefined,
          currency: command.currency,
        });
      case 'LeaveSeat':
        return this.decide.prepare({ ...common, action: 'leave-seat', seat: String(command.seat) });
      case 'Decide':
        return this.decide.prepare({ ...common, action: command.action, seat: command.seat });
      case 'BetBehindChoice':
        return this.decide.prepare({
          ...common,
          action: command.choice,
          seat: String(command.seat),
        });
    }
  }
}
