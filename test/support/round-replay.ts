import type { CardCode } from '@studio/cards';
import type { GameAdapter, SettlementRecord } from '../../src/rounds/game-adapter';

export type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

/** Replays a stored round through a fresh engine: its cards in order, its bets, its decisions. */
export async function replayRound(
  q: Query,
  adapter: GameAdapter,
  roundId: string,
  decisions: Array<{ player_id: string; action: string }> = [],
): Promise<SettlementRecord[]> {
  const [round] = await q<{ shoe_number: number; round_number: number }>(
    `SELECT shoe_number, round_number FROM rounds WHERE id = $1`,
    [roundId],
  );
  const bets = await q<{
    id: string;
    player_id: string;
    bet_type: string;
    spot: string | null;
    amount: string;
  }>(
    `SELECT id, player_id, bet_type, spot, amount FROM bets WHERE round_id = $1 ORDER BY placed_at, id`,
    [roundId],
  );
  const cards = await q<{ card: CardCode }>(
    `SELECT card FROM round_cards WHERE round_id = $1 AND corrected_by_id IS NULL ORDER BY id`,
    [roundId],
  );
  const ok = <S>(r: { state: S } | { rejected: unknown }): S => {
    if ('rejected' in r) throw new Error(`replay rejected: ${JSON.stringify(r.rejected)}`);
    return r.state;
  };
  let state = ok(
    adapter.startRound({
      roundId,
      shoeNumber: round.shoe_number,
      roundNumber: round.round_number,
    }),
  );
  const settlements: SettlementRecord[] = [];
  const collect = (r: { settlements?: SettlementRecord[] } | { rejected: unknown }) => {
    if ('settlements' in r && r.settlements) settlements.push(...r.settlements);
  };
  if (adapter.game === 'infinite-blackjack') {
    const byPlayer = new Map<string, { main: number; side: Record<string, number> }>();
    for (const b of bets) {
      const entry = byPlayer.get(b.player_id) ?? { main: 0, side: {} };
      if (b.bet_type === 'main') entry.main = Number(b.amount);
      else entry.side[b.bet_type] = Number(b.amount);
      byPlayer.set(b.player_id, entry);
    }
    for (const [playerId, bet] of byPlayer) {
      state = ok(
        adapter.placeBet(
          state,
          { betId: playerId, playerId, betType: 'main', amount: bet.main, sideBets: bet.side },
          round.round_number,
        ),
      );
    }
  } else {
    for (const b of bets) {
      state = ok(
        adapter.placeBet(
          state,
          {
            betId: b.id,
            playerId: b.player_id,
            betType: b.bet_type,
            spot: b.spot ?? undefined,
            amount: Number(b.amount),
          },
          round.round_number,
        ),
      );
    }
  }
  if (adapter.game === 'pok-deng') {
    for (const c of cards) state = ok(adapter.card(state, c.card));
    state = ok(adapter.closeBetting(state));
    for (let r = adapter.autoStep(state); r && !('rejected' in r); r = adapter.autoStep(state)) {
      collect(r);
      state = r.state;
    }
    return settlements;
  }
  // Infinite Blackjack: close betting, then cards, with each decision window closed by its
  // timer after the stored decisions of that window (auto-play for the silent players).
  let r = adapter.closeBetting(state);
  state = ok(r);
  const pendingDecisions = [...decisions];
  for (const c of cards) {
    r = adapter.card(state, c.card);
    state = ok(r);
    collect(r);
    state = closeWindows(adapter, state, pendingDecisions, collect);
  }
  return settlements;
}

function closeWindows<S>(
  adapter: GameAdapter,
  state: S,
  decisions: Array<{ player_id: string; action: string }>,
  collect: (r: { settlements?: SettlementRecord[] } | { rejected: unknown }) => void,
): S {
  for (let guard = 0; guard < 20; guard += 1) {
    const phase = adapter.phase(state);
    if (phase === 'insurance') {
      const window = (state as unknown as { window: number }).window;
      const r = adapter.timerFired(state, 'insurance', window);
      if ('rejected' in r) break;
      collect(r);
      state = r.state as S;
      continue;
    }
    if (phase !== 'deciding') break;
    while (decisions.length) {
      const next = decisions[0];
      const r = adapter.decide(state, { playerId: next.player_id, action: next.action });
      if ('rejected' in r) break;
      decisions.shift();
      state = r.state as S;
    }
    const window = (state as unknown as { window: number }).window;
    const r = adapter.timerFired(state, 'decision', window);
    if ('rejected' in r) break;
    collect(r);
    state = r.state as S;
  }
  return state;
}

export function normalise(s: SettlementRecord | (SettlementRecord & { stake: string })) {
  return {
    playerId: s.playerId,
    betType: s.betType,
    stake: Number(s.stake),
    returned: Number(s.returned),
    net: Number(s.net),
    outcome: s.outcome,
  };
}
