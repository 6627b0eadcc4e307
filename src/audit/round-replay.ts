import type { CardCode } from '@studio/cards';
import type {
  AdapterRejection,
  HandRecord,
  AdapterResult,
  AdapterStep,
  GameAdapter,
  SettlementRecord,
} from '../games/game-adapter';

/**
 * One stored round as the replay needs it: what was bet, which cards were dealt to which slot (the
 * corrected card where a supervisor corrected one), what each player decided, and what was paid.
 * Plain data read from the database; the replay itself does no I/O.
 */
export interface StoredRound {
  roundId: string;
  game: string;
  shoeNumber: number;
  roundNumber: number;
  bets: Array<{
    id: string;
    playerId: string;
    betType: string;
    spot: string | null;
    amount: number;
  }>;
  cards: Array<{ slot: string; card: CardCode }>;
  decisions: StoredDecision[];
  settlements: SettlementRecord[];
  /** The round_hands rows; empty for rounds stored before hands were recorded. */
  hands: HandRecord[];
}

export interface StoredDecision {
  playerId: string;
  hand: string | null;
  action: string;
  automatic: boolean;
}

export interface ReplayedRound {
  settlements: SettlementRecord[];
  /** Decisions the engine took itself (bots, auto-play) when the game records them. */
  decisions: StoredDecision[];
  roundOver: boolean;
  finalState: unknown;
  /** Every hand with its cards, total and result, when the game's adapter lists them. */
  hands: HandRecord[] | null;
}

export type ReplayResult =
  | { ok: true; replayed: ReplayedRound }
  | { ok: false; step: string; rejection: AdapterRejection | { code: string; message: string } };

/** Stops a replay at the first step the engine refuses; caught in replayStoredRound. */
class ReplayRefused extends Error {
  constructor(
    readonly step: string,
    readonly rejection: AdapterRejection | { code: string; message: string },
  ) {
    super(`${step}: ${rejection.code}`);
  }
}

function ok<S>(r: AdapterResult<S>, step: string): AdapterStep<S> {
  if ('rejected' in r) throw new ReplayRefused(step, r.rejected);
  return r;
}

/**
 * Recomputes a stored round with a fresh engine: the bets, then the cards in their dealing order,
 * with each stored decision fed when the engine asks for it and each window nobody answered closed
 * by its timer (which is what happened live). Returns what the engine settles; the caller compares.
 */
export function replayStoredRound(adapter: GameAdapter, round: StoredRound): ReplayResult {
  try {
    switch (adapter.game) {
      case 'pok-deng':
        return { ok: true, replayed: replayPokDeng(adapter, round) };
      case 'infinite-blackjack':
        return { ok: true, replayed: replayInfinite(adapter, round) };
      case 'blackjack-lux':
        return { ok: true, replayed: replayLux(adapter, round) };
      case 'european-blackjack-practice':
        return { ok: true, replayed: replayPractice(adapter, round) };
      default:
        return {
          ok: false,
          step: 'start',
          rejection: { code: 'unsupported-game', message: `No replay for ${adapter.game}` },
        };
    }
  } catch (error) {
    if (error instanceof ReplayRefused) {
      return { ok: false, step: error.step, rejection: error.rejection };
    }
    throw error;
  }
}

/** Accumulates settlements and engine-made decisions of each step, tracking the state. */
class Recorder {
  readonly settlements: SettlementRecord[] = [];
  readonly decisions: StoredDecision[] = [];
  constructor(public state: unknown) {}

  apply(r: AdapterResult<unknown>, step: string): void {
    const s = ok(r, step);
    this.settlements.push(...(s.settlements ?? []));
    this.decisions.push(
      ...(s.decisions ?? []).map((d) => ({
        playerId: d.playerId,
        hand: d.hand,
        action: d.action,
        automatic: d.automatic,
      })),
    );
    this.state = s.state;
  }

  result(adapter: GameAdapter): ReplayedRound {
    return {
      settlements: this.settlements,
      decisions: this.decisions,
      roundOver: adapter.isRoundOver(this.state),
      finalState: this.state,
      hands: adapter.hands ? adapter.hands(this.state) : null,
    };
  }
}

function start(adapter: GameAdapter, round: StoredRound): Recorder {
  const r = ok(
    adapter.startRound({
      roundId: round.roundId,
      shoeNumber: round.shoeNumber,
      roundNumber: round.roundNumber,
    }),
    'start',
  );
  return new Recorder(r.state);
}

function placeEach(
  adapter: GameAdapter,
  rec: Recorder,
  round: StoredRound,
  bets: StoredRound['bets'],
) {
  for (const b of bets) {
    rec.apply(
      adapter.placeBet(
        rec.state,
        {
          betId: b.id,
          playerId: b.playerId,
          betType: b.betType,
          spot: b.spot ?? undefined,
          amount: b.amount,
        },
        round.roundNumber,
      ),
      `bet ${b.id}`,
    );
  }
}

function windowOf(state: unknown): number {
  return (state as { window: number }).window;
}

