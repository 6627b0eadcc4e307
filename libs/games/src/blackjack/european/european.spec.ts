import fc from 'fast-check';
import { cardCode, cardIndex, decks, parseCardCode } from '@studio/cards';
import { isRejected } from '../core/engine';
import { PlayerAction } from '../core/player-hands';
import { rulesFor } from '../core/rules';
import { botDecision } from '../bots/bots';
import { BotDifficulty } from '../bots/view';
import { EUROPEAN_ALL_STAKES_STRATEGY } from '../strategy/generated/european-all-stakes';
import { seededRandom } from '../strategy/seeded-random';
import { BlackjackSimulator, RoundResult } from '../strategy/simulator';
import { playBotTurns } from './bot-runner';
import { botView, isRejection, newEuropeanTable, seatToAct } from './engine';
import { EuropeanBet, EuropeanConfig, EuropeanState } from './state';
import { stepEuropean } from './shoe-driver';
import { stackedShoe, step } from './european.testing';
import { fisherYates, seededRandomSource, shuffledShoe } from './random';

const player = (id: string) => ({ kind: 'player' as const, playerId: id });
const bot = (difficulty: BotDifficulty) => ({ kind: 'bot' as const, difficulty });

function table(prefix: string, bets: EuropeanBet[], config: Partial<EuropeanConfig> = {}) {
  let s = newEuropeanTable(config);
  s = step(s, {
    type: 'load-shoe',
    order: stackedShoe(prefix),
    shuffle: { method: 'fisher-yates', source: 'seeded', seed: 0 },
  });
  return step(s, { type: 'start-round', bets });
}

function play(state: EuropeanState, seat: number, ...actions: PlayerAction[]): EuropeanState {
  for (const action of actions) state = step(state, { type: 'decide', seat, action });
  return state;
}

const scores = (s: EuropeanState) => s.round!.seats.map((x) => x.score);

describe('European practice: dealing and scoring (games.md §4)', () => {
  it('scores win +1, BJ +1.5, bust -1, push 0 per unit staked', () => {
    // Deal: seats 1-4 first cards, dealer up, seats 1-4 second cards, dealer hidden, then draws.
    let s = table(
      'TS AS TH TD 7C 9S KD 6H 7D KS KC',
      [1, 2, 3, 4].map((seat) => ({ seat, occupant: player(`p${seat}`), stake: 100 })),
    );
    s = play(s, 1, 'stand');
    s = play(s, 3, 'hit'); // 16 + KC = bust
    s = play(s, 4, 'stand');
    expect(s.round!.phase).toBe('settled');
    // Dealer 7C KS = 17: 19 wins, BJ pays 3:2, the bust loses, 17 pushes.
    expect(scores(s)).toEqual([1, 1.5, -1, 0]);
    expect(s.scores).toEqual({ p1: 1, p2: 1.5, p3: -1, p4: 0 });
  });

  it('a blackjack scores +1.5 on any stake, though its points round down to the unit', () => {
    const s = table('AS TD KH 7C', [{ seat: 1, occupant: player('p'), stake: 3 }]);
    expect(s.round!.phase).toBe('settled');
    expect(s.round!.seats[0].settlements![0]).toMatchObject({ staked: 3, paid: 7 }); // 3 + 4.5↓
    expect(scores(s)).toEqual([1.5]);
  });

  it('a bust hand loses even when the dealer busts later', () => {
    let s = table('TS 6C 6H TD KC 8S', [{ seat: 1, occupant: player('p'), stake: 100 }]);
    s = play(s, 1, 'hit'); // 16 + KC = 26
    expect(s.round!.dealer.draws).toEqual(['8S']); // dealer 6C TD 8S = 24, bust
    expect(scores(s)).toEqual([-1]);
  });

  it('a dealer BJ revealed after play takes doubled and split stakes; player BJ pushes', () => {
    // Seat 1: 8H 8D; seat 2: AS KH (BJ). Dealer AC up, KC hidden (BJ, no peek).
    let s = table('8H AS AC 8D KH KC 3C 9S 2H', [
      { seat: 1, occupant: player('a'), stake: 100 },
      { seat: 2, occupant: player('b'), stake: 100 },
    ]);
    expect(s.round!.turn).toBe(0);
    s = play(s, 1, 'split'); // 8H + 3C = 11
    s = play(s, 1, 'double'); // + 9S = 20, closed
    s = play(s, 1, 'stand'); // 8D + 2H = 10
    const seat1 = s.round!.seats[0];
    expect(seat1.settlements!.map((x) => x.staked)).toEqual([200, 100]);
    expect(seat1.settlements!.map((x) => x.paid + x.refunded)).toEqual([0, 0]);
    expect(scores(s)).toEqual([-3, 0]);
  });

  it('"original bets only" returns the double and the split stake against a dealer BJ', () => {
    let s = table(
      '8H AS AC 8D KH KC 3C 9S 2H',
      [
        { seat: 1, occupant: player('a'), stake: 100 },
        { seat: 2, occupant: player('b'), stake: 100 },
      ],
      { rules: rulesFor('european-practice', { noPeekDealerBlackjack: 'original-bets-only' }) },
    );
    s = play(s, 1, 'split', 'double', 'stand');
    expect(scores(s)).toEqual([-1, 0]);
  });

  it('offers no insurance or surrender, even against an ace', () => {
    const s = table('TS AC 6H 5D', [{ seat: 1, occupant: player('p'), stake: 100 }]);
    const view = botView(s, 1);
    if (isRejection(view)) throw new Error(view.message);
    expect(view.legalActions).toEqual(['hit', 'stand', 'double']);
    const r = stepEuropean(s, { type: 'decide', seat: 1, action: 'surrender' });
    expect(isRejected(r) && r.rejected.code).toBe('illegal-action');
  });
});

