import { IdGenerator } from '../clock/clock';
import type { BatchItem } from '../tables/table-runtime';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';
import { commandFingerprint } from './command-fingerprint';
import { CommandResult, rejected, TableCommand } from './table-command';

export interface PlaceBetCommand {
  tableId: string;
  commandId?: string;
  roundId?: string;
  playerId: string;
  betType: string;
  spot?: string;
  amount: number;
  sideBets?: Record<string, number>;
  currency?: string;
}

/** A platform places a player's bet. Repeating a command id returns the first answer. */
export class PlaceBet extends TableCommand {
  constructor(
    tables: TableRuntimeRegistry,
    private readonly ids: IdGenerator,
  ) {
    super(tables);
  }

  async execute(command: PlaceBetCommand): Promise<CommandResult> {
    const prepared = this.prepare(command);
    if ('rejected' in prepared) return prepared.rejected;
    return this.submit(command.tableId, prepared.item.input, prepared.item.meta);
  }

  /** The checks that need no table state, and the table input (for single or batched submits). */
  prepare(command: PlaceBetCommand): { item: BatchItem } | { rejected: CommandResult } {
    const lookup = this.tables.get(command.tableId);
    if (lookup.ok) {
      const currency = lookup.runtime.machine.settings.currency;
      if (command.currency && command.currency !== currency) {
        return {
          rejected: rejected(
            'wrong-currency',
            `Table ${command.tableId} plays in ${currency}, not ${command.currency}`,
          ),
        };
      }
    }
    if (typeof command.playerId !== 'string' || command.playerId.trim() === '') {
      return { rejected: rejected('invalid-command', 'A bet needs a playerId') };
    }
    return {
      item: {
        input: {
          type: 'bet',
          bet: {
            betId: this.ids.newId(),
            commandId: command.commandId,
            roundId: command.roundId,
            playerId: command.playerId,
            betType: command.betType,
            spot: command.spot,
            amount: command.amount,
            sideBets: command.sideBets,
          },
        },
        meta: {
          commandId: command.commandId,
          kind: 'place-bet',
          fingerprint: command.commandId ? placeBetFingerprint(command) : undefined,
        },
      },
    };
  }
}

/** What a bet asks: table, round, player, bet, spot, amount and side bets (none = no side bets). */
function placeBetFingerprint(c: PlaceBetCommand): string {
  const sideBets = c.sideBets && Object.keys(c.sideBets).length > 0 ? c.sideBets : null;
  return commandFingerprint('place-bet', [
    c.tableId,
    c.roundId,
    c.playerId,
    c.betType,
    c.spot,
    c.amount,
    sideBets,
  ]);
}
