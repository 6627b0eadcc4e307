import type { IdGenerator } from '../../clock/clock';
import { CancelBetCommand, resolveCancellations } from '../cancel-bet/cancel-bet.command';
import type { PlacedBets } from '../cancel-bet/placed-bets.port';
import type { DecideCommand } from '../decide/decide.command';
import { PlaceBetCommand } from '../place-bet/place-bet.command';
import { isRejection } from './table-command';
import type {
  BatchItem,
  CommandForwarding,
  CommandRejection,
  CommandResult,
  DrivenTable,
  ForwardedCommand,
  Tables,
} from './tables.port';

/** A platform's command, validated: a bet, a decision or a bet's cancellation. */
export type PlatformCommand = PlaceBetCommand | DecideCommand | CancelBetCommand;

/** A command's table input, or why the table refuses it before stepping. */
export type PreparedCommand = { item: BatchItem } | CommandRejection;

/** The table input of a platform command at a table driven here (a bet gets its id now). */
export function prepareCommand(
  command: PlatformCommand,
  table: DrivenTable,
  ids: IdGenerator,
): PreparedCommand {
  // A cancellation's bet was looked up before (resolveCancellations).
  return command instanceof PlaceBetCommand ? command.toItem(table, ids.newId()) : command.toItem();
}

/**
 * Applies prepared commands at their table through its one intake (group commit with whatever else
 * arrives meanwhile) and answers each in order; refused ones keep their refusal.
 */
export async function applyPrepared(
  table: DrivenTable,
  prepared: readonly PreparedCommand[],
): Promise<CommandResult[]> {
  const results: CommandResult[] = new Array(prepared.length);
  const at: number[] = [];
  const items: BatchItem[] = [];
  prepared.forEach((p, i) => {
    if (isRejection(p)) results[i] = p;
    else {
      at.push(i);
      items.push(p.item);
    }
  });
  const answers = await table.submitCommands(items);
  at.forEach((i, k) => (results[i] = answers[k]));
  return results;
}

/**
 * One platform command over HTTP: its table looked up once, then applied there through the
 * table's intake, or passed to the instance that drives it (the table's inbox). While commands
 * other instances read wait in the inbox of a table driven here, new ones queue behind them.
 */
export abstract class SinglePlatformCommand<C extends PlatformCommand> {
  constructor(
    private readonly tables: Tables,
    private readonly ids: IdGenerator,
    private readonly forwarding: CommandForwarding,
    /** Where a cancellation finds its bet (only the cancel use case needs it). */
    private readonly bets?: PlacedBets,
  ) {}

  protected abstract forwarded(command: C): ForwardedCommand;

  async execute(command: C): Promise<CommandResult> {
    const { tableId } = command;
    const lookup = this.tables.get(tableId);
    if (lookup.ok && !this.forwarding.waiting(tableId)) {
      if (command instanceof CancelBetCommand) await command.resolve(this.requireBets());
      const [result] = await applyPrepared(lookup.runtime, [
        prepareCommand(command, lookup.runtime, this.ids),
      ]);
      return result;
    }
    if (!lookup.ok && lookup.code === 'unknown-table') {
      return { accepted: false, code: lookup.code, message: lookup.message };
    }
    return this.forwarding.forward(tableId, this.forwarded(command));
  }

  private requireBets(): PlacedBets {
    if (!this.bets) throw new Error('A cancellation needs the PlacedBets port');
    return this.bets;
  }
}

export { resolveCancellations };