describe('European practice: missing decisions (games.md §0 auto-play)', () => {
  it('hits while the total is 11 or less, then stands', () => {
    let s = table('5S 9C 4H 9D 2C 8C', [{ seat: 1, occupant: player('p'), stake: 100 }]);
    s = step(s, { type: 'timeout', seat: 1 }); // 9: hit, + 2C = 11
    expect(s.round!.seats[0].player.hands[0].cards).toEqual(['5S', '4H', '2C']);
    s = step(s, { type: 'timeout', seat: 1 }); // 11: hit, + 8C = 19
    s = step(s, { type: 'timeout', seat: 1 }); // 19: stand
    expect(s.round!.phase).toBe('settled');
    expect(scores(s)).toEqual([1]); // 19 against 18
    const r = stepEuropean(s, { type: 'timeout', seat: 1 });
    expect(isRejected(r) && r.rejected.code).toBe('not-your-turn');
  });
});

describe('European practice: split rules', () => {
  it('aces split once, one card each; A + ten after a split is 21, not BJ', () => {
    let s = table('AS 9C AD 9D KH AH', [{ seat: 1, occupant: player('p'), stake: 100 }]);
    s = play(s, 1, 'split'); // AS + KH = 21 (closed), AD + AH = 12 (closed, no re-split)
    expect(s.round!.phase).toBe('settled');
    const hands = s.round!.seats[0].settlements!;
    expect(hands.map((h) => h.outcome)).toEqual(['win', 'lose']); // 21 beats 18 at 1:1, 12 loses
    expect(hands[0].paid).toBe(200);
    expect(scores(s)).toEqual([0]);
  });

  it('re-splits up to 4 hands, never a fifth; T and K split as equal values', () => {
    let s = table('8S 9C 8H 9D 8D 8C 8S 2S 3S 4S 5S', [
      { seat: 1, occupant: player('p'), stake: 100 },
    ]);
    s = play(s, 1, 'split'); // 8S + 8D
    s = play(s, 1, 'split'); // 8S + 8C
    s = play(s, 1, 'split'); // 8S + 8S: now 4 hands, the pair may not split again
    const view = botView(s, 1);
    if (isRejection(view)) throw new Error(view.message);
    expect(view.hands).toHaveLength(4);
    expect(view.legalActions).not.toContain('split');
    const r = stepEuropean(s, { type: 'decide', seat: 1, action: 'split' });
    expect(isRejected(r) && r.rejected.code).toBe('illegal-action');

    const tk = table('TS 9C KH 9D', [{ seat: 1, occupant: player('p'), stake: 100 }]);
    const v = botView(tk, 1);
    if (isRejection(v)) throw new Error(v.message);
    expect(v.legalActions).toContain('split');
  });

  it('doubles only on the first two cards, with exactly one more card', () => {
    let s = table('5S 9C 4H 9D 2C 3C 7S', [{ seat: 1, occupant: player('p'), stake: 100 }]);
    s = play(s, 1, 'hit'); // 9 + 2C = 11, three cards
    const r = stepEuropean(s, { type: 'decide', seat: 1, action: 'double' });
    expect(isRejected(r) && r.rejected.code).toBe('illegal-action');
  });
});

