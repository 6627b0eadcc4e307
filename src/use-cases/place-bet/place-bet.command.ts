import { commandKeyOf, PLATFORM_ID_PATTERN, playerKey } from '../../common/player-key';
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

  /**
   * The table input, once the table's own checks that need no state pass: the bet's currency is
   * one the table accepts (`wrong-currency`) and its platform uses (`currency-not-used-by-platform`);
   * a bet that names none is in the first of the table's currencies (its default first) that the
   * platform uses.
   */
  toItem(
    table: { currencies: readonly string[] },
    betId: string,
  ): { item: BatchItem } | CommandRejection {
    const c = this.fields;
    const currency = betCurrency(c, table.currencies);
    if (typeof currency !== 'string') return currency;
    const commandId = commandKeyOf(c.platformId, c.commandId);
    return {
      item: {
        input: {
          type: 'bet',
          bet: {
            betId,
            commandId,
            roundId: c.roundId,
            playerId: playerKey(c.platformId, c.playerId),
            betType: c.betType,
            spot: c.spot,
            amount: c.amount,
            sideBets: c.sideBets,
            // The table's default currency is left unsaid (single-currency tables as before).
            ...(currency !== table.currencies[0] ? { currency } : {}),
          },
        },
        meta: {
          commandId,
          kind: 'place-bet',
          fingerprint: commandId
            ? placeBetFingerprint(c, currency === table.currencies[0] ? null : currency)
            : undefined,
        },
      },
    };
  }
}

/** The bet's currency, or why it cannot be placed in it. */
function betCurrency(c: PlaceBetFields, accepted: readonly string[]): string | CommandRejection {
  const used = c.platformCurrencies;
  if (c.currency === undefined) {
    const currency = used ? accepted.find((x) => used.includes(x)) : accepted[0];
    return (
      currency ??
      rejected(
        'currency-not-used-by-platform',
        `Table ${c.tableId} plays in ${accepted.join(', ')}, none of them a currency of platform ${c.platformId}`,
      )
    );
  }
  if (!accepted.includes(c.currency)) {
    return rejected(
      'wrong-currency',
      `Table ${c.tableId} plays in ${accepted.join(', ')}, not ${c.currency}`,
    );
  }
  if (used && !used.includes(c.currency)) {
    return rejected(
      'currency-not-used-by-platform',
      `Platform ${c.platformId} does not use ${c.currency} (it uses ${used.join(', ')})`,
    );
  }
  return c.currency;
}

/**
 * What a bet asks: table, round, player, bet, spot, amount, side bets (none = no side bets) and its
 * currency when it is not the table's default (so a bet's fingerprint is what it was before).
 */
function placeBetFingerprint(c: PlaceBetFields, currency: string | null): string {
  const sideBets = c.sideBets && Object.keys(c.sideBets).length > 0 ? c.sideBets : null;
  return commandFingerprint('place-bet', [
    c.tableId,
    c.roundId,
    playerKey(c.platformId, c.playerId),
    c.betType,
    c.spot,
    c.amount,
    sideBets,
    ...(currency ? [currency] : []),
  ]);
}
