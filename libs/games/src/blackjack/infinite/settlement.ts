import { CardCode } from '@studio/cards';
import { isBlackjack } from '../core/hand';
import { Ratio, Rounding } from '../core/rules';
import { handSettlementRule, HandSettlementRule } from '../core/settle';
import {
  evaluateBustBonus,
  evaluateLuckyTrio,
  evaluatePairs,
  evaluatePokerTrio,
} from '../side-bets/side-bets';
import {
  BetTotals,
  INFINITE_BETS,
  INFINITE_SIDE_BETS,
  InfiniteBet,
  InfiniteSettlementSummary,
  InfiniteSideBet,
  InfiniteState,
  SideBetResult,
} from './state';

/**
 * Settlement of an Infinite Blackjack round. The outcome of every hand is decided once per trie
 * node and every side bet once per round (the cards are common); players differ only by their
 * stakes, so a player's settlement is a few integer operations, done in one pass for the totals
 * and again, on demand, to expand per-player records into typed arrays or a stream.
 */

function dealerFinal(state: InfiniteState): CardCode[] {
  const { up, hole, draws } = state.dealer;
  return [...(up ? [up] : []), ...(hole ? [hole] : []), ...draws];
}

function sideResults(
  state: InfiniteState,
  dealer: CardCode[],
): Record<InfiniteSideBet, SideBetResult> {
  const [p1, p2] = state.playerCards;
  const up = state.dealer.up;
  const full = p1 !== undefined && p2 !== undefined && up !== null;
  return {
    pairs: full ? evaluatePairs(p1, p2) : null,
    'lucky-trio': full ? evaluateLuckyTrio(p1, p2, up) : null,
    'poker-trio': full ? evaluatePokerTrio(p1, p2, up) : null,
    // A round that ends with a dealer BJ loses the bet (Default): a BJ is not a bust anyway.
    'bust-bonus': evaluateBustBonus(dealer),
  };
}

