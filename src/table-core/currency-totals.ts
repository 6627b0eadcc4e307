import type { RoundEvent, SettlementRecord } from '../games/game-adapter';

/** What a round's settled bets of one type add up to in one currency (integer minor units). */
export interface CurrencyTotals {
  bets: number;
  stake: number;
  returned: number;
  net: number;
}

/**
 * On a table of several currencies a round's event must not add amounts of different currencies
 * together: a game's `totals` (Infinite Blackjack's RoundSettled: staked, paid and refunded per
 * bet type over every player) becomes `totalsByCurrency`, per currency then bet type, summed from
 * the round's settlements (each in its bet's currency). Other events are returned as they are.
 */
export function totalsPerCurrency(
  event: RoundEvent,
  settlements: readonly (SettlementRecord & { currency: string })[],
): RoundEvent {
  if (!('totals' in event.payload)) return event;
  const byCurrency: Record<string, Record<string, CurrencyTotals>> = {};
  for (const s of settlements) {
    const ofCurrency = (byCurrency[s.currency] ??= {});
    const t = (ofCurrency[s.betType] ??= { bets: 0, stake: 0, returned: 0, net: 0 });
    t.bets += 1;
    t.stake += s.stake;
    t.returned += s.returned;
    t.net += s.net;
  }
  const { totals: _mixed, ...payload } = event.payload;
  return { ...event, payload: { ...payload, totalsByCurrency: byCurrency } };
}
