import { CARDS_PER_DECK } from '@studio/cards';
import { BlackjackRules } from '../core/rules';
import { Random32 } from './seeded-random';
import { NO_WIN, SideBetTables } from './side-bet-tables';
import { BetStats, SimulationTotals } from './simulation-totals';
import { PairKey, StrategyCode, StrategyTable, UP_COLUMNS } from './table';

/**
 * A fast blackjack table for return measurements: one player position playing a strategy table
 * against the dealer, card indices in a typed array, no objects per round. It follows the engines'
 * rules table (core/rules) and deals in the engines' order (player, dealer up, player, dealer
 * hole; a split's hands take their second card in order), so the same shoe order gives the same
 * round as the engines; the European engine's tests check that round by round.
 *
 * Randomness is injected (a 32-bit generator); `seededRandom` gives a reproducible one.
 */

const CODE_NUMBER: Record<StrategyCode, number> = {
  S: 0,
  H: 1,
  Dh: 2,
  Ds: 3,
  P: 4,
  Rh: 5,
  Rs: 6,
  Rp: 7,
};

const PAIR_KEYS: readonly PairKey[] = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T'];

/** Value index of a card index: 0 = ace, 1..8 = 2..9, 9 = ten-value. */
const VALUE_INDEX = Uint8Array.from({ length: CARDS_PER_DECK }, (_, i) => Math.min(i % 13, 9));

/** The moves a strategy code comes to (codes 0-7 are CODE_NUMBER's; 8 and 9 are resolved). */
const MOVE = { stand: 0, hit: 1, split: 4, surrender: 8, double: 9 } as const;

/** Codes that surrender or double when allowed, and what they play otherwise. */
const FALLBACK: Readonly<
  Record<number, { when: 'surrender' | 'double'; otherwise: number } | undefined>
> = {
  [CODE_NUMBER.Rh]: { when: 'surrender', otherwise: MOVE.hit },
  [CODE_NUMBER.Rs]: { when: 'surrender', otherwise: MOVE.stand },
  [CODE_NUMBER.Rp]: { when: 'surrender', otherwise: MOVE.split },
  [CODE_NUMBER.Dh]: { when: 'double', otherwise: MOVE.hit },
  [CODE_NUMBER.Ds]: { when: 'double', otherwise: MOVE.stand },
};

/** The best total of a hand: an ace counts 11 when that does not bust it. */
function bestTotal(hard: number, ace: number | boolean): number {
  return ace && hard + 10 <= 21 ? hard + 10 : hard;
}

/** Two value indices (0 = ace, 9 = ten-value) that make a blackjack. */
function isTwoCardBlackjack(a: number, b: number): boolean {
  return (a === 0 && b === 9) || (a === 9 && b === 0);
}

export interface SimulationOptions {
  readonly rules: BlackjackRules;
  readonly strategy: StrategyTable;
  /** Fraction of the shoe dealt before the cut card (Default 0.75). */
  readonly penetration?: number;
  /** games.md section 0 burn procedure at every new shoe (physical-shoe games). */
  readonly burn?: boolean;
  /** Measure the side bets (the physical 8-deck games). */
  readonly sideBets?: boolean;
}

/** One position's round results, reused between rounds (no allocation per round). */
export interface RoundResult {
  /** Net main-game result per unit of the original stake. */
  main: number;
  /** Net insurance result per unit insured, or NaN when insurance was not offered. */
  insurance: number;
}

export class BlackjackSimulator {
  readonly shoe: Uint8Array;
  /** Next card to draw. */
  position = 0;
  private cut: number;
  private readonly codes = new Int8Array(3 * 22 * 10);
  private readonly sideTables?: SideBetTables;
  private readonly rules: BlackjackRules;
  private readonly penetration: number;
  private readonly burn: boolean;
  // Hands of the position (at most maxHands), as parallel arrays.
  private readonly hard = new Int32Array(8);
  private readonly ace = new Uint8Array(8);
  private readonly count = new Uint8Array(8);
  private readonly first = new Int8Array(8);
  private readonly second = new Int8Array(8);
  private readonly stake = new Uint8Array(8);
  private readonly fromSplit = new Uint8Array(8);
  private readonly splitAces = new Uint8Array(8);
  private readonly surrendered = new Uint8Array(8);
  private handCount = 0;
  /** Number of cards the dealer held at the end of the last round. */
  dealerCardCount = 0;
  /** Player hands played so far (a split adds hands), for throughput figures. */
  handsPlayed = 0;

