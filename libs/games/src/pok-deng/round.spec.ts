import fc from 'fast-check';
import { CardCode, cardCode, cardFromIndex } from '@studio/cards';
import { applyShoeInput, newShoe, ShoeState } from '../shoe/shoe';
import {
  applyPokDengInput,
  BetSettlement,
  DealSlot,
  expectedSlot,
  newPokDengRound,
  nextReveal,
  PokDengBet,
  PokDengEffect,
  PokDengInput,
  PokDengRejection,
  PokDengRoundState,
  PokDengStep,
} from './round';
import { POK_DENG_RULES, pokDengShoeRules } from './rules';
import { dealFromShoe } from './table';
import { playerView } from './view';

function ok(step: PokDengStep): { state: PokDengRoundState; effects: readonly PokDengEffect[] } {
  if ('rejected' in step) throw new Error(`unexpected rejection: ${step.rejected.message}`);
  return step;
}
function rejected(step: PokDengStep): PokDengRejection {
  if (!('rejected' in step)) throw new Error('expected a rejection');
  return step.rejected;
}
function run(state: PokDengRoundState, inputs: readonly PokDengInput[]): PokDengRoundState {
  return inputs.reduce((s, input) => ok(applyPokDengInput(s, input)).state, state);
}
const card = (c: string): PokDengInput => ({ type: 'card', card: c as CardCode });
const bet = (
  betId: string,
  kind: 'player' | 'pair',
  hand: number,
  amount: number,
): PokDengInput => ({
  type: 'place-bet',
  bet: { betId, playerId: `player-${betId}`, spot: { kind, hand }, amount },
});
const reveal: PokDengInput = { type: 'reveal-next' };
const close: PokDengInput = { type: 'close-betting' };

/** Cards in deal order for the given hands (P1..P5 then banker), after a burn card. */
function dealOrder(hands: readonly string[], burn = '7S'): PokDengInput[] {
  const split = hands.map((h) => h.split(' '));
  return [card(burn), ...split.map((h) => card(h[0])), ...split.map((h) => card(h[1]))];
}
const OTHER_PLAYERS = ['2S 3S', '4D 5C', '6H 9C', 'TD 3H'];

describe('deal order and the per-round burn card', () => {
  it('expects burn, first cards P1..P5 and Banker, then second cards, then nothing', () => {
    let state = newPokDengRound(1, 1);
    const slots: (DealSlot | null)[] = [];
    for (let i = 0; i < 14; i += 1) {
      slots.push(expectedSlot(state));
      if (i < 13) state = ok(applyPokDengInput(state, card(cardCode(cardFromIndex(i))))).state;
    }
    const hands = [1, 2, 3, 4, 5, 'banker'] as const;
    expect(slots).toEqual([
      { kind: 'burn' },
      ...hands.map((hand) => ({ kind: 'hand', hand, position: 1 })),
      ...hands.map((hand) => ({ kind: 'hand', hand, position: 2 })),
      null,
    ]);
    expect(state.burnCard).toBe('AS');
    expect(state.hands[0]).toEqual(['2S', '8S']);
    expect(state.hands[5]).toEqual(['7S', 'KS']);
    expect(rejected(applyPokDengInput(state, card('AH'))).code).toBe('no-card-expected');
  });

  it('marks every dealt card face down and says when the deal is complete', () => {
    const first = ok(applyPokDengInput(newPokDengRound(1, 1), card('9H')));
    expect(first.effects).toEqual([
      { type: 'card-dealt', slot: { kind: 'burn' }, card: '9H', faceDown: true },
    ]);
    const almost = run(
      newPokDengRound(1, 1),
      dealOrder(['AS 2S', ...OTHER_PLAYERS, '3C 4C']).slice(0, 12),
    );
    expect(ok(applyPokDengInput(almost, card('4C'))).effects.at(-1)).toEqual({
      type: 'all-cards-dealt',
    });
  });

  it('rejects what is not a card', () => {
    expect(rejected(applyPokDengInput(newPokDengRound(1, 1), card('1S'))).code).toBe('not-a-card');
  });
});