/** Pok Deng: bets, the cards in dealing order (the engine checks the order, not the phase), then the reveals. */
function replayPokDeng(adapter: GameAdapter, round: StoredRound): ReplayedRound {
  const rec = start(adapter, round);
  placeEach(adapter, rec, round, round.bets);
  for (const c of round.cards)
    rec.apply(adapter.card(rec.state, c.card), `card ${c.slot} ${c.card}`);
  rec.apply(adapter.closeBetting(rec.state), 'close betting');
  for (let guard = 0; guard < 100; guard += 1) {
    const step = adapter.autoStep(rec.state);
    if (!step || 'rejected' in step) break;
    rec.apply(step, 'auto step');
  }
  return rec.result(adapter);
}

/**
 * Infinite Blackjack: one main bet per player with its side bets; after each card the decision
 * windows are played out: the stored decisions the engine takes, then the window's timer (auto-play
 * for whoever stayed silent), and an insurance window closes by its timer.
 */
function replayInfinite(adapter: GameAdapter, round: StoredRound): ReplayedRound {
  const rec = start(adapter, round);
  const byPlayer = new Map<string, { main: number; side: Record<string, number> }>();
  for (const b of round.bets) {
    const entry = byPlayer.get(b.playerId) ?? { main: 0, side: {} };
    if (b.betType === 'main') entry.main = b.amount;
    else entry.side[b.betType] = b.amount;
    byPlayer.set(b.playerId, entry);
  }
  for (const [playerId, bet] of byPlayer) {
    rec.apply(
      adapter.placeBet(
        rec.state,
        { betId: playerId, playerId, betType: 'main', amount: bet.main, sideBets: bet.side },
        round.roundNumber,
      ),
      `bet ${playerId}`,
    );
  }
  rec.apply(adapter.closeBetting(rec.state), 'close betting');
  const pending = [...round.decisions];
  for (const c of round.cards) {
    rec.apply(adapter.card(rec.state, c.card), `card ${c.slot} ${c.card}`);
    for (let guard = 0; guard < 20; guard += 1) {
      const phase = adapter.phase(rec.state);
      if (phase === 'insurance') {
        const r = adapter.timerFired(rec.state, 'insurance', windowOf(rec.state));
        if ('rejected' in r) break;
        rec.apply(r, 'insurance timer');
        continue;
      }
      if (phase !== 'deciding') break;
      while (pending.length > 0) {
        const next = pending[0];
        const r = adapter.decide(rec.state, { playerId: next.playerId, action: next.action });
        if ('rejected' in r) break;
        pending.shift();
        rec.state = r.state;
      }
      const r = adapter.timerFired(rec.state, 'decision', windowOf(rec.state));
      if ('rejected' in r) break;
      rec.apply(r, 'decision timer');
    }
  }
  return rec.result(adapter);
}

/**
 * Blackjack Lux: the bets (insurance is a decision, not a stored bet to place), then the cards;
 * before each card the stored decisions are fed in order as soon as the engine takes them (the
 * automatic ones are stored as decisions too), and an unanswered insurance window times out.
 */
function replayLux(adapter: GameAdapter, round: StoredRound): ReplayedRound {
  const rec = start(adapter, round);
  placeEach(
    adapter,
    rec,
    round,
    round.bets.filter((b) => b.betType !== 'insurance'),
  );
  const pending = [...round.decisions];
  const feed = () => {
    for (let guard = 0; guard < 50; guard += 1) {
      const next = pending[0];
      if (next) {
        const r = adapter.decide(rec.state, {
          playerId: next.playerId,
          action: next.action,
          seat: next.hand?.split('/')[0],
        });
        if (!('rejected' in r)) {
          pending.shift();
          rec.apply(r, `decision ${next.playerId} ${next.action}`);
          continue;
        }
      }
      if (adapter.phase(rec.state) === 'insurance') {
        rec.apply(
          adapter.timerFired(rec.state, 'insurance', windowOf(rec.state)),
          'insurance timer',
        );
        continue;
      }
      return;
    }
  };
  feed();
  rec.apply(adapter.closeBetting(rec.state), 'close betting');
  for (const c of round.cards) {
    feed();
    rec.apply(adapter.card(rec.state, c.card), `card ${c.slot} ${c.card}`);
  }
  feed();
  if (pending.length > 0) {
    throw new ReplayRefused('decisions', {
      code: 'decisions-left-over',
      message: `${pending.length} stored decision(s) the engine never asked for, first ${pending[0].playerId} ${pending[0].action}`,
    });
  }
  // Lux records decisions as they are taken, not as engine output: report them as stored.
  return { ...rec.result(adapter), decisions: [...round.decisions] };
}

/**
 * European practice: the humans' bets (bots bet by themselves), each card into the slot the engine
 * expects (checked against the stored slot), bots through autoStep, and each human decision from
 * the record: an automatic one by the decision timer, a taken one by deciding.
 */