  constructor(
    options: SimulationOptions,
    private readonly random: Random32,
    sideTables?: SideBetTables,
  ) {
    this.rules = options.rules;
    this.penetration = options.penetration ?? 0.75;
    this.burn = options.burn ?? false;
    this.sideTables = options.sideBets ? (sideTables ?? new SideBetTables()) : undefined;
    this.shoe = new Uint8Array(this.rules.decks * CARDS_PER_DECK);
    for (let i = 0; i < this.shoe.length; i += 1) this.shoe[i] = i % CARDS_PER_DECK;
    this.cut = this.shoe.length; // forces a shuffle before the first round
    this.position = this.shoe.length;
    const s = options.strategy;
    for (let col = 0; col < UP_COLUMNS.length; col += 1) {
      for (let t = 4; t <= 21; t += 1) this.codes[t * 10 + col] = CODE_NUMBER[s.hard[t][col]];
      for (let t = 12; t <= 21; t += 1)
        this.codes[220 + t * 10 + col] = CODE_NUMBER[s.soft[t][col]];
      for (let v = 0; v < 10; v += 1)
        this.codes[440 + v * 10 + col] = CODE_NUMBER[s.pairs[PAIR_KEYS[v]][col]];
    }
  }

  /** Fisher–Yates with the injected generator, then the burn procedure if the game has one. */
  shuffle(): void {
    const shoe = this.shoe;
    for (let i = shoe.length - 1; i > 0; i -= 1) {
      // Multiply-shift bounded draw: bias below 2^-22, irrelevant for return measurement.
      const j = Math.floor((this.random() * (i + 1)) / 4294967296);
      const t = shoe[i];
      shoe[i] = shoe[j];
      shoe[j] = t;
    }
    this.position = 0;
    this.cut = Math.floor(shoe.length * this.penetration);
    if (this.burn) {
      const shown = this.shoe[this.position++];
      this.position += VALUE_INDEX[shown] + 1; // A burns 1, T/J/Q/K burn 10
    }
  }

  /** Loads a given shoe order (card indices) instead of shuffling; for cross-checks. */
  load(order: ArrayLike<number>): void {
    this.shoe.set(order);
    this.position = 0;
    this.cut = Math.floor(this.shoe.length * this.penetration);
  }

  /** Plays rounds, adding every bet's net result to `totals`. */
  run(rounds: number, totals: SimulationTotals): void {
    const result: RoundResult = { main: 0, insurance: NaN };
    for (let r = 0; r < rounds; r += 1) {
      if (this.position >= this.cut) this.shuffle();
      this.playRound(result, totals);
    }
  }

  private draw(): number {
    return this.shoe[this.position++];
  }

  private code(table: number, row: number, col: number): number {
    return this.codes[table * 220 + row * 10 + col];
  }

  /** Plays one round; writes the main and insurance results; side bets go to totals if given. */
  playRound(result: RoundResult, totals?: SimulationTotals): void {
    const p1 = this.draw();
    const up = this.draw();
    const p2 = this.draw();
    const hole = this.draw();
    const upV = VALUE_INDEX[up];
    const holeV = VALUE_INDEX[hole];
    const col = upV === 0 ? 9 : upV - 1;
    const dealerBj = isTwoCardBlackjack(upV, holeV);
    const playerBj = isTwoCardBlackjack(VALUE_INDEX[p1], VALUE_INDEX[p2]);

    result.insurance = upV === 0 && this.rules.insurance ? (dealerBj ? 2 : -1) : NaN;

    this.handCount = 1;
    this.setHand(0, VALUE_INDEX[p1], VALUE_INDEX[p2]);
    const peeks = this.rules.peek && (upV === 0 || upV === 9);
    const early = this.earlyResult(col, peeks && dealerBj, dealerBj, playerBj);
    if (Number.isNaN(early)) this.playHands(col);

    // The dealer always completes the hand (the bust bonus needs it), except after a peeked BJ.
    const dTotal = this.playDealer(upV, holeV, !(peeks && dealerBj));

    const main = Number.isNaN(early) ? this.settleHands(dealerBj, dTotal) : early;
    result.main = main;
    this.handsPlayed += this.handCount;

    if (totals) this.addToTotals(totals, result, p1 * 52 + p2, up, dTotal);
  }

