import type { CommandMessage, CommandResultMessage } from '@studio/contracts';
import { oneLine } from '../common/one-line';
import { isCommandSpecificFailure } from '../tables/command-queue';
import { ApplyCommandsCommand } from '../use-cases/apply-commands/apply-commands.command';
import type { ApplyCommands } from '../use-cases/apply-commands/apply-commands.use-case';
import type { PlatformCommand } from '../use-cases/common/platform-command';
import { isRejection } from '../use-cases/common/table-command';
import type { CommandRejection, CommandResult } from '../use-cases/common/tables.port';
import { CancelBetCommand } from '../use-cases/cancel-bet/cancel-bet.command';
import { DecideCommand } from '../use-cases/decide/decide.command';
import { DEFAULT_PLATFORM } from '../common/player-key';
import { PlaceBetCommand } from '../use-cases/place-bet/place-bet.command';

export interface IntakeCounters {
  accepted: number;
  rejected: number;
  duplicates: number;
  deadLettered: number;
}

/** A command's answer, or why it could not be applied at all (dead-lettered `command-failed`). */
export type AppliedCommand = CommandResult | { failed: string };

/** The codes of a table this instance does not (or no longer) drive: the inbox takes those. */
export function isNotDrivenHere(result: AppliedCommand): boolean {
  return (
    'accepted' in result &&
    !result.accepted &&
    (result.code === 'table-not-driven-here' || result.code === 'table-stopping')
  );
}

/**
 * The platform a Kafka command is from: stamped on the message by the intake (its topic's); the
 * v1 topics are the default platform's.
 */
export function platformOfMessage(message: CommandMessage): string {
  return (message as { platformId?: string }).platformId ?? DEFAULT_PLATFORM;
}

/** A Kafka command as the use case's command object (validated), or its refusal. */
export function platformCommandOf(message: CommandMessage): PlatformCommand | CommandRejection {
  // What the intake stamped on the message once it passed its schema: its platform (the topic's)
  // and the currencies that platform uses (the registry's).
  const stamped = message as { platformId?: string; platformCurrencies?: readonly string[] };
  const platformCurrencies = stamped.platformCurrencies;
  const common = {
    tableId: message.tableId,
    commandId: message.commandId,
    roundId: message.roundId,
    platformId: platformOfMessage(message),
    playerId: message.playerId,
  };
  // The shared fields come last in each literal: V8 (Node 20) adds a property to a spread copy
  // slowly (about 1 µs each, and a new hidden class), but copies a spread into a literal fast.
  switch (message.type) {
    case 'PlaceBet':
      return PlaceBetCommand.create({
        betType: message.betType,
        spot: message.spot,
        amount: message.amount,
        sideBets: message.sideBets,
        currency: message.currency,
        platformCurrencies,
        ...common,
      });
    case 'TakeSeat':
      // A Lux seat is taken by its seat bet (games.md), so the seat request carries the bet.
      return PlaceBetCommand.create({
        betType: 'main',
        spot: String(message.seat),
        amount: message.amount,
        sideBets: message.pairs ? { pairs: message.pairs } : undefined,
        currency: message.currency,
        platformCurrencies,
        ...common,
      });
    case 'LeaveSeat':
      return DecideCommand.create({ action: 'leave-seat', seat: String(message.seat), ...common });
    case 'Decide':
      return DecideCommand.create({ action: message.action, seat: message.seat, ...common });
    case 'BetBehindChoice':
      return DecideCommand.create({
        action: message.choice,
        seat: String(message.seat),
        ...common,
      });
    case 'CancelBet':
      return CancelBetCommand.create({
        betId: message.betId,
        betCommandId: message.betCommandId,
        ...common,
      });
  }
}

/**
 * Applies validated platform commands of a table driven here through ApplyCommands (the table's
 * one intake), and words their answers for the results topic. Shared by the Kafka intake
 * (commands read here) and the inbox drainer (commands other instances read).
 */
export class CommandApplier {
  readonly counters: IntakeCounters = { accepted: 0, rejected: 0, duplicates: 0, deadLettered: 0 };

  constructor(private readonly applyCommands: ApplyCommands) {}

  /**
   * Applies a table's commands; when that fails because of what one command carries (a value the
   * database refuses, a defect its input triggers) rather than an outage, the batch is split until
   * the failing command is alone, so it alone is dead-lettered and the partition moves on. Halves
   * are applied in order, so the answers stay those of applying the commands one by one. An outage
   * still throws: the batch is read again once the database is back.
   */
  async applyTable(
    tableId: string,
    commands: readonly PlatformCommand[],
  ): Promise<AppliedCommand[]> {
    try {
      return await this.applyCommands.execute(this.command(tableId, commands));
    } catch (error) {
      if (!isCommandSpecificFailure(error)) throw error;
      if (commands.length === 1) {
        return [{ failed: `The command could not be applied: ${oneLine(error)}`.slice(0, 500) }];
      }
      const half = Math.ceil(commands.length / 2);
      const first = await this.applyTable(tableId, commands.slice(0, half));
      const second = await this.applyTable(tableId, commands.slice(half));
      return [...first, ...second];
    }
  }

  /** A table's next commands: stored answers looked up and stepped ahead (ApplyCommands). */
  prepareAhead(tableId: string, commands: readonly PlatformCommand[]): void {
    this.applyCommands.prepareAhead(this.command(tableId, commands));
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

  /** Grouped by table by the caller, so the command never refuses them. */
  private command(tableId: string, commands: readonly PlatformCommand[]): ApplyCommandsCommand {
    const command = ApplyCommandsCommand.create(tableId, commands);
    if (isRejection(command)) throw new TypeError(command.message);
    return command;
  }
}
