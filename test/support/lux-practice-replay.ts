/**
 * Replays of stored Lux and European practice rounds through the game adapters, for the
 * orchestrator tests: the settlements a replay computes must equal the stored ones.
 */
import type { CardCode } from '@studio/cards';
import type { PracticeState } from '../../src/games/european-practice/european-practice.state';
import type {
  AdapterResult,
  AdapterStep,
  GameAdapter,
  SettlementRecord,
} from '../../src/games/game-adapter';

export type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

export interface StoredBet {
  id: string;
  player_id: string;
  bet_type: string;
  spot: string | null;
  amount: string;
}
export interface StoredDecision {
  player_id: string;
  hand: string | null;
  action: string;
  automatic: boolean;
}

export const ok = <S>(r: AdapterResult<S>, what: string): AdapterStep<S> => {
  if ('rejected' in r) throw new Error(`replay: ${what} rejected: ${JSON.stringify(r.rejected)}`);
  return r;
};

export async function storedRound(q: Query, roundId: string) {
  const [round] = await q<{ shoe_number: number; round_number: number }>(
    `SELECT shoe_number, round_number FROM rounds WHERE id = $1`,
    [roundId],
  );
  const bets = await q<StoredBet>(
    `SELECT id, player_id, bet_type, spot, amount FROM bets WHERE round_id = $1 ORDER BY placed_at, id`,
    [roundId],
  );
  const cards = await q<{ card: CardCode; slot: string }>(
    `SELECT card, slot FROM round_cards WHERE round_id = $1 AND corrected_by_id IS NULL ORDER BY id`,
    [roundId],
  );
  const decisions = await q<StoredDecision>(
    `SELECT player_id, hand, action, automatic FROM decisions WHERE round_id = $1 ORDER BY id`,
    [roundId],
  );
  const settlements = await q<SettlementRecord & { stake: string; returned: string; net: string }>(
    `SELECT bet_id AS "betId", player_id AS "playerId", bet_type AS "betType", spot, stake, returned,
            net, outcome, rounded_down AS "roundedDown"
       FROM settlements WHERE round_id = $1 ORDER BY id`,
    [roundId],
  );
  return { round, bets, cards, decisions, settlements };
}

export const normalise = (s: SettlementRecord | (SettlementRecord & { stake: string })) => ({
  betId: s.betId,
  playerId: s.playerId,
  betType: s.betType,
  spot: s.spot,
  stake: Number(s.stake),
  returned: Number(s.returned),
  net: Number(s.net),
  outcome: s.outcome,
  roundedDown: s.roundedDown,
});