  /**
   * The main result when the round ends before the player acts: early surrender, a peeked dealer
   * BJ, a player BJ (a no-peek dealer BJ against it is a push). NaN when the player plays on.
   */
  private earlyResult(
    col: number,
    peekedBj: boolean,
    dealerBj: boolean,
    playerBj: boolean,
  ): number {
    const rules = this.rules;
    if (rules.surrender === 'early' && !playerBj && this.wantsSurrender(0, col)) return -0.5;
    if (peekedBj) return playerBj ? 0 : -1;
    if (playerBj) return dealerBj ? 0 : rules.blackjackPays.a / rules.blackjackPays.b;
    return NaN;
  }

  /** Draws the dealer's cards (when `complete`); records their count and returns the total. */
  private playDealer(upV: number, holeV: number, complete: boolean): number {
    let hard = upV + 1 + holeV + 1;
    let ace = upV === 0 || holeV === 0;
    let cards = 2;
    while (complete && this.dealerHits(hard, ace)) {
      const c = VALUE_INDEX[this.draw()];
      hard += c + 1;
      ace ||= c === 0;
      cards += 1;
    }
    this.dealerCardCount = cards;
    return bestTotal(hard, ace);
  }

  private dealerHits(hard: number, ace: boolean): boolean {
    const total = bestTotal(hard, ace);
    const soft = total !== hard;
    return total < 17 || (total === 17 && soft && this.rules.dealerHitsSoft17);
  }

  /** Adds the round's main, insurance and (when measured) side-bet results to the totals. */
  private addToTotals(
    totals: SimulationTotals,
    result: RoundResult,
    pair: number,
    up: number,
    dealerTotal: number,
  ): void {
    add(totals.main, result.main);
    if (!Number.isNaN(result.insurance)) add(totals.insurance, result.insurance);
    const t = this.sideTables;
    if (!t) return;
    add(totals.pairs, net(t.pairs[pair]));
    const trio = pair * 52 + up;
    add(totals['lucky-trio'], net(t.luckyTrio[trio]));
    add(totals['poker-trio'], net(t.pokerTrio[trio]));
    add(totals['lux-pairs'], net(t.luxPairs[trio]));
    const bust = dealerTotal > 21 ? t.bustBonus[Math.min(this.dealerCardCount, 15)] : NO_WIN;
    add(totals['bust-bonus'], net(bust));
  }

  private setHand(i: number, a: number, b: number): void {
    this.first[i] = a;
    this.second[i] = b;
    this.count[i] = b < 0 ? 1 : 2;
    this.hard[i] = a + 1 + (b < 0 ? 0 : b + 1);
    this.ace[i] = a === 0 || b === 0 ? 1 : 0;
    this.stake[i] = 1;
    this.fromSplit[i] = 0;
    this.splitAces[i] = 0;
    this.surrendered[i] = 0;
  }

  private wantsSurrender(i: number, col: number): boolean {
    const c = this.decisionCode(i, col);
    return c >= 5;
  }

  private decisionCode(i: number, col: number): number {
    const hard = this.hard[i];
    const total = this.ace[i] && hard + 10 <= 21 ? hard + 10 : hard;
    const soft = total !== hard;
    const splittable =
      this.count[i] === 2 &&
      this.first[i] === this.second[i] &&
      this.handCount < this.rules.maxHands &&
      !this.splitAces[i];
    if (splittable) return this.code(2, this.first[i], col);
    return soft ? this.code(1, total, col) : this.code(0, total, col);
  }

  private addCard(i: number, v: number): void {
    this.hard[i] += v + 1;
    if (v === 0) this.ace[i] = 1;
    if (this.count[i] === 1) this.second[i] = v;
    this.count[i] += 1;
  }