function replayPractice(adapter: GameAdapter, round: StoredRound): ReplayedRound {
  const rec = start(adapter, round);
  placeEach(
    adapter,
    rec,
    round,
    round.bets.filter((b) => !b.playerId.startsWith('bot:')),
  );
  rec.apply(adapter.closeBetting(rec.state), 'close betting');
  const cards = [...round.cards];
  const human = round.decisions.filter((d) => !d.playerId.startsWith('bot:'));
  for (let guard = 0; guard < 300 && !adapter.isRoundOver(rec.state); guard += 1) {
    const expected = adapter.expectedCard(rec.state);
    if (expected) {
      const next = cards.shift();
      if (!next || next.slot !== expected.slot) {
        throw new ReplayRefused(`card for ${expected.slot}`, {
          code: 'card-slot-mismatch',
          message: next
            ? `the engine expects ${expected.slot}, the record has ${next.slot}=${next.card}`
            : `the engine expects ${expected.slot}, the record has no more cards`,
        });
      }
      rec.apply(adapter.card(rec.state, next.card), `card ${next.slot} ${next.card}`);
      continue;
    }
    const auto = adapter.autoStep(rec.state);
    if (auto) {
      rec.apply(auto, 'auto step');
      continue;
    }
    const d = human.shift();
    if (!d) {
      throw new ReplayRefused('decisions', {
        code: 'decision-missing',
        message: 'the engine waits for a decision the record does not have',
      });
    }
    rec.apply(
      d.automatic
        ? adapter.timerFired(rec.state, 'decision', windowOf(rec.state))
        : adapter.decide(rec.state, { playerId: d.playerId, action: d.action }),
      `decision ${d.playerId} ${d.action}`,
    );
  }
  if (cards.length > 0) {
    throw new ReplayRefused('cards', {
      code: 'cards-left-over',
      message: `${cards.length} stored card(s) the engine never asked for, first ${cards[0].slot}=${cards[0].card}`,
    });
  }
  return rec.result(adapter);
}

export interface ReplayMismatch {
  /** What differs: `settlement[2].net`, `settlement-count`, `decision[4]`, `round-not-over`... */
  field: string;
  stored: unknown;
  replayed: unknown;
}

const SETTLEMENT_FIELDS = [
  'betId',
  'playerId',
  'betType',
  'spot',
  'stake',
  'returned',
  'net',
  'outcome',
  'roundedDown',
] as const;

/**
 * Every difference between the stored and the replayed round, field by field: settlements are
 * matched in order (the order the engine settled them in is the order they were stored).
 */
export function compareReplay(stored: StoredRound, replayed: ReplayedRound): ReplayMismatch[] {
  const out: ReplayMismatch[] = [];
  if (!replayed.roundOver) out.push({ field: 'round-over', stored: true, replayed: false });
  const n = Math.max(stored.settlements.length, replayed.settlements.length);
  if (stored.settlements.length !== replayed.settlements.length) {
    out.push({
      field: 'settlement-count',
      stored: stored.settlements.length,
      replayed: replayed.settlements.length,
    });
  }
  for (let i = 0; i < n; i += 1) {
    const s = stored.settlements[i];
    const r = replayed.settlements[i];
    if (!s || !r) {
      out.push({ field: `settlement[${i}]`, stored: s ?? null, replayed: r ?? null });
      continue;
    }
    for (const f of SETTLEMENT_FIELDS) {
      const a = s[f] ?? null;
      const b = r[f] ?? null;
      if (a !== b) out.push({ field: `settlement[${i}].${f}`, stored: a, replayed: b });
    }
  }
  // Hand results: every stored hand as the replay ends it, and no replayed hand missing.
  if (replayed.hands && stored.hands.length > 0) {
    const replayedByName = new Map(replayed.hands.map((h) => [h.hand, h]));
    for (const h of stored.hands) {
      const r = replayedByName.get(h.hand);
      replayedByName.delete(h.hand);
      if (!r) {
        out.push({ field: `hand ${h.hand}`, stored: h, replayed: null });
        continue;
      }
      for (const f of ['owner', 'cards', 'total', 'result'] as const) {
        const a = JSON.stringify(h[f] ?? null);
        const b = JSON.stringify(r[f] ?? null);
        if (a !== b) out.push({ field: `hand ${h.hand}.${f}`, stored: h[f], replayed: r[f] });
      }
    }
    for (const r of replayedByName.values()) {
      out.push({ field: `hand ${r.hand}`, stored: null, replayed: r });
    }
  }
  // Decisions the engine makes itself (bots, auto-play) must be the ones on record.
  if (stored.game === 'european-blackjack-practice') {
    const m = Math.max(stored.decisions.length, replayed.decisions.length);
    for (let i = 0; i < m; i += 1) {
      const a = stored.decisions[i];
      const b = replayed.decisions[i];
      if (JSON.stringify(a ?? null) !== JSON.stringify(b ?? null)) {
        out.push({ field: `decision[${i}]`, stored: a ?? null, replayed: b ?? null });
      }
    }
  }
  return out;
}
