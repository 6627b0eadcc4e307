import { CardCode, RANKS, SUITS } from '@studio/cards';
import { BLACKJACK_BURN_VALUES, POK_DENG_BURN_VALUES } from './burn-values';
import {
  applyShoeInput,
  burnCountFor,
  isLastRound,
  isSideBetOffered,
  newShoe,
  ShoeEffect,
  ShoeInput,
  ShoeRejection,
  ShoeRules,
  ShoeState,
  ShoeStep,
} from './shoe';

const POK_DENG_SHOE: ShoeRules = {
  deckCount: 8,
  burnValues: POK_DENG_BURN_VALUES,
  sideBetLastRound: {},
};
// Infinite Blackjack's limits, games.md section 2: Pairs up to round 40, the others up to 45.
const INFINITE_BLACKJACK_SHOE: ShoeRules = {
  deckCount: 8,
  burnValues: BLACKJACK_BURN_VALUES,
  sideBetLastRound: { pairs: 40, 'bust-bonus': 45, 'lucky-trio': 45, 'poker-trio': 45 },
};

function ok(step: ShoeStep): { state: ShoeState; effects: readonly ShoeEffect[] } {
  if ('rejected' in step) throw new Error(`unexpected rejection: ${step.rejected.message}`);
  return step;
}
function rejected(step: ShoeStep): ShoeRejection {
  if (!('rejected' in step)) throw new Error('expected a rejection');
  return step.rejected;
}
function run(state: ShoeState, inputs: ShoeInput[]): ShoeState {
  return inputs.reduce((s, input) => ok(applyShoeInput(s, input)).state, state);
}
const card = (c: CardCode): ShoeInput => ({ type: 'card', card: c });
/** A shoe whose burn is done: first card 2C burns 2 more. */
function burntShoe(rules: ShoeRules): ShoeState {
  return run(newShoe(rules, 1), [card('2C'), card('9D'), card('9H')]);
}

describe('burn procedure at the start of a shoe', () => {
  // games.md section 0: A = 1, 2-9 face value; T/J/Q/K burn 10 in both blackjack and Pok Deng.
  const expected: Record<string, number> = {
    A: 1,
    '2': 2,
    '3': 3,
    '4': 4,
    '5': 5,
    '6': 6,
    '7': 7,
    '8': 8,
    '9': 9,
    T: 10,
    J: 10,
    Q: 10,
    K: 10,
  };

  it.each(RANKS.flatMap((rank) => [['pok-deng', rank] as const, ['blackjack', rank] as const]))(
    '%s: a first card of rank %s burns the value of the table, then burning is complete',
    (game, rank) => {
      const rules = game === 'pok-deng' ? POK_DENG_SHOE : INFINITE_BLACKJACK_SHOE;
      const first = `${rank}S` as CardCode;
      expect(burnCountFor(rules, first)).toBe(expected[rank]);

      let step = ok(applyShoeInput(newShoe(rules, 1), card(first)));
      expect(step.effects).toEqual([
        { type: 'burn-card-shown', card: first, toBurn: expected[rank] },
      ]);
      for (let i = 1; i <= expected[rank]; i += 1) {
        // Until the last one, no round can start and the burn is still in progress.
        expect(step.state.phase).toBe('burning');
        expect(rejected(applyShoeInput(step.state, { type: 'start-round' })).code).toBe(
          'burn-incomplete',
        );
        const burnt = `${RANKS[i]}H` as CardCode;
        step = ok(applyShoeInput(step.state, card(burnt)));
        expect(step.effects[0]).toEqual({
          type: 'card-burnt',
          card: burnt,
          remaining: expected[rank] - i,
        });
      }
      expect(step.state.phase).toBe('between-rounds');
      // The shown card is burnt too.
      expect(step.effects[1]).toEqual({ type: 'burn-completed', burntCount: expected[rank] + 1 });
      expect(step.state.cardsDrawn).toBe(expected[rank] + 1);
      expect(step.state.burn.burntCards).toHaveLength(expected[rank]);
    },
  );

  it('expects no card between the burn and the first round', () => {
    const state = burntShoe(POK_DENG_SHOE);
    expect(rejected(applyShoeInput(state, card('AS'))).code).toBe('no-card-expected');
  });
});

