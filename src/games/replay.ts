import { isGameKind } from '@studio/contracts';
import type { AdapterRejection, GameAdapter } from './game-adapter';
import { gameDefinition } from './game-registry';
import { ReplayedRound, ReplayRefused, StoredDecision, StoredRound } from './replay-kit';

export type { ReplayedRound, StoredDecision, StoredRound } from './replay-kit';

export type ReplayResult =
  | { ok: true; replayed: ReplayedRound }
  | { ok: false; step: string; rejection: AdapterRejection | { code: string; message: string } };

/**
 * Recomputes a stored round with a fresh engine: the bets, then the cards in their dealing order,
 * with each stored decision fed when the engine asks for it and each window nobody answered closed
 * by its timer (which is what happened live). Each game's replay says how (its definition in the
 * game registry). Returns what the engine settles; the caller compares.
 */
export function replayStoredRound(adapter: GameAdapter, round: StoredRound): ReplayResult {
  try {
    return { ok: true, replayed: gameDefinition(adapter.game).replay(adapter, round) };
  } catch (error) {
    if (error instanceof ReplayRefused) {
      return { ok: false, step: error.step, rejection: error.rejection };
    }
    throw error;
  }
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
  compareSettlements(stored, replayed, out);
  compareHands(stored, replayed, out);
  compareDecisions(stored, replayed, out);
  return out;
}

function compareSettlements(
  stored: StoredRound,
  replayed: ReplayedRound,
  out: ReplayMismatch[],
): void {
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
}

/** Hand results: every stored hand as the replay ends it, and no replayed hand missing. */
function compareHands(stored: StoredRound, replayed: ReplayedRound, out: ReplayMismatch[]): void {
  if (!replayed.hands || stored.hands.length === 0) return;
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

/** Decisions the engine makes itself (bots, auto-play) must be the ones on record. */
function compareDecisions(
  stored: StoredRound,
  replayed: ReplayedRound,
  out: ReplayMismatch[],
): void {
  if (!comparesEngineDecisions(stored.game)) return;
  const m = Math.max(stored.decisions.length, replayed.decisions.length);
  for (let i = 0; i < m; i += 1) {
    const a = decisionOf(stored.decisions[i]);
    const b = decisionOf(replayed.decisions[i]);
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      out.push({ field: `decision[${i}]`, stored: a, replayed: b });
    }
  }
}

/** What a decision is, in a fixed key order (a stored one also says its window, if any). */
function decisionOf(d: StoredDecision | undefined) {
  return d
    ? { playerId: d.playerId, hand: d.hand, action: d.action, automatic: d.automatic }
    : null;
}

function comparesEngineDecisions(game: string): boolean {
  return isGameKind(game) && gameDefinition(game).comparesEngineDecisions === true;
}