describe('betting', () => {
  it('accepts bets while cards are dealt face down, deducting the deposit for Player N only', () => {
    const state = run(newPokDengRound(1, 1), [card('7S'), card('AS')]);
    const player = ok(applyPokDengInput(state, bet('b1', 'player', 3, 250)));
    expect(player.effects[0]).toMatchObject({ type: 'bet-accepted', bet: { deducted: 500 } });
    const pair = ok(applyPokDengInput(player.state, bet('b2', 'pair', 3, 250)));
    expect(pair.effects[0]).toMatchObject({ type: 'bet-accepted', bet: { deducted: 250 } });
  });

  it('rejects bets after betting closed with a typed reason', () => {
    const closed = run(newPokDengRound(1, 1), [close]);
    expect(rejected(applyPokDengInput(closed, bet('b1', 'player', 1, 100)))).toMatchObject({
      code: 'betting-closed',
    });
    expect(rejected(applyPokDengInput(closed, close)).code).toBe('betting-closed');
  });

  it.each([
    [bet('b', 'player', 0, 100), 'unknown-bet-spot'],
    [bet('b', 'pair', 6, 100), 'unknown-bet-spot'],
    [bet('b', 'player', 1, 0), 'invalid-amount'],
    [bet('b', 'player', 1, 10.5), 'invalid-amount'],
    [bet('b', 'player', 1, -5), 'invalid-amount'],
  ])('rejects %j as %s', (input, code) => {
    expect(rejected(applyPokDengInput(newPokDengRound(1, 1), input)).code).toBe(code);
  });

  it('rejects a bet without a spot (malformed command) as an unknown spot, without throwing', () => {
    const malformed = { betId: 'b', playerId: 'p', amount: 100 } as unknown as PokDengBet;
    expect(
      rejected(applyPokDengInput(newPokDengRound(1, 1), { type: 'place-bet', bet: malformed }))
        .code,
    ).toBe('unknown-bet-spot');
  });

  it('rejects a bet id placed twice', () => {
    const state = run(newPokDengRound(1, 1), [bet('b1', 'player', 1, 100)]);
    expect(rejected(applyPokDengInput(state, bet('b1', 'pair', 1, 100))).code).toBe(
      'duplicate-bet-id',
    );
  });

  it('enforces table limits when configured', () => {
    const rules = { ...POK_DENG_RULES, limits: { player: { min: 100, max: 10_000 } } };
    const round = newPokDengRound(1, 1, rules);
    expect(rejected(applyPokDengInput(round, bet('b', 'player', 1, 99)))).toMatchObject({
      code: 'below-table-minimum',
      min: 100,
    });
    expect(rejected(applyPokDengInput(round, bet('b', 'player', 1, 10_001)))).toMatchObject({
      code: 'above-table-maximum',
      max: 10_000,
    });
    // No pair limits configured: any positive amount.
    expect(ok(applyPokDengInput(round, bet('b', 'pair', 1, 1))).effects).toHaveLength(1);
  });

  it('holds each bet to the limits of its own currency on a table of several', () => {
    const rules = {
      ...POK_DENG_RULES,
      limitsByCurrency: {
        EUR: { player: { min: 100, max: 1_000 } },
        THB: { player: { min: 3_000, max: 40_000 } },
      },
    };
    const round = newPokDengRound(1, 1, rules);
    const inCurrency = (amount: number, currency?: string): PokDengInput => {
      const input = bet('b', 'player', 1, amount) as Extract<PokDengInput, { type: 'place-bet' }>;
      return { ...input, bet: { ...input.bet, currency } };
    };
    expect(ok(applyPokDengInput(round, inCurrency(30_000, 'THB'))).effects).toHaveLength(1);
    expect(rejected(applyPokDengInput(round, inCurrency(30_000, 'EUR')))).toMatchObject({
      code: 'above-table-maximum',
      max: 1_000,
    });
    expect(rejected(applyPokDengInput(round, inCurrency(1_000, 'THB')))).toMatchObject({
      code: 'below-table-minimum',
      min: 3_000,
    });
    expect(rejected(applyPokDengInput(round, inCurrency(1_000, 'USD'))).code).toBe(
      'wrong-currency',
    );
    // The accepted bet keeps its currency.
    const accepted = ok(applyPokDengInput(round, inCurrency(5_000, 'THB'))).state.bets[0];
    expect(accepted.currency).toBe('THB');
  });
});

