import type { BetRecord } from '../history/reader/bets.reader';

/**
 * The currency of each settlement of a round, from the round's bets: a table settles a player's
 * bets in the one currency that player bet in that round (src/table-core/transition.ts), so a
 * settlement is in its bet's currency, else (an insurance has no bet row) in its player's.
 * Undefined when the round holds no bet of the player: then it is in the table's default, as
 * studio_write_settlements stores it. (The settlements row names its currency too, but the
 * history reader does not return that column yet.)
 */
export function settlementCurrencyOf(
  bets: readonly Pick<BetRecord, 'betId' | 'playerId' | 'currency'>[],
): (settlement: { betId: string | null; playerId: string }) => string | undefined {
  const byBet = new Map(bets.map((b) => [b.betId, currencyCode(b.currency)]));
  const byPlayer = new Map<string, string>();
  for (const b of bets)
    if (!byPlayer.has(b.playerId)) byPlayer.set(b.playerId, currencyCode(b.currency));
  return (s) => (s.betId === null ? undefined : byBet.get(s.betId)) ?? byPlayer.get(s.playerId);
}

/** The column is char(3): a code read from it may carry padding. */
const currencyCode = (code: string): string => code.trim();