describe('round numbering and the cut card', () => {
  it('numbers rounds from 1 within the shoe', () => {
    let state = burntShoe(POK_DENG_SHOE);
    expect(state.roundNumber).toBe(0);
    for (let round = 1; round <= 3; round += 1) {
      const started = ok(applyShoeInput(state, { type: 'start-round' }));
      expect(started.effects[0]).toMatchObject({ type: 'round-started', roundNumber: round });
      expect(rejected(applyShoeInput(started.state, { type: 'start-round' })).code).toBe(
        'round-in-progress',
      );
      state = run(started.state, [card('KD'), { type: 'end-round' }]);
    }
    expect(state.roundNumber).toBe(3);
    expect(state.phase).toBe('between-rounds');
  });

  it('makes the round in progress the last round when the cut card is drawn, and finishes the shoe after it', () => {
    let state = run(burntShoe(POK_DENG_SHOE), [{ type: 'start-round' }, card('5S')]);
    expect(isLastRound(state)).toBe(false);
    const cut = ok(applyShoeInput(state, { type: 'cut-card-drawn' }));
    expect(cut.effects).toEqual([{ type: 'last-round-declared', roundNumber: 1 }]);
    expect(isLastRound(cut.state)).toBe(true);
    // The last round is completed normally: more cards are drawn as needed.
    state = run(cut.state, [card('6S'), card('7S')]);
    expect(state.cardsDrawn).toBe(3 + 3);
    expect(rejected(applyShoeInput(state, { type: 'cut-card-drawn' })).code).toBe(
      'cut-card-already-drawn',
    );
    const ended = ok(applyShoeInput(state, { type: 'end-round' }));
    expect(ended.effects).toEqual([
      { type: 'round-ended', roundNumber: 1 },
      { type: 'shoe-finished', reason: 'last-round-played' },
    ]);
    expect(ended.state.phase).toBe('finished');
    expect(rejected(applyShoeInput(ended.state, { type: 'start-round' })).code).toBe(
      'shoe-finished',
    );
    expect(rejected(applyShoeInput(ended.state, card('AS'))).code).toBe('shoe-finished');
  });

  it('makes the first round the last when the cut card comes out during the burn', () => {
    const state = run(newShoe(POK_DENG_SHOE, 1), [card('AS'), { type: 'cut-card-drawn' }]);
    expect(state.lastRoundNumber).toBe(1);
    const started = ok(applyShoeInput(run(state, [card('3C')]), { type: 'start-round' }));
    expect(started.effects[0]).toMatchObject({ roundNumber: 1, isLastRound: true });
  });

  it('closes between rounds only', () => {
    const inRound = run(burntShoe(POK_DENG_SHOE), [{ type: 'start-round' }]);
    expect(rejected(applyShoeInput(inRound, { type: 'close-shoe', reason: 'x' })).code).toBe(
      'round-in-progress',
    );
    const closed = ok(
      applyShoeInput(run(inRound, [{ type: 'end-round' }]), {
        type: 'close-shoe',
        reason: 'damaged card',
      }),
    );
    expect(closed.state.phase).toBe('finished');
    expect(closed.effects).toEqual([
      { type: 'shoe-finished', reason: 'closed', detail: 'damaged card' },
    ]);
  });
});

describe('composition check', () => {
  it('accepts a card N times in an N-deck shoe, burnt or dealt, and rejects the next one', () => {
    // Burn: 2C shown burns two more, both QH; then six more QH in the round = 8 in total.
    let state = run(newShoe(POK_DENG_SHOE, 1), [card('2C'), card('QH'), card('QH')]);
    state = run(state, [{ type: 'start-round' }]);
    for (let i = 0; i < 6; i += 1) state = run(state, [card('QH')]);
    const ninth = rejected(applyShoeInput(state, card('QH')));
    expect(ninth).toMatchObject({ code: 'composition-exceeded', card: 'QH', seen: 8, allowed: 8 });
    // The rejected reading changed nothing; other cards are still fine.
    expect(state.cardsDrawn).toBe(9);
    expect(ok(applyShoeInput(state, card('QS'))).state.cardsDrawn).toBe(10);
  });

  it('uses the deck count of the rules (6-deck shoe)', () => {
    let state = run(newShoe({ ...POK_DENG_SHOE, deckCount: 6 }, 1), [card('AD'), card('AD')]);
    state = run(state, [{ type: 'start-round' }]);
    for (let i = 0; i < 4; i += 1) state = run(state, [card('AD')]);
    expect(rejected(applyShoeInput(state, card('AD'))).code).toBe('composition-exceeded');
  });

  it('rejects what is not a card', () => {
    const state = newShoe(POK_DENG_SHOE, 1);
    expect(rejected(applyShoeInput(state, card('ZZ' as CardCode))).code).toBe('not-a-card');
  });

  it('keeps its state plain JSON', () => {
    const state = run(burntShoe(POK_DENG_SHOE), [{ type: 'start-round' }, card('TD')]);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(SUITS.length * RANKS.length).toBe(state.composition.counts.length);
  });
});

describe('side bet availability', () => {
  it.each([
    ['pairs', 40, true],
    ['pairs', 41, false],
    ['bust-bonus', 45, true],
    ['bust-bonus', 46, false],
    ['lucky-trio', 1, true],
    ['poker-trio', 46, false],
    ['main', 500, true],
  ] as const)('%s in round %d offered: %s', (betType, round, offered) => {
    expect(isSideBetOffered(INFINITE_BLACKJACK_SHOE, betType, round)).toBe(offered);
  });

  it('announces the bets no longer offered when a round starts past their limit', () => {
    const at41 = { ...burntShoe(INFINITE_BLACKJACK_SHOE), roundNumber: 40 };
    expect(ok(applyShoeInput(at41, { type: 'start-round' })).effects[0]).toEqual({
      type: 'round-started',
      roundNumber: 41,
      isLastRound: false,
      sideBetsNoLongerOffered: ['pairs'],
    });
    const at46 = { ...burntShoe(INFINITE_BLACKJACK_SHOE), roundNumber: 45 };
    expect(ok(applyShoeInput(at46, { type: 'start-round' })).effects[0]).toMatchObject({
      sideBetsNoLongerOffered: ['bust-bonus', 'lucky-trio', 'pairs', 'poker-trio'],
    });
  });
});
