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
 * The transport-free core of the Kafka command intake: bytes in, either an answer for the results
 * topic or a dead-letter reason out. Valid commands go through the same use cases as the HTTP API,
 * so a repeated command id gets the stored first answer (`duplicate: true`) whichever way it came.
 */
export class CommandIntake {
  readonly counters: IntakeCounters = { accepted: 0, rejected: 0, duplicates: 0, deadLettered: 0 };

  constructor(
    private readonly placeBet: PlaceBet,
    private readonly decide: Decide,
    private readonly clock: Clock,
  ) {}

  async process(raw: RawCommandMessage): Promise<IntakeOutcome> {
    const parsed = this.parse(raw);
    if ('code' in parsed) {
      this.counters.deadLettered += 1;
      return { kind: 'dead-letter', ...parsed };
    }
    const command = parsed.command;
    const result = await this.apply(command);
    if (result.duplicate) this.counters.duplicates += 1;
    if (result.accepted) this.counters.accepted += 1;
    else this.counters.rejected += 1;
    return {
      kind: 'answered',
      result: {
        commandId: command.commandId,
        commandType: command.type,
        tableId: command.tableId,
        playerId: command.playerId,
        status: result.accepted ? 'accepted' : 'rejected',
        ...(result.accepted
          ? { reply: result.reply }
          : { code: result.code, message: result.message }),
        duplicate: result.duplicate === true,
        answeredAt: this.clock.now().toISOString(),
      },
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

  private apply(command: CommandMessage): Promise<CommandResult> {
    const common = {
      tableId: command.tableId,
      commandId: command.commandId,
      roundId: command.roundId,
      playerId: command.playerId,
    };
    switch (command.type) {
      case 'PlaceBet':
        return this.placeBet.execute({
          ...common,
          betType: command.betType,
          spot: command.spot,
          amount: command.amount,
          sideBets: command.sideBets,
          currency: command.currency,
        });
      case 'TakeSeat':
        // A Lux seat is taken by its seat bet (games.md), so the seat request carries the bet.
        return this.placeBet.execute({
          ...common,
          betType: 'main',
          spot: String(command.seat),
          amount: command.amount,
          sideBets: command.pairs ? { pairs: command.pairs } : undefined,
          currency: command.currency,
        });
      case 'LeaveSeat':
        return this.decide.execute({ ...common, action: 'leave-seat', seat: String(command.seat) });
      case 'Decide':
        return this.decide.execute({ ...common, action: command.action, seat: command.seat });
      case 'BetBehindChoice':
        return this.decide.execute({
          ...common,
          action: command.choice,
          seat: String(command.seat),
        });
    }
  }
}
