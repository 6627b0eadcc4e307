import { Card, CardCode, cards, RANKS, SUITS } from '@studio/cards';
import { evaluateHand, formatScore, HandEvaluation } from './hand';
import { applyPokDengInput, PokDengInput, PokDengRoundState, PokDengStep } from './round';
import { newPokDengRound } from './round';
import { POK_DENG_RULES } from './rules';
import { settlePlayerBet } from './settlement';

/**
 * Rules audit of games.md section 5 (Pok Deng). Expected figures are typed in from the sheet:
 * the worked examples are played through the whole round (burn, deal order, betting, reveal),
 * the table of special combinations line by line, and the published 98.75% return.
 */

const ok = (step: PokDengStep): PokDengRoundState => {
  if ('rejected' in step) throw new Error(step.rejected.message);
  return step.state;
};
const run = (state: PokDengRoundState, inputs: PokDengInput[]) =>
  inputs.reduce((s, input) => ok(applyPokDengInput(s, input)), state);
const card = (c: string): PokDengInput => ({ type: 'card', card: c as CardCode });
const filler = ['2S 3S', '4D 5C', '6H 9C', 'TD 3H'];

/** Burn, first cards P1..P5 + Banker, second cards P1..P5 + Banker (games.md 5, Round step 2). */
function deal(player1: string, banker: string): PokDengInput[] {
  const hands = [player1, ...filler, banker].map((h) => h.split(' '));
  return [card('7D'), ...hands.map((h) => card(h[0])), ...hands.map((h) => card(h[1]))];
}

function playRound(player1: string, banker: string, kind: 'player' | 'pair') {
  let s = newPokDengRound(1, 1);
  // Cards are dealt while betting is still open.
  s = run(s, deal(player1, banker));
  s = run(s, [
    { type: 'place-bet', bet: { betId: 'b', playerId: 'p', spot: { kind, hand: 1 }, amount: 100 } },
    { type: 'close-betting' },
  ]);
  for (let i = 0; i < 6; i += 1) s = run(s, [{ type: 'reveal-next' }]);
  expect(s.phase).toBe('settled');
  return s.settlements![0];
}

describe('rules audit: worked examples of games.md 5, played as whole rounds', () => {
  it.each([
    [1, '4H 8C', '6C 7S', 300],
    [2, '2C 3D', '9C 2D', 100],
    [3, 'QC TC', 'QC JC', 400],
    [4, '8C JC', '9D 6C', 0],
    [5, '6C 5C', 'JD AC', 200],
    [6, 'JC KD', '5S 9H', 0],
    [8, '2H 4H', '5C 5C', 300],
    [9, '9D 7C', 'KH 9H', 400],
  ])('example %d: Banker %s v Player 1 %s: 200 deducted, %d returned', (_n, b, p, back) => {
    const s = playRound(p, b, 'player');
    expect([s.deducted, s.returned, s.net]).toEqual([200, back, back - 200]);
  });

  it('example 7: Player 1 Pair bet of 100 on TC TH: 100 deducted, 1,200 returned', () => {
    const s = playRound('TC TH', '6S 8S', 'pair');
    expect([s.deducted, s.returned]).toEqual([100, 1200]);
  });

  it('a void returns the whole deduction of every bet (bet + deposit)', () => {
    let s = run(newPokDengRound(1, 1), deal('9C 9D', '2C 3D'));
    s = run(s, [
      {
        type: 'place-bet',
        bet: { betId: 'a', playerId: 'p', spot: { kind: 'player', hand: 1 }, amount: 100 },
      },
      {
        type: 'place-bet',
        bet: { betId: 'b', playerId: 'p', spot: { kind: 'pair', hand: 1 }, amount: 100 },
      },
      { type: 'void', reason: 'scanner fault' },
    ]);
    expect(s.settlements!.map((x) => [x.deducted, x.returned, x.net])).toEqual([
      [200, 200, 0],
      [100, 100, 0],
    ]);
  });
});

const ev = (codes: string): HandEvaluation => {
  const [a, b] = cards(codes) as [Card, Card];
  return evaluateHand(a, b);
};

describe('rules audit: points and the special combinations table (games.md 5)', () => {
  it.each([
    ['8H 7S', '5'], // 8 + 7 = 15 -> 5
    ['AS 2D', '3'],
    ['TH 9C', '9'],
    ['AS KS', '7.5'], // suited A-K
    ['KD AD', '7.5'],
    ['AS KH', '1'], // unsuited A-K: no combination
    ['AS AD', '7.4'], // special pair: aces, fives, sixes, tens (any suits)
    ['5C 5H', '7.4'],
    ['6S 6S', '7.4'],
    ['TD TS', '7.4'],
    ['TH TH', '7.4'], // T-T suited is already 7.4, not 7.1
    ['3S 3H', '6'], // an ordinary pair keeps its points
    ['4S 4H', '8'], // a pair making 8 stays 8
    ['JS QD', '7.3'], // two pictures
    ['KC KH', '7.3'],
    ['TS JH', '7.2'], // a ten with a face card
    ['QD TD', '7.2'],
    ['AH 9H', '7.1'], // flush no point
    ['2C 8C', '7.1'],
    ['3D 7D', '7.1'],
    ['4S 6S', '7.1'],
    ['AH 9S', '0'], // no point, not suited: 0
    ['8C JC', '8'], // 8 by points keeps 8, not a combination
    ['9D KD', '9'],
  ])('%s scores %s', (hand, score) => {
    expect(formatScore(ev(hand).score)).toBe(score);
  });

  it('ranks 9 > 8 > 7.5 > 7.4 > 7.3 > 7.2 > 7.1 > 7 > 6 > 5 > 4 > 3 > 2 > 1 > 0', () => {
    const hands = ['TC 9D', 'TC 8D', 'AS KS', 'AS AH', 'JS QD', 'TS JH', 'AH 9H', '3C 4D'];
    hands.push('3C 3D', '2C 3D', '2C 2D', '2C AD', '2C KD', 'AC KD', 'AC 9D');
    const scores = hands.map((h) => ev(h).score);
    for (let i = 1; i < scores.length; i += 1) expect(scores[i]).toBeLessThan(scores[i - 1]);
  });
});