  private playHands(col: number): void {
    for (let i = 0; i < this.handCount; i += 1) {
      if (this.count[i] < 2) {
        this.addCard(i, VALUE_INDEX[this.draw()]);
        if (this.splitAces[i] && !this.rules.hitSplitAces) continue; // one card each, closed
      }
      this.playHand(i, col);
    }
  }

  /** Plays hand i to its end by the strategy; a split inserts the new hand right after it. */
  private playHand(i: number, col: number): void {
    for (;;) {
      // Bust, BJ, or 21: closed (hitting 21 never helps).
      if (bestTotal(this.hard[i], this.ace[i]) >= 21) return;
      const move = this.playableMove(i, col);
      if (move === MOVE.stand) return;
      if (move === MOVE.hit) {
        this.addCard(i, VALUE_INDEX[this.draw()]);
        continue;
      }
      if (move === MOVE.double) {
        this.stake[i] = 2;
        this.addCard(i, VALUE_INDEX[this.draw()]);
        return;
      }
      if (move === MOVE.surrender) {
        this.surrendered[i] = 1;
        return;
      }
      this.split(i);
      if (this.splitAces[i] && !this.rules.hitSplitAces) return;
    }
  }

  /** The strategy's code for hand i, with surrender and double replaced when not allowed. */
  private playableMove(i: number, col: number): number {
    const two = this.count[i] === 2;
    const canDouble = two && !(this.fromSplit[i] && !this.rules.doubleAfterSplit);
    const canSurrender =
      two && !this.fromSplit[i] && this.rules.surrender === 'late' && this.handCount === 1;
    const c = this.decisionCode(i, col);
    const fallback = FALLBACK[c];
    if (fallback === undefined) return c;
    return fallback.when === 'surrender'
      ? canSurrender
        ? MOVE.surrender
        : fallback.otherwise
      : canDouble
        ? MOVE.double
        : fallback.otherwise;
  }

  /** Split: the second card moves to a new hand right after this one; both are split hands. */
  private split(i: number): void {
    const v = this.first[i];
    const j = this.handCount;
    for (let k = j; k > i + 1; k -= 1) this.copyHand(k, k - 1);
    this.setHand(i + 1, v, -1);
    this.setHand(i, v, -1);
    this.fromSplit[i] = this.fromSplit[i + 1] = 1;
    this.splitAces[i] = this.splitAces[i + 1] = v === 0 ? 1 : 0;
    this.handCount += 1;
    this.addCard(i, VALUE_INDEX[this.draw()]);
  }

  private copyHand(to: number, from: number): void {
    this.hard[to] = this.hard[from];
    this.ace[to] = this.ace[from];
    this.count[to] = this.count[from];
    this.first[to] = this.first[from];
    this.second[to] = this.second[from];
    this.stake[to] = this.stake[from];
    this.fromSplit[to] = this.fromSplit[from];
    this.splitAces[to] = this.splitAces[from];
    this.surrendered[to] = this.surrendered[from];
  }

  private settleHands(dealerBj: boolean, dealerTotal: number): number {
    const rules = this.rules;
    let net = 0;
    for (let i = 0; i < this.handCount; i += 1) {
      const stake = this.stake[i];
      if (this.surrendered[i]) {
        net += dealerBj && rules.surrender !== 'early' ? -stake : -stake / 2;
        continue;
      }
      if (dealerBj) {
        // Only reached without peek: all stakes lost, or only the original bet (hand 0 unsplit).
        if (rules.noPeekDealerBlackjack === 'original-bets-only') net -= i === 0 ? 1 : 0;
        else net -= stake;
        continue;
      }
      const hard = this.hard[i];
      const total = this.ace[i] && hard + 10 <= 21 ? hard + 10 : hard;
      if (total > 21) net -= stake;
      else if (dealerTotal > 21 || total > dealerTotal) net += stake;
      else if (total < dealerTotal) net -= stake;
    }
    return net;
  }
}

function add(s: BetStats, x: number): void {
  s.n += 1;
  s.sum += x;
  s.sumSquares += x * x;
}

function net(pays: number): number {
  return pays === NO_WIN ? -1 : pays;
}