/** Everything the per-player arithmetic needs, derived once per round. */
interface SettlementPlan {
  readonly voided: boolean;
  readonly rounding: Rounding;
  /** Per node: per hand [stakeUnits, refund.a, refund.b, pays.a, pays.b] (pays.b = 0: no win). */
  readonly nodeHands: readonly (readonly number[][] | null)[];
  readonly insurancePays: Ratio | null;
  readonly side: Readonly<Record<InfiniteSideBet, Ratio | null>>;
  /** Common denominator of every rounding record per bet. */
  readonly denominators: Readonly<Record<InfiniteBet, number>>;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const lcm = (a: number, b: number): number => (a / gcd(a, b)) * b;

function plan(state: InfiniteState, summary: InfiniteSettlementSummary): SettlementPlan {
  const rules = state.config.rules;
  let mainDen = 1;
  // Voided while betting: no hand exists yet, every player holds just the main stake (node 0).
  const nodeRules = summary.voided && state.nodes.length === 0 ? [null] : summary.nodeRules;
  const nodeHands = nodeRules.map((handRules, id) => {
    // A voided round refunds everything staked, doubles and split hands included.
    if (summary.voided) {
      const node = state.nodes[id];
      if (!node) return [[1, 1, 1, 0, 0]];
      return node.players > 0 ? node.hands.map((h) => [h.stake, 1, 1, 0, 0]) : null;
    }
    if (!handRules) return null;
    return handRules.map((r, h) => {
      if (r.pays) mainDen = lcm(mainDen, r.pays.b);
      mainDen = lcm(mainDen, r.refund.b);
      return [
        state.nodes[id].hands[h].stake,
        r.refund.a,
        r.refund.b,
        r.pays ? r.pays.a : 0,
        r.pays ? r.pays.b : 0,
      ];
    });
  });
  const side = { ...summary.side } as Record<InfiniteSideBet, Ratio | null>;
  for (const k of INFINITE_SIDE_BETS) side[k] = summary.side[k]?.pays ?? null;
  const insurancePays = summary.insuranceWins ? rules.insurancePays : null;
  const denominators = { main: mainDen, insurance: insurancePays?.b ?? 1 } as Record<
    InfiniteBet,
    number
  >;
  for (const k of INFINITE_SIDE_BETS) denominators[k] = side[k]?.b ?? 1;
  return {
    voided: summary.voided,
    rounding: rules.rounding,
    nodeHands,
    insurancePays,
    side,
    denominators,
  };
}

/**
 * Per-player results of one bet, one entry per player: [staked, refunded, paid, rounding
 * numerator over the bet's common denominator]. Tight loops over number columns, no allocation
 * per player: this is the part that scales with the number of players.
 */
interface BetColumns {
  readonly staked: Float64Array;
  readonly refunded: Float64Array;
  readonly paid: Float64Array;
  readonly rounding: Int32Array;
}

function allocateColumns(n: number): BetColumns {
  return {
    staked: new Float64Array(n),
    refunded: new Float64Array(n),
    paid: new Float64Array(n),
    rounding: new Int32Array(n),
  };
}

const ROUND_DOWN = 0;
const ROUND_HALF_UP = 1;
const ROUND_UP = 2;
const roundingMode = (r: Rounding): number =>
  r === 'down' ? ROUND_DOWN : r === 'half-up' ? ROUND_HALF_UP : ROUND_UP;

/** floor/round of exact / b by mode; returns the amount, writes (exact − amount) to rem[0]. */
function roundedShare(exact: number, b: number, mode: number, rem: Float64Array): number {
  let amount = Math.floor(exact / b);
  let r = exact - amount * b;
  if (r !== 0 && (mode === ROUND_UP || (mode === ROUND_HALF_UP && r * 2 >= b))) {
    amount += 1;
    r -= b;
  }
  rem[0] = r;
  return amount;
}

function stakesOf(state: InfiniteState, bet: InfiniteBet): readonly number[] {
  const cols = state.players;
  return bet === 'main' ? cols.main : bet === 'insurance' ? cols.insurance : cols.side[bet];
}

interface ColumnTotals {
  players: number;
  staked: number;
  refunded: number;
  paid: number;
  rounding: number;
}

/**
 * Settles every player's `bet` in one pass: writes every entry of `out` (when given) and returns
 * the totals. Per player: a few integer operations, no allocation.
 */
function settleBetColumn(
  state: InfiniteState,
  p: SettlementPlan,
  bet: InfiniteBet,
  out: BetColumns | null,
): ColumnTotals {
  const stakes = stakesOf(state, bet);
  const n = stakes.length;
  const mode = roundingMode(p.rounding);
  const den = p.denominators[bet];
  const rem = new Float64Array(1);
  const totals: ColumnTotals = { players: 0, staked: 0, refunded: 0, paid: 0, rounding: 0 };
  const isMain = bet === 'main';
  const ratio = isMain ? null : bet === 'insurance' ? p.insurancePays : p.side[bet];
  // Main bet: each node's hands as a flat row of [units, refund a, refund b, pays a, pays b].
  const flat: number[][] = p.nodeHands.map((hands) => (hands ? hands.flat() : []));
  const nodeOf = state.players.node;
  for (let i = 0; i < n; i += 1) {
    const stake = stakes[i];
    let st = 0;
    let rf = 0;
    let pd = 0;
    let rn = 0;
    if (stake !== 0) {
      if (p.voided && !isMain) {
        st = stake;
        rf = stake;
      } else if (!isMain) {
        st = stake;
        if (ratio) {
          pd = stake + roundedShare(stake * ratio.a, ratio.b, mode, rem);
          rn = rem[0] * (den / ratio.b);
        }
      } else {
        const row = flat[nodeOf[i]];
        for (let h = 0; h < row.length; h += 5) {
          const s = stake * row[h];
          st += s;
          const pb = row[h + 4];
          if (pb !== 0) {
            pd += s + roundedShare(s * row[h + 3], pb, mode, rem);
            rn += rem[0] * (den / pb);
          } else if (row[h + 1] !== 0) {
            rf += roundedShare(s * row[h + 1], row[h + 2], mode, rem);
            rn += rem[0] * (den / row[h + 2]);
          }
        }
      }
      totals.players += 1;
      totals.staked += st;
      totals.refunded += rf;
      totals.paid += pd;
      totals.rounding += rn;
    }
    if (out) {
      out.staked[i] = st;
      out.refunded[i] = rf;
      out.paid[i] = pd;
      out.rounding[i] = rn;
    }
  }
  return totals;
}

/** Decides every node and side bet once and totals every bet in one pass over the players. */
export function settleInfiniteRound(state: InfiniteState): InfiniteSettlementSummary {
  const voided = state.phase === 'voided';
  const dealer = dealerFinal(state);
  const rules = state.config.rules;
  const nodeRules: (HandSettlementRule[] | null)[] = state.nodes.map((node) =>
    voided || node.players === 0
      ? null
      : node.hands.map((h) => handSettlementRule(h, dealer, rules)),
  );
  const partial: InfiniteSettlementSummary = {
    voided,
    dealerCards: dealer,
    nodeRules,
    insuranceWins: !voided && isBlackjack(dealer.slice(0, 2)),
    side: voided
      ? { pairs: null, 'bust-bonus': null, 'lucky-trio': null, 'poker-trio': null }
      : sideResults(state, dealer),
    totals: {} as Record<InfiniteBet, BetTotals>,
  };
  const p = plan(state, partial);
  const totals = {} as Record<InfiniteBet, BetTotals>;
  for (const bet of INFINITE_BETS) {
    const t = settleBetColumn(state, p, bet, null);
    totals[bet] = {
      players: t.players,
      staked: t.staked,
      refunded: t.refunded,
      paid: t.paid,
      houseResult: t.staked - t.refunded - t.paid,
      rounding: { numerator: t.rounding, denominator: p.denominators[bet] },
    };
  }
  return { ...partial, totals };
}

/**
 * Per-player settlement records as compact typed arrays, bet-major: the value for player i and
 * bet b (index in `bets`) is at `b * playerCount + i`. Amounts are integer minor units held in
 * Float64Array (exact up to 2^53); rounding numerators are over `roundingDenominators[b]`.
 */
export interface InfiniteSettlementArrays {
  readonly playerCount: number;
  readonly bets: readonly InfiniteBet[];
  readonly staked: Float64Array;
  readonly refunded: Float64Array;
  readonly paid: Float64Array;
  readonly roundingNumerator: Int32Array;
  readonly roundingDenominators: readonly number[];
}

function requireSettled(state: InfiniteState): InfiniteSettlementSummary {
  if (!state.settlement) throw new Error('the round is not settled yet');
  return state.settlement;
}

export function expandInfiniteSettlement(state: InfiniteState): InfiniteSettlementArrays {
  const p = plan(state, requireSettled(state));
  const n = state.players.ids.length;
  const size = n * INFINITE_BETS.length;
  const staked = new Float64Array(size);
  const refunded = new Float64Array(size);
  const paid = new Float64Array(size);
  const roundingNumerator = new Int32Array(size);
  INFINITE_BETS.forEach((bet, b) => {
    // Views into the bet's slice of the big arrays: the loop writes in place, no copy.
    const range = <T extends Float64Array | Int32Array>(a: T) =>
      a.subarray(b * n, (b + 1) * n) as T;
    settleBetColumn(state, p, bet, {
      staked: range(staked),
      refunded: range(refunded),
      paid: range(paid),
      rounding: range(roundingNumerator),
    });
  });
  return {
    playerCount: n,
    bets: INFINITE_BETS,
    staked,
    refunded,
    paid,
    roundingNumerator,
    roundingDenominators: INFINITE_BETS.map((b) => p.denominators[b]),
  };
}

export interface InfiniteBetSettlementRecord {
  readonly bet: InfiniteBet;
  readonly staked: number;
  readonly refunded: number;
  readonly paid: number;
  readonly houseResult: number;
  /** Main bet: outcome per hand; side bets: the winning pattern; insurance: win/lose. */
  readonly result: string | readonly string[];
  readonly rounding: { readonly numerator: number; readonly denominator: number };
}

export interface InfinitePlayerSettlement {
  readonly playerId: string;
  readonly node: number;
  readonly bets: readonly InfiniteBetSettlementRecord[];
}

/** Streams one record per player (only the bets they placed), for persisting in batches. */
export function* infinitePlayerSettlements(
  state: InfiniteState,
): Generator<InfinitePlayerSettlement> {
  const summary = requireSettled(state);
  const p = plan(state, summary);
  const cols = state.players;
  const n = cols.ids.length;
  const CHUNK = 4096;
  const perBet = INFINITE_BETS.map(() => allocateColumns(CHUNK));
  for (let start = 0; start < n; start += CHUNK) {
    const view = sliceState(state, start, Math.min(n, start + CHUNK));
    INFINITE_BETS.forEach((bet, b) => settleBetColumn(view, p, bet, perBet[b]));
    for (let j = 0; j < view.players.ids.length; j += 1) {
      const i = start + j;
      const bets: InfiniteBetSettlementRecord[] = [];
      INFINITE_BETS.forEach((bet, b) => {
        const c = perBet[b];
        if (c.staked[j] === 0) return;
        const result: string | string[] = summary.voided
          ? 'void'
          : bet === 'main'
            ? (summary.nodeRules[cols.node[i]] ?? []).map((r) => r.outcome)
            : bet === 'insurance'
              ? summary.insuranceWins
                ? 'win'
                : 'lose'
              : (summary.side[bet]?.pattern ?? 'lose');
        bets.push({
          bet,
          staked: c.staked[j],
          refunded: c.refunded[j],
          paid: c.paid[j],
          houseResult: c.staked[j] - c.refunded[j] - c.paid[j],
          result,
          rounding: { numerator: c.rounding[j], denominator: p.denominators[bet] },
        });
      });
      yield { playerId: cols.ids[i], node: cols.node[i], bets };
    }
  }
}

/** The same round restricted to players [from, to), for streaming in chunks. */
function sliceState(state: InfiniteState, from: number, to: number): InfiniteState {
  const c = state.players;
  const side = {} as Record<InfiniteSideBet, number[]>;
  for (const k of INFINITE_SIDE_BETS) side[k] = c.side[k].slice(from, to);
  return {
    ...state,
    players: {
      ids: c.ids.slice(from, to),
      main: c.main.slice(from, to),
      insurance: c.insurance.slice(from, to),
      side,
      node: c.node.slice(from, to),
      pending: c.pending.slice(from, to),
    },
  };
}
