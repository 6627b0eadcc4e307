import type { IdGenerator } from '../../clock/clock';
import { CancelBetCommand } from '../cancel-bet/cancel-bet.command';
import type { PlacedBets } from '../cancel-bet/placed-bets.port';
import {
  applyPrepared,
  PlatformCommand,
  PreparedCommand,
  prepareCommand,
  resolveCancellations,
} from '../common/platform-command';
import type { CommandResult, DrivenTable, Tables } from '../common/tables.port';
import type { ApplyCommandsCommand } from './apply-commands.command';

/**
 * Applies many platform commands of one table (a Kafka batch's, an inbox drain's) in the order
 * given, with the answers one-by-one submits would get, in as few transactions as the game
 * allows: the table is looked up once, and its commands go through its one intake.
 */
export class ApplyCommands {
  /** Commands prepared ahead (prepareAhead): their batch takes these very items. */
  private readonly prepared = new WeakMap<PlatformCommand, PreparedCommand>();

  constructor(
    private readonly tables: Tables,
    private readonly ids: IdGenerator,
    /** Where cancellations find their bets (required once a cancellation comes). */
    private readonly bets?: PlacedBets,
  ) {}

  async execute(command: ApplyCommandsCommand): Promise<CommandResult[]> {
    const { tableId, commands } = command;
    if (commands.length === 0) return [];
    const lookup = this.tables.get(tableId);
    if (!lookup.ok) {
      return commands.map(() => ({ accepted: false, code: lookup.code, message: lookup.message }));
    }
    const table = lookup.runtime;
    if (commands.some((c) => c instanceof CancelBetCommand)) {
      if (!this.bets) throw new Error('A cancellation needs the PlacedBets port');
      await resolveCancellations(commands, this.bets);
    }
    return applyPrepared(
      table,
      commands.map((c) => this.prepare(c, table)),
    );
  }

  /**
   * The commands about to be applied (the intake's next chunk, while this one commits): their
   * stored answers looked up and, as the very items their execute will take, stepped ahead.
   */
  prepareAhead(command: ApplyCommandsCommand): void {
    const lookup = this.tables.get(command.tableId);
    // A cancellation looks its bet up first: such a chunk is stepped by its batch alone.
    if (!lookup.ok || command.commands.some((c) => c instanceof CancelBetCommand)) return;
    const table = lookup.runtime;
    const items = command.commands.flatMap((c) => {
      const prepared = prepareCommand(c, table, this.ids);
      this.prepared.set(c, prepared);
      return 'item' in prepared ? [prepared.item] : [];
    });
    table.prepareAhead(items);
  }

  private prepare(command: PlatformCommand, table: DrivenTable): PreparedCommand {
    const ahead = this.prepared.get(command);
    if (!ahead) return prepareCommand(command, table, this.ids);
    this.prepared.delete(command);
    return ahead;
  }
}