describe('reveal and settlement', () => {
  const hands = ['6C 7S', ...OTHER_PLAYERS, '4H 8C']; // games.md example 1: P1 3 v banker 2

  it('reveals only after betting closed and every card is dealt', () => {
    const open = run(newPokDengRound(1, 1), dealOrder(hands));
    expect(rejected(applyPokDengInput(open, reveal)).code).toBe('betting-still-open');
    const partial = run(newPokDengRound(1, 1), [...dealOrder(hands).slice(0, 5), close]);
    expect(rejected(applyPokDengInput(partial, reveal))).toMatchObject({
      code: 'cards-missing',
      expected: { kind: 'hand', hand: 5, position: 1 },
    });
  });

  it('reveals Player 1 to 5, then the banker, and settles on the banker', () => {
    let state = run(newPokDengRound(1, 7), [
      bet('b1', 'player', 1, 100),
      ...dealOrder(hands),
      close,
    ]);
    const order: unknown[] = [];
    while (nextReveal(state) !== null) {
      order.push(nextReveal(state));
      const step = ok(applyPokDengInput(state, reveal));
      state = step.state;
      if (order.length < 6) expect(step.effects).toHaveLength(1);
    }
    expect(order).toEqual([1, 2, 3, 4, 5, 'banker']);
    expect(state.phase).toBe('settled');
    expect(state.settlements).toEqual([
      expect.objectContaining({
        betId: 'b1',
        outcome: 'player-wins',
        deducted: 200,
        returned: 300,
      }),
    ]);
    expect(rejected(applyPokDengInput(state, reveal)).code).toBe('round-over');
  });

  // games.md section 5, worked examples 1-9, through the whole round: what comes back of a bet of 100.
  it.each([
    [1, '4H 8C', '6C 7S', 'player', 300],
    [2, '2C 3D', '9C 2D', 'player', 100],
    [3, 'QC TC', 'QC JC', 'player', 400],
    [4, '8C JC', '9D 6C', 'player', 0],
    [5, '6C 5C', 'JD AC', 'player', 200],
    [6, 'JC KD', '5S 9H', 'player', 0],
    [7, '6S 8S', 'TC TH', 'pair', 1200],
    [8, '2H 4H', '5C 5C', 'player', 300],
    [9, '9D 7C', 'KH 9H', 'player', 400],
  ] as const)(
    'example %d: Banker %s, Player 1 %s, %s bet of 100 returns %d',
    (_n, banker, player, kind, back) => {
      const state = run(newPokDengRound(1, 1), [
        ...dealOrder([player, ...OTHER_PLAYERS, banker]).slice(0, 4),
        bet('b1', kind, 1, 100),
        ...dealOrder([player, ...OTHER_PLAYERS, banker]).slice(4),
        close,
        ...Array(6).fill(reveal),
      ]);
      const [s] = state.settlements as BetSettlement[];
      expect(s.returned).toBe(back);
      expect(s.deducted).toBe(kind === 'player' ? 200 : 100);
    },
  );

  it('builds the roadmap: per player hand win, loss or tie with flush and pair marks', () => {
    const state = run(newPokDengRound(1, 12), [
      ...dealOrder(['6C 7S', '2C 3C', '4S 4H', 'JD AC', '9S 9S', '6C 5D']), // banker 1
      close,
      ...Array(6).fill(reveal),
    ]);
    expect(state.roadmap).toEqual({
      roundNumber: 12,
      hands: [
        { hand: 1, result: 'win', flush: false, pair: false },
        { hand: 2, result: 'win', flush: true, pair: false },
        { hand: 3, result: 'win', flush: false, pair: true },
        { hand: 4, result: 'tie', flush: false, pair: false },
        { hand: 5, result: 'win', flush: true, pair: true },
      ],
    });
    const lost = run(newPokDengRound(1, 13), [
      ...dealOrder(['6C 7S', ...OTHER_PLAYERS, 'AS 8D']),
      close,
      ...Array(6).fill(reveal),
    ]);
    // Banker 9 against 3, 5, 9 (4D 5C), 5 and 3.
    expect(lost.roadmap!.hands.map((h) => h.result)).toEqual([
      'loss',
      'loss',
      'tie',
      'loss',
      'loss',
    ]);
  });

  it('voids a round: every bet refunded in full, no winners, no losers', () => {
    const state = run(newPokDengRound(1, 1), [
      bet('b1', 'player', 1, 100),
      bet('b2', 'pair', 2, 70),
      ...dealOrder(hands).slice(0, 8),
    ]);
    const voided = ok(applyPokDengInput(state, { type: 'void', reason: 'scanner failure' }));
    expect(voided.state.phase).toBe('voided');
    expect(
      voided.state.settlements!.map((s) => [s.outcome, s.deducted, s.returned, s.net]),
    ).toEqual([
      ['void-refund', 200, 200, 0],
      ['void-refund', 70, 70, 0],
    ]);
    expect(rejected(applyPokDengInput(voided.state, card('AS'))).code).toBe('no-card-expected');
    expect(rejected(applyPokDengInput(voided.state, { type: 'void', reason: 'again' })).code).toBe(
      'round-over',
    );
  });
});

