import type { CommandMessage, CommandResultMessage } from '@studio/contracts';
import { oneLine } from '../common/one-line';
import type { BatchItem } from '../tables/table-runtime';
import type { ApplyCommands } from '../use-cases/apply-commands.use-case';
import type { Decide } from '../use-cases/decide.use-case';
import type { PlaceBet } from '../use-cases/place-bet.use-case';
import type { CommandResult } from '../use-cases/table-command';

export interface IntakeCounters {
  accepted: number;
  rejected: number;
  duplicates: number;
  deadLettered: number;
}

/** A command's answer, or why it could not be applied at all (dead-lettered `command-failed`). */
export type AppliedCommand = CommandResult | { failed: string };

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

/** The codes of a table this instance does not (or no longer) drive: the inbox takes those. */
export function isNotDrivenHere(result: AppliedCommand): boolean {
  return (
    'accepted' in result &&
    !result.accepted &&
    (result.code === 'table-not-driven-here' || result.code === 'table-stopping')
  );
}

/**
 * Applies validated platform commands to the tables this instance drives, through the same use
 * cases as the HTTP API, and words their answers for the results topic. Shared by the Kafka
 * intake (commands read here) and the inbox drainer (commands other instances read).
 */
export class CommandApplier {
  readonly counters: IntakeCounters = { accepted: 0, rejected: 0, duplicates: 0, deadLettered: 0 };

  constructor(
    readonly placeBet: PlaceBet,
    readonly decide: Decide,
    private readonly applyCommands: ApplyCommands,
  ) {}

  /**
   * Applies a table's commands; when that fails because of what one command carries (a value the
   * database refuses, a defect its input triggers) rather than an outage, the batch is split until
   * the failing command is alone, so it alone is dead-lettered and the partition moves on. Halves
   * are applied in order, so the answers stay those of applying the commands one by one. An outage
   * still throws: the batch is read again once the database is back.
   */
  async applyTable(tableId: string, items: readonly BatchItem[]): Promise<AppliedCommand[]> {
    try {
      return await this.applyCommands.execute(tableId, items);
    } catch (error) {
      if (!isCommandSpecificFailure(error)) throw error;
      if (items.length === 1) {
        return [{ failed: `The command could not be applied: ${oneLine(error)}`.slice(0, 500) }];
      }
      const half = Math.ceil(items.length / 2);
      const first = await this.applyTable(tableId, items.slice(0, half));
      const second = await this.applyTable(tableId, items.slice(half));
      return [...first, ...second];
    }
  }

  /**
   * Starts looking up the stored answers of a table's next commands, and stepping the items their
   * applyTable will get (ApplyCommands.prefetch).
   */
  prefetch(tableId: string, commandIds: readonly string[], items?: readonly BatchItem[]): void {
    this.applyCommands.prefetch(tableId, commandIds, items);
  }

  answer(command: CommandMessage, result: CommandResult, answeredAt: string): CommandResultMessage {
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

  /** The platform command as the table input of its use case. */
  prepare(command: CommandMessage): { item: BatchItem } | { rejected: CommandResult } {
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
