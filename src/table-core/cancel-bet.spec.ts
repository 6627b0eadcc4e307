import { shoeReady, Table } from './pok-deng-table.testing';
import { CancelBetInput, roundOf } from './table-machine';

/** A Pok Deng round with casino-a's alice betting 100 on Player 1 (bet id b-1). */
function withBet(): { t: Table; roundId: string } {
  const t = shoeReady();
  const roundId = roundOf(t.state)!.id;
  const placed = t.step({
    type: 'bet',
    bet: {
      betId: 'b-1',
      commandId: 'bet-cmd',
      playerId: 'casino-a:alice',
      betType: 'player',
      spot: '1',
      amount: 100,
    },
  });
  expect(placed.rejection).toBeUndefined();
  return { t, roundId };
}

function cancel(roundId: string, over: Partial<CancelBetInput> = {}): CancelBetInput {
  return {
    commandId: 'cancel-cmd',
    playerId: 'casino-a:alice',
    reference: 'b-1',
    bet: {
      betId: 'b-1',
      roundId,
      betType: 'player',
      spot: '1',
      status: 'accepted',
      answeredBetId: 'b-1',
      commandId: 'bet-cmd',
    },
    ...over,
  };
}

describe('the table: a platform cancels its bet (CancelBet)', () => {
  it('writes the bet cancelled (returned = deduction, net 0) and a private BetCancelled, no BetsSettled', () => {
    const { t, roundId } = withBet();
    const out = t.step({ type: 'cancel-bet', cancel: cancel(roundId) });
    expect(out.rejection).toBeUndefined();
    expect(out.reply).toEqual({ betId: 'b-1', roundId, cancelled: true });
    expect(out.writes.settlements).toEqual([
      expect.objectContaining({ betId: 'b-1', outcome: 'cancelled', net: 0, roundId }),
    ]);
    const [settlement] = out.writes.settlements;
    expect(settlement.returned).toBe(settlement.stake);
    expect(out.writes.events.map((e) => e.type)).toEqual(['BetCancelled']);
    // Named for its platform's topic: bare playerId beside the platformId.
    expect(out.writes.events[0].payload).toMatchObject({
      betId: 'b-1',
      betCommandId: 'bet-cmd',
      playerId: 'alice',
      platformId: 'casino-a',
    });
    // The round ends without it: voided now, nothing is refunded.
    t.step({ type: 'void', by: 'sup', reason: 'test' });
    expect(t.outcomes.flatMap((o) => o.writes.settlements).map((s) => s.outcome)).toEqual([
      'cancelled',
    ]);
  });

  it("refuses a bet the platform's player does not hold (unknown-bet) before anything else", () => {
    const { t, roundId } = withBet();
    t.step({ type: 'close-betting', by: 'dealer' });
    const out = t.step({ type: 'cancel-bet', cancel: cancel(roundId, { bet: null }) });
    expect(out.rejection?.code).toBe('unknown-bet');
    expect(out.writes.events).toEqual([]);
  });

  it('refuses after betting closed (the bet stands), and a bet of an earlier round', () => {
    const { t, roundId } = withBet();
    t.step({ type: 'close-betting', by: 'dealer' });
    expect(t.step({ type: 'cancel-bet', cancel: cancel(roundId) }).rejection?.code).toBe(
      'betting-closed',
    );
    const old = cancel('00000000-0000-0000-0000-000000000000');
    expect(t.step({ type: 'cancel-bet', cancel: old }).rejection?.code).toBe('betting-closed');
  });

  it('answers bet-already-cancelled for a bet stored as cancelled, or cancelled in this round', () => {
    const { t, roundId } = withBet();
    const stored = cancel(roundId);
    stored.bet = { ...stored.bet!, status: 'cancelled' };
    expect(t.step({ type: 'cancel-bet', cancel: stored }).rejection?.code).toBe(
      'bet-already-cancelled',
    );
    t.step({ type: 'cancel-bet', cancel: cancel(roundId) });
    expect(t.step({ type: 'cancel-bet', cancel: cancel(roundId) }).rejection?.code).toBe(
      'bet-already-cancelled',
    );
  });

  it('refuses while the table is paused', () => {
    const { t, roundId } = withBet();
    t.step({ type: 'pause', by: 'sup', reason: 'check' });
    expect(t.step({ type: 'cancel-bet', cancel: cancel(roundId) }).rejection?.code).toBe(
      'table-paused',
    );
  });
});

describe('the table: cancellations among a batch of commands', () => {
  it('steps a leading cancellation alone, so the bets behind it keep their own step', () => {
    const { t, roundId } = withBet();
    const bet = (n: number) => ({
      type: 'bet' as const,
      bet: { betId: `b-${n}`, playerId: `p${n}`, betType: 'player', spot: '2', amount: 100 },
    });
    const ctx = { now: t.now, newId: () => 'id' };
    const step = t.machine.stepCommands(
      t.state,
      [{ type: 'cancel-bet', cancel: cancel(roundId) }, bet(2), bet(3)],
      ctx,
    );
    expect(step.results).toEqual([
      { accepted: true, reply: { betId: 'b-1', roundId, cancelled: true } },
    ]);
    const rest = t.machine.stepCommands(step.outcome.state, [bet(2), bet(3)], ctx);
    expect(rest.results.map((r) => r.accepted)).toEqual([true, true]);
  });
});