describe('European practice: shoe', () => {
  it('rejects a shoe with a card too many or the wrong size', () => {
    const order = stackedShoe('AS');
    order[1] = 'AS';
    const bad = stepEuropean(newEuropeanTable(), {
      type: 'load-shoe',
      order,
      shuffle: { method: 'fisher-yates', source: 'crypto' },
    });
    expect(isRejected(bad) && bad.rejected.code).toBe('composition-exceeded');
    const short = stepEuropean(newEuropeanTable(), {
      type: 'load-shoe',
      order: order.slice(1),
      shuffle: { method: 'fisher-yates', source: 'crypto' },
    });
    expect(isRejected(short) && short.rejected.code).toBe('invalid-card');
  });

  it('records the shuffle and publishes the hidden card only in a hidden event', () => {
    let s = newEuropeanTable();
    s = step(s, {
      type: 'load-shoe',
      order: shuffledShoe(6, seededRandomSource(7)),
      shuffle: { method: 'fisher-yates', source: 'seeded', seed: 7 },
    });
    expect(s.shoe!.shuffle.seed).toBe(7);
    expect(s.shoe!.order).toEqual(shuffledShoe(6, seededRandomSource(7)));
    const r = stepEuropean(s, {
      type: 'start-round',
      bets: [{ seat: 1, occupant: player('p'), stake: 100 }],
    });
    if (isRejected(r)) throw new Error(r.rejected.message);
    const hidden = r.state.round!.dealer.hidden;
    const published = r.effects.filter((e) => e.type === 'event' && !e.hidden);
    const hiddenEvents = r.effects.filter((e) => e.type === 'event' && e.hidden);
    expect(hiddenEvents).toHaveLength(1);
    expect(JSON.stringify(hiddenEvents[0])).toContain(hidden);
    const publishedHidden = published.filter(
      (e) => e.type === 'event' && (e.payload as { to?: string }).to === 'dealer-hidden',
    );
    expect(publishedHidden.map((e) => e.type === 'event' && e.payload)).toEqual([
      { to: 'dealer-hidden', card: null },
    ]);
  });

  it('Fisher–Yates keeps every card and moves them', () => {
    const shuffled = shuffledShoe(6, seededRandomSource(1));
    expect([...shuffled].sort()).toEqual(decks(6).map(cardCode).sort());
    expect(fisherYates([1, 2, 3, 4, 5, 6, 7, 8], seededRandomSource(3))).not.toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });
});

describe('bots see only what a player sees', () => {
  it('a bot view never depends on the hidden card or the shoe order (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.array(fc.constantFrom<BotDifficulty>('easy', 'normal', 'hard'), {
          minLength: 1,
          maxLength: 7,
        }),
        (seed, difficulties) => {
          let s = newEuropeanTable();
          s = step(s, {
            type: 'load-shoe',
            order: shuffledShoe(6, seededRandomSource(seed)),
            shuffle: { method: 'fisher-yates', source: 'seeded', seed },
          });
          s = step(s, {
            type: 'start-round',
            bets: difficulties.map((d, i) => ({ seat: i + 1, occupant: bot(d), stake: 100 })),
          });
          for (let seat = seatToAct(s); seat !== null; seat = seatToAct(s)) {
            const view = botView(s, seat);
            // Same table, different hidden card and a different unseen shoe.
            const r = s.round!;
            const shoe = s.shoe!;
            const unseen = [...shoe.order.slice(shoe.next)].reverse();
            const other: EuropeanState = {
              ...s,
              shoe: { ...shoe, order: [...shoe.order.slice(0, shoe.next), ...unseen] },
              round: {
                ...r,
                dealer: { ...r.dealer, hidden: r.dealer.hidden === 'AS' ? 'KD' : 'AS' },
              },
            };
            expect(botView(other, seat)).toEqual(view);
            expect(JSON.stringify(view)).not.toMatch(/hidden|shoe|order/);
            s = stepOnce(s, seat);
          }
          expect(s.round!.phase).toBe('settled');
        },
      ),
      { numRuns: 60 },
    );
  });
});

/** Lets the acting bot take exactly one decision. */
function stepOnce(s: EuropeanState, seat: number): EuropeanState {
  const view = botView(s, seat);
  if (isRejection(view)) throw new Error(view.message);
  const occupant = s.round!.seats[s.round!.turn].occupant;
  if (occupant.kind !== 'bot') throw new Error('not a bot');
  return step(s, { type: 'decide', seat, action: botDecision(occupant.difficulty, view) });
}

describe('the fast simulator deals and scores exactly like the engine', () => {
  it('agrees round by round on 3,000 seeded rounds with the hard bot', () => {
    const rules = rulesFor('european-practice');
    const sim = new BlackjackSimulator(
      { rules, strategy: EUROPEAN_ALL_STAKES_STRATEGY },
      seededRandom(1),
    );
    const result: RoundResult = { main: 0, insurance: NaN };
    let s = newEuropeanTable();
    let rounds = 0;
    let seed = 100;
    let splits = 0;
    let doubles = 0;
    while (rounds < 3000) {
      if (!s.shoe || s.shoe.next >= s.config.cutCardAt) {
        seed += 1;
        const order = shuffledShoe(6, seededRandomSource(seed));
        s = step(s, {
          type: 'load-shoe',
          order,
          shuffle: { method: 'fisher-yates', source: 'seeded', seed },
        });
        sim.load(order.map((c) => cardIndex(parseCardCode(c)!)));
      }
      s = step(s, { type: 'start-round', bets: [{ seat: 1, occupant: bot('hard'), stake: 100 }] });
      s = playBotTurns(s).state;
      sim.playRound(result);
      const seat = s.round!.seats[0];
      expect(result.main).toBe(seat.score);
      expect(sim.position).toBe(s.shoe!.next);
      if (seat.player.hands.length > 1) splits += 1;
      if (seat.player.hands.some((h) => h.doubled)) doubles += 1;
      rounds += 1;
    }
    // The comparison covered the interesting paths, not only stand/hit.
    expect(splits).toBeGreaterThan(30);
    expect(doubles).toBeGreaterThan(150);
  });
});