describe('rules audit: the published maximum RTP of 98.75% (games.md 5)', () => {
  it('the exact 8-deck expectation of a Player N bet is -2.50% per unit bet, -1.25% per deduction', () => {
    // Every ordered deal of Player N's two cards and the Banker's two from a full 8-deck shoe.
    const deck: Card[] = SUITS.flatMap((suit) => RANKS.map((rank) => ({ rank, suit })));
    const n = deck.length;
    const evals: HandEvaluation[] = [];
    for (let i = 0; i < n; i += 1)
      for (let j = 0; j < n; j += 1) evals.push(evaluateHand(deck[i], deck[j]));
    // Settlement depends on the hand's score, flush and pair only: classes, netted once per pair.
    const classes = new Map<string, number>();
    const classOf = evals.map((e) => {
      const key = `${e.score}/${e.flush}/${e.pair}`;
      if (!classes.has(key)) classes.set(key, classes.size);
      return classes.get(key)!;
    });
    const rep: HandEvaluation[] = [];
    evals.forEach((e, i) => (rep[classOf[i]] = e));
    const k = rep.length;
    const nets = new Float64Array(k * k);
    for (let p = 0; p < k; p += 1)
      for (let b = 0; b < k; b += 1)
        nets[p * k + b] = settlePlayerBet(POK_DENG_RULES, 1, rep[p], rep[b]).net;
    let total = 0;
    let weightSum = 0;
    const left = new Array<number>(n).fill(8);
    for (let a = 0; a < n; a += 1) {
      const wa = left[a]--;
      for (let b = 0; b < n; b += 1) {
        const wb = left[b]--;
        for (let c = 0; c < n; c += 1) {
          const wc = left[c]--;
          for (let d = 0; d < n; d += 1) {
            const w = wa * wb * wc * left[d];
            weightSum += w;
            total += w * nets[classOf[a * n + b] * k + classOf[c * n + d]];
          }
          left[c]++;
        }
        left[b]++;
      }
      left[a]++;
    }
    const perUnitBet = total / weightSum;
    expect(perUnitBet).toBeCloseTo(-0.025, 4);
    const returnOnDeduction = 1 + perUnitBet / 2;
    expect(returnOnDeduction).toBeCloseTo(0.9875, 4);
  });
});

describe('rules audit: edges of games.md 5 stated in passing, played as whole rounds', () => {
  it.each([
    // The 0-or-6 exception: a special-pattern win pays 1:1 against a banker of 0 or 6 points...
    ['3C 7D', 'JS QD', 300], // two pictures (7.3) v banker 0: 1:1
    ['3C 7D', '2H 5H', 300], // 7 with a flush v banker 0: 1:1
    ['3C 3D', 'JS QD', 300], // banker 3-3 is 6 points (a pair, no combination): 1:1
    // ... unless the player has 8 or 9 with a flush or a pair.
    ['3C 7D', '9C 9D', 400], // a pair of nines is 8 points with a pair: 2:1
    ['3C 3D', '4S 5S', 400], // 9 with a flush against 6: 2:1
    // A banker combination scores 7.1-7.5, never "0 points" (the reading the 98.75% confirms).
    ['AH 9H', 'JS QD', 400], // banker flush no point (7.1) loses to 7.3: 2:1
    // The banker's special pattern takes bet and deposit, a pair of ordinary points included.
    ['3C 3D', '2C 3H', 0], // banker 6 with a pair beats 5
    ['4C 5D', '4H 5S', 200], // 9 against 9: a tie returns bet and deposit
  ])('Banker %s v Player 1 %s: 200 deducted, %d returned', (b, p, back) => {
    const s = playRound(p, b, 'player');
    expect([s.deducted, s.returned]).toEqual([200, back]);
  });

  it.each([
    ['JS JD', 1200], // same rank in two suits: a pair (and two pictures, 7.3)
    ['9S 9H', 1200], // an ordinary pair of points
    ['KC QC', 0], // two pictures of different ranks are not a pair
    ['TC KC', 0], // same blackjack value, different rank: not a pair
  ])('Player 1 Pair on %s: 100 deducted, %d returned', (p, back) => {
    const s = playRound(p, '2H 4D', 'pair');
    expect([s.deducted, s.returned]).toEqual([100, back]);
  });

  it('a bet of exactly the table minimum or maximum is accepted; one unit outside is not', () => {
    const rules = {
      ...POK_DENG_RULES,
      limits: { player: { min: 100, max: 10_000 }, pair: { min: 50, max: 1_000 } },
    };
    const code = (kind: 'player' | 'pair', amount: number) => {
      const r = applyPokDengInput(newPokDengRound(1, 1, rules), {
        type: 'place-bet',
        bet: { betId: 'b', playerId: 'p', spot: { kind, hand: 1 }, amount },
      });
      return 'rejected' in r ? r.rejected.code : 'accepted';
    };
    expect([100, 10_000, 99, 10_001].map((a) => code('player', a))).toEqual([
      'accepted',
      'accepted',
      'below-table-minimum',
      'above-table-maximum',
    ]);
    expect([50, 1_000, 49, 1_001].map((a) => code('pair', a))).toEqual([
      'accepted',
      'accepted',
      'below-table-minimum',
      'above-table-maximum',
    ]);
  });
});
