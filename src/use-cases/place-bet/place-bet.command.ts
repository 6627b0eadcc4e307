import { PLATFORM_ID_PATTERN, playerKey } from '../../common/player-key';
import { commandFingerprint } from '../common/command-fingerprint';
import { rejected } from '../common/table-command';
import type { BatchItem, CommandRejection, PlaceBetFields } from '../common/tables.port';

/** A platform places a player's bet (HTTP, Kafka PlaceBet or TakeSeat, or the inbox). */
export class PlaceBetCommand {
  private constructor(readonly fields: PlaceBetFields) {}

  static create(fields: PlaceBetFields): PlaceBetCommand | CommandRejection {
    if (typeof fields.playerId !== 'string' || fields.playerId.trim() === '') {
      return rejected('invalid-command', 'A bet needs a playerId');
    }
    if (typeof fields.platformId !== 'string' || !PLATFORM_ID_PATTERN.test(fields.platformId)) {
      return rejected('invalid-command', 'A bet needs the platform that sends it');
    }
    return new PlaceBetCommand(fields);
  }

  get tableId(): string {
    return this.fields.tableId;
  }

  /** The table input, once the table's own checks that need no state pass (its currency). */
  toItem(table: { currency: string }, betId: string): { item: BatchItem } | CommandRejection {
    const c = this.fields;
    if (c.currency && c.currency !== table.currency) {
      return rejected(
        'wrong-currency',
        `Table ${c.tableId} plays in ${table.currency}, not ${c.currency}`,
      );
    }
    return {
      item: {
        input: {
          type: 'bet',
          bet: {
            betId,
            commandId: c.commandId,
            roundId: c.roundId,
            playerId: playerKey(c.platformId, c.playerId),
            betType: c.betType,
            spot: c.spot,
            amount: c.amount,
            sideBets: c.sideBets,
          },
        },
        meta: {
          commandId: c.commandId,
          kind: 'place-bet',
          fingerprint: c.commandId ? placeBetFingerprint(c) : undefined,
        },
      },
    };
  }
}

/** What a bet asks: table, round, player, bet, spot, amount and side bets (none = no side bets). */
function placeBetFingerprint(c: PlaceBetFields): string {
  const sideBets = c.sideBets && Object.keys(c.sideBets).length > 0 ? c.sideBets : null;
  return commandFingerprint('place-bet', [
    c.tableId,
    c.roundId,
    playerKey(c.platformId, c.playerId),
    c.betType,
    c.spot,
    c.amount,
    sideBets,
  ]);
}
