import { PlayerRef, playerOfKey } from '../../common/player-key';
import type { BetRecord, DecisionRecord, SettlementRecord } from '../../history/reader/bets.reader';
import type { HandRecord } from '../../history/reader/round-cards.reader';

/**
 * The timeline's entries that name a player. `playerId` stays the player's key as stored
 * (`casino-a:alice`, a `default` player's bare id: what the auditor API has always answered and
 * what the `playerId` search takes); `player` says who it is, the platform and the platform's own
 * playerId, so a console shows the two apart. Settlements also name their currency.
 */
export function betEntries(bets: readonly BetRecord[]) {
  return bets.map(({ placedAt, ...b }) => ({
    at: placedAt,
    kind: 'bet',
    ...b,
    player: playerOfKey(b.playerId),
  }));
}

export function decisionEntries(decisions: readonly DecisionRecord[]) {
  return decisions.map(({ decidedAt, ...d }) => ({
    at: decidedAt,
    kind: 'decision',
    ...d,
    player: playerOfKey(d.playerId),
  }));
}

/** Each settlement in its own currency, as stored with it. */
export function settlementEntries(settlements: readonly SettlementRecord[]) {
  return settlements.map(({ settledAt, roundId: _round, ...s }) => ({
    at: settledAt,
    kind: 'settlement',
    ...s,
    player: playerOfKey(s.playerId),
  }));
}

/**
 * A seat's hand names its seated player by key (Blackjack Lux, the practice table, whose bots are
 * `bot:<seat>`); other owners are no player (an Infinite Blackjack group: "80 players: stand").
 */
export function handsWithPlayers(
  hands: readonly HandRecord[],
): Array<HandRecord & { player?: PlayerRef }> {
  return hands.map((h) =>
    h.owner !== null && /^seat-\d+\//.test(h.hand) ? { ...h, player: playerOfKey(h.owner) } : h,
  );
}