/** With PRINT_ROUNDS=1 the checked rounds are printed (the figures quoted in the docs). */
export function report(label: string, stored: Awaited<ReturnType<typeof storedRound>>): void {
  if (!process.env.PRINT_ROUNDS) return;
  const lines = [
    `${label}: cards ${stored.cards.map((c) => `${c.slot}=${c.card}`).join(' ')}`,
    `  decisions ${stored.decisions.map((d) => `${d.player_id}@${d.hand}:${d.action}${d.automatic ? '(auto)' : ''}`).join(' ')}`,
    ...stored.settlements.map(
      (s) =>
        `  ${s.playerId} ${s.betType} seat ${s.spot}: stake ${s.stake} returned ${s.returned} net ${s.net} ${s.outcome} rounded ${s.roundedDown}`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * Lux replay: bets (insurance rows come from decisions), then the cards in order; after each
 * step the stored decisions are fed in order as soon as the engine takes them, and an insurance
 * window nobody else answers is closed by its timer. Automatic plays are stored as decisions.
 */
export function replayLux(
  adapter: GameAdapter,
  roundId: string,
  stored: Awaited<ReturnType<typeof storedRound>>,
): SettlementRecord[] {
  const settlements: SettlementRecord[] = [];
  let state = ok(
    adapter.startRound({
      roundId,
      shoeNumber: stored.round.shoe_number,
      roundNumber: stored.round.round_number,
    }),
    'start',
  ).state;
  for (const b of stored.bets.filter((x) => x.bet_type !== 'insurance')) {
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
        stored.round.round_number,
      ),
      `bet ${b.id}`,
    ).state;
  }
  const pending = [...stored.decisions];
  const apply = (r: AdapterResult<unknown>) => {
    if ('settlements' in r && r.settlements) settlements.push(...r.settlements);
    state = (r as { state: typeof state }).state;
  };
  const feed = () => {
    for (let guard = 0; guard < 50; guard += 1) {
      const next = pending[0];
      if (next) {
        const r = adapter.decide(state, {
          playerId: next.player_id,
          action: next.action,
          seat: next.hand?.split('/')[0],
        });
        if (!('rejected' in r)) {
          pending.shift();
          apply(r);
          continue;
        }
      }
      if (adapter.phase(state) === 'insurance') {
        apply(
          ok(
            adapter.timerFired(state, 'insurance', (state as { window: number }).window),
            'insurance timer',
          ),
        );
        continue;
      }
      return;
    }
  };
  feed();
  apply(ok(adapter.closeBetting(state), 'close betting'));
  for (const c of stored.cards) {
    feed();
    apply(ok(adapter.card(state, c.card), `card ${c.slot} ${c.card}`));
  }
  feed();
  expect(pending).toEqual([]);
  expect(adapter.isRoundOver(state)).toBe(true);
  return settlements;
}

/**
 * Practice replay: the human bets, the stored cards for each slot the adapter expects, bots
 * through autoStep (their decisions are recomputed and compared), humans' stored decisions, and
 * a timer for each automatic one.
 */
export function replayPractice(
  adapter: GameAdapter<PracticeState>,
  roundId: string,
  stored: Awaited<ReturnType<typeof storedRound>>,
): { settlements: SettlementRecord[]; decisions: StoredDecision[] } {
  const settlements: SettlementRecord[] = [];
  const decisions: StoredDecision[] = [];
  let state = ok(
    adapter.startRound({
      roundId,
      shoeNumber: stored.round.shoe_number,
      roundNumber: stored.round.round_number,
    }),
    'start',
  ).state;
  for (const b of stored.bets.filter((x) => !x.player_id.startsWith('bot:'))) {
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
        stored.round.round_number,
      ),
      `bet ${b.id}`,
    ).state;
  }
  const apply = (r: AdapterResult<PracticeState>) => {
    const step = ok(r, 'step');
    settlements.push(...(step.settlements ?? []));
    decisions.push(
      ...(step.decisions ?? []).map((d) => ({
        player_id: d.playerId,
        hand: d.hand,
        action: d.action,
        automatic: d.automatic,
      })),
    );
    state = step.state;
  };
  apply(adapter.closeBetting(state));
  const cards = [...stored.cards];
  const human = stored.decisions.filter((d) => !d.player_id.startsWith('bot:'));
  for (let guard = 0; guard < 200 && !adapter.isRoundOver(state); guard += 1) {
    const slot = adapter.expectedCard(state);
    if (slot) {
      const next = cards.shift()!;
      expect(next.slot).toBe(slot.slot);
      apply(adapter.card(state, next.card));
      continue;
    }
    const auto = adapter.autoStep(state);
    if (auto) {
      apply(auto);
      continue;
    }
    const d = human.shift()!;
    apply(
      d.automatic
        ? adapter.timerFired(state, 'decision', state.window)
        : adapter.decide(state, { playerId: d.player_id, action: d.action }),
    );
  }
  expect(cards).toEqual([]);
  expect(adapter.isRoundOver(state)).toBe(true);
  return { settlements, decisions };
}

/**
 * Blackjack Lux and the European practice table end to end on the real PostgreSQL: Lux from a
 * virtual shoe writing frames into a real pseudo-terminal, with seat bets, a bet behind and pair
 * bets over the platform API; the practice table dealing from its own recorded CSPRNG shoe, with
 * bots and a human. Stored settlements are checked by replaying the stored round.
 */
