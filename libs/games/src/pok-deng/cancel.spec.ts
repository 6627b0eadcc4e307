import { applyPokDengInput, newPokDengRound, PokDengInput, PokDengRoundState } from '.';

const bet = (betId: string, playerId: string, hand = 1, amount = 100): PokDengInput => ({
  type: 'place-bet',
  bet: { betId, playerId, spot: { kind: 'player', hand }, amount },
});
const cancel = (betId: string, playerId: string): PokDengInput => ({
  type: 'cancel-bet',
  betId,
  playerId,
});

function run(state: PokDengRoundState, inputs: PokDengInput[]) {
  for (const input of inputs) {
    const r = applyPokDengInput(state, input);
    if ('rejected' in r) throw new Error(`${input.type} rejected: ${r.rejected.message}`);
    state = r.state;
  }
  return state;
}

const code = (state: PokDengRoundState, input: PokDengInput) => {
  const r = applyPokDengInput(state, input);
  return 'rejected' in r ? r.rejected.code : 'accepted';
};

describe('Pok Deng: a platform cancels a bet while betting is open', () => {
  const betting = () => run(newPokDengRound(1, 1), [bet('b1', 'alice'), bet('b2', 'bob', 2)]);

  it('takes the bet out of the round with its whole deduction', () => {
    const r = applyPokDengInput(betting(), cancel('b1', 'alice'));
    if ('rejected' in r) throw new Error(r.rejected.message);
    expect(r.effects).toEqual([
      { type: 'bet-cancelled', bet: expect.objectContaining({ betId: 'b1', amount: 100 }) },
    ]);
    expect(r.state.bets.map((b) => b.betId)).toEqual(['b2']);
    // Voided now, only b2 would be refunded: b1 is no longer the round's.
    const voided = run(r.state, [{ type: 'void', reason: 'x' }]);
    expect(voided.settlements!.map((s) => s.betId)).toEqual(['b2']);
  });

  it('refuses after betting closed', () => {
    const closed = run(betting(), [{ type: 'close-betting' }]);
    expect(code(closed, cancel('b1', 'alice'))).toBe('betting-closed');
  });

  it("refuses an unknown bet id and another player's bet alike (unknown-bet)", () => {
    expect(code(betting(), cancel('b9', 'alice'))).toBe('unknown-bet');
    expect(code(betting(), cancel('b2', 'alice'))).toBe('unknown-bet');
  });

  it('answers a repeat bet-already-cancelled, and never takes that bet id again', () => {
    const s = run(betting(), [cancel('b1', 'alice')]);
    expect(code(s, cancel('b1', 'alice'))).toBe('bet-already-cancelled');
    expect(code(s, bet('b1', 'alice'))).toBe('duplicate-bet-id');
  });
});
