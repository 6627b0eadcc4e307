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
  const nodeHands = summary.nodeRules.map((handRules, id) => {
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

/** Rounded share of `stake × a / b` and the (exact − paid) remainder scaled to `den`. */
function share(stake: number, a: number, b: number, rounding: Rounding, out: Float64Array): void {
  const exact = stake * a;
  let amount = Math.floor(exact / b);
  let rem = exact - amount * b;
  if (rem !== 0 && (rounding === 'up' || (rounding === 'half-up' && rem * 2 >= b))) {
    amount += 1;
    rem -= b;
  }
  out[0] = amount;
  out[1] = rem; // over b
}

/**
 * Settles player i's bet `bet` into out = [staked, refunded, paid, roundingNumerator over the
 * bet's common denominator].
 */
function settlePlayerBet(
  state: InfiniteState,
  p: SettlementPlan,
  i: number,
  bet: InfiniteBet,
  out: Float64Array,
  tmp: Float64Array,
): void {
  const cols = state.players;
  const stake =
    bet === 'main' ? cols.main[i] : bet === 'insurance' ? cols.insurance[i] : cols.side[bet][i];
  out[0] = 0;
  out[1] = 0;
  out[2] = 0;
  out[3] = 0;
  if (stake === 0) return;
  const den = p.denominators[bet];
  if (p.voided) {
    out[0] = stake;
    out[1] = stake;
    return;
  }
  if (bet === 'main') {
    const hands = p.nodeHands[cols.node[i]];
    if (!hands) throw new Error(`engine invariant: node ${cols.node[i]} was not settled`);
    for (const [units, ra, rb, pa, pb] of hands) {
      const s = stake * units;
      out[0] += s;
      if (pb !== 0) {
        share(s, pa, pb, p.rounding, tmp);
        out[2] += s + tmp[0];
        out[3] += tmp[1] * (den / pb);
      } else if (ra !== 0) {
        share(s, ra, rb, p.rounding, tmp);
        out[1] += tmp[0];
        out[3] += tmp[1] * (den / rb);
      }
    }
    return;
  }
  out[0] = stake;
  const ratio = bet === 'insurance' ? p.insurancePays : p.side[bet];
  if (!ratio) return;
  share(stake, ratio.a, ratio.b, p.rounding, tmp);
  out[2] = stake + tmp[0];
  out[3] = tmp[1] * (den / ratio.b);
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
  const out = new Float64Array(4);
  const tmp = new Float64Array(2);
  const totals = {} as Record<InfiniteBet, BetTotals>;
  const n = state.players.ids.length;
  for (const bet of INFINITE_BETS) {
    let players = 0;
    let staked = 0;
    let refunded = 0;
    let paid = 0;
    let rounding = 0;
    for (let i = 0; i < n; i += 1) {
      settlePlayerBet(state, p, i, bet, out, tmp);
      if (out[0] === 0) continue;
      players += 1;
      staked += out[0];
      refunded += out[1];
      paid += out[2];
      rounding += out[3];
    }
    totals[bet] = {
      players,
      staked,
      refunded,
      paid,
      houseResult: staked - refunded - paid,
      rounding: { numerator: rounding, denominator: p.denominators[bet] },
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
  readonly roundingNumerator: Float64Array;
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
  const roundingNumerator = new Float64Array(size);
  const out = new Float64Array(4);
  const tmp = new Float64Array(2);
  INFINITE_BETS.forEach((bet, b) => {
    const base = b * n;
    for (let i = 0; i < n; i += 1) {
      settlePlayerBet(state, p, i, bet, out, tmp);
      staked[base + i] = out[0];
      refunded[base + i] = out[1];
      paid[base + i] = out[2];
      roundingNumerator[base + i] = out[3];
    }
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
  const out = new Float64Array(4);
  const tmp = new Float64Array(2);
  const cols = state.players;
  for (let i = 0; i < cols.ids.length; i += 1) {
    const bets: InfiniteBetSettlementRecord[] = [];
    for (const bet of INFINITE_BETS) {
      settlePlayerBet(state, p, i, bet, out, tmp);
      if (out[0] === 0) continue;
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
        staked: out[0],
        refunded: out[1],
        paid: out[2],
        houseResult: out[0] - out[1] - out[2],
        result,
        rounding: { numerator: out[3], denominator: p.denominators[bet] },
      });
    }
    yield { playerId: cols.ids[i], node: cols.node[i], bets };
  }
}