describe("the player's view never contains an unrevealed card", () => {
  const CARD_CODE = /\b[A2-9TJQK][SHDC]\b/g;
  const anyCode = fc.integer({ min: 0, max: 51 }).map((i) => cardCode(cardFromIndex(i)));

  it('for any deal and any number of reveal steps', () => {
    fc.assert(
      fc.property(
        fc.array(anyCode, { minLength: 13, maxLength: 13 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 6 }),
        (codes, dealtCount, reveals) => {
          let state = run(newPokDengRound(1, 1), [
            bet('b1', 'player', 2, 100),
            ...codes.slice(0, dealtCount).map(card),
          ]);
          if (dealtCount === 13) {
            state = run(state, [close, ...Array(reveals).fill(reveal)]);
          }
          const view = playerView(state, 'player-b1');
          const shownCodes = new Set(view.hands.flatMap((h) => h.revealed?.cards ?? []));
          for (const code of JSON.stringify(view).match(CARD_CODE) ?? []) {
            expect(shownCodes.has(code as CardCode)).toBe(true);
          }
          view.hands.forEach((h, i) => {
            expect(h.revealed === null).toBe(i >= state.revealed);
          });
          expect(JSON.stringify(view)).not.toContain('burnCard"');
        },
      ),
    );
  });

  it('shows face-down counts before the reveal and the cards after', () => {
    let state = run(newPokDengRound(1, 1), [
      ...dealOrder(['6C 7S', ...OTHER_PLAYERS, '4H 8C']),
      close,
    ]);
    expect(playerView(state).hands[0]).toEqual({ hand: 1, faceDownCards: 2, revealed: null });
    state = run(state, [reveal]);
    expect(playerView(state).hands[0].revealed).toMatchObject({ cards: ['6C', '7S'], score: '3' });
    expect(playerView(state).hands[1].revealed).toBeNull();
  });

  it("limits settlements to the asking player's bets", () => {
    const state = run(newPokDengRound(1, 1), [
      bet('a', 'player', 1, 100),
      bet('b', 'player', 2, 100),
      ...dealOrder(['6C 7S', ...OTHER_PLAYERS, '4H 8C']),
      close,
      ...Array(6).fill(reveal),
    ]);
    expect(playerView(state, 'player-a').settlements!.map((s) => s.betId)).toEqual(['a']);
    expect(playerView(state).settlements).toHaveLength(2);
  });
});

describe('dealing from the shoe', () => {
  function shoeInRound(): ShoeState {
    return [
      { type: 'card', card: 'AS' },
      { type: 'card', card: '2C' },
      { type: 'start-round' },
    ].reduce(
      (s, input) => {
        const step = applyShoeInput(s, input as never);
        if ('rejected' in step) throw new Error(step.rejected.message);
        return step.state;
      },
      newShoe(pokDengShoeRules(POK_DENG_RULES), 1),
    );
  }

  it('applies a card to both the shoe and the round', () => {
    const result = dealFromShoe(shoeInRound(), newPokDengRound(1, 1), 'KH');
    if ('rejected' in result) throw new Error(result.rejected.message);
    expect(result.shoe.cardsDrawn).toBe(3);
    expect(result.round.burnCard).toBe('KH');
    expect(result.effects.map((e) => e.type)).toEqual(['card-drawn', 'card-dealt']);
  });

  it('applies a card breaking the composition check to neither', () => {
    let shoe = shoeInRound();
    let round = newPokDengRound(1, 1);
    for (let i = 0; i < 8; i += 1) {
      const r = dealFromShoe(shoe, round, '9D');
      if ('rejected' in r) throw new Error(r.rejected.message);
      ({ shoe, round } = r);
    }
    const ninth = dealFromShoe(shoe, round, '9D');
    expect(ninth).toEqual({ rejected: expect.objectContaining({ code: 'composition-exceeded' }) });
  });

  it('rejects a card the round does not expect without drawing it from the shoe', () => {
    const full = run(newPokDengRound(1, 1), dealOrder(['6C 7S', ...OTHER_PLAYERS, '4H 8C']));
    expect(dealFromShoe(shoeInRound(), full, 'AH')).toEqual({
      rejected: expect.objectContaining({ code: 'no-card-expected' }),
    });
  });
});

describe('state', () => {
  it('is plain JSON', () => {
    const state = run(newPokDengRound(1, 1), [
      bet('b1', 'player', 1, 100),
      ...dealOrder(['6C 7S', ...OTHER_PLAYERS, '4H 8C']),
      close,
      reveal,
    ]);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it('never mutates the input state', () => {
    const before = run(newPokDengRound(1, 1), [card('AS')]);
    const copy = JSON.parse(JSON.stringify(before));
    const bets: PokDengBet = {
      betId: 'x',
      playerId: 'p',
      spot: { kind: 'player', hand: 1 },
      amount: 5,
    };
    applyPokDengInput(before, { type: 'place-bet', bet: bets });
    applyPokDengInput(before, card('2S'));
    expect(before).toEqual(copy);
  });
});
