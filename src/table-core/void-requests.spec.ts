import { shoeReady, Table } from './pok-deng-table.testing';
import { roundOf } from './table-machine';

/** A void that needs a second supervisor, kept in the table state with its round. */
describe('void requests in the table', () => {
  const ROUND_CARDS = [
    '2D',
    'TC',
    '6C',
    '5D',
    '5H',
    '5S',
    '6S',
    'TH',
    '7S',
    '5C',
    '6H',
    '6D',
    '8S',
  ];

  function requested(): Table {
    const t = shoeReady();
    t.step({
      type: 'bet',
      bet: { betId: 'b1', playerId: 'p1', betType: 'player', spot: '1', amount: 100 },
    });
    const o = t.step({
      type: 'request-void',
      requestId: '41',
      by: 'alice',
      reason: 'exposed card',
    });
    expect(o.rejection).toBeUndefined();
    return t;
  }

  it('records a request as pending with the round, with a restricted event and a pending row', () => {
    const t = requested();
    const o = t.outcomes.at(-1)!;
    const round = roundOf(t.state)!;
    expect(o.reply).toEqual({ pendingApproval: true, requestId: '41', roundId: round.id });
    expect(round.voidRequests).toEqual([
      expect.objectContaining({ requestId: '41', by: 'alice', reason: 'exposed card' }),
    ]);
    expect(o.writes.events).toEqual([
      expect.objectContaining({ type: 'VoidRequested', visibility: 'restricted', actor: 'alice' }),
    ]);
    expect(o.writes.supervisorAction).toMatchObject({
      action: 'void',
      actor: 'alice',
      roundId: round.id,
      pendingRequestId: '41',
    });
    expect(o.writes.roundStatus).toBeUndefined(); // nothing voided yet
  });

  it('refuses approval by the supervisor who asked, and voids on approval by another', () => {
    const t = requested();
    const roundId = roundOf(t.state)!.id;
    const self = t.step({ type: 'approve-void', requestId: '41', by: 'alice' });
    expect(self.rejection).toEqual({
      code: 'second-supervisor-required',
      message: 'A different supervisor must approve this void',
    });
    expect(roundOf(t.state)?.voidRequests).toHaveLength(1);
    const approved = t.step({ type: 'approve-void', requestId: '41', by: 'bob' });
    expect(approved.rejection).toBeUndefined();
    expect(approved.writes.supervisorAction).toMatchObject({
      action: 'void',
      actor: 'alice',
      reason: 'exposed card',
      approval: { requestId: '41', approvedBy: 'bob' },
    });
    expect(approved.writes.roundStatus).toMatchObject({ id: roundId, status: 'voided' });
    expect(approved.writes.settlements.map((s) => [s.betId, s.outcome])).toEqual([
      ['b1', 'void-refund'],
    ]);
    const events = approved.writes.events;
    expect(events.find((e) => e.type === 'VoidApproved')).toMatchObject({
      visibility: 'restricted',
      actor: 'bob',
    });
    expect(events.find((e) => e.type === 'RoundVoided')?.payload).toEqual({
      reason: 'exposed card',
      approvedBy: 'bob',
    });
    expect(approved.writes.lapsedVoidRequests).toBeUndefined(); // applied, not lapsed
    expect(t.state.phase).toEqual({ kind: 'between-rounds' });
  });

  it('lapses a pending request in the transition that ends its round, and refuses it after', () => {
    const t = requested();
    const roundId = roundOf(t.state)!.id;
    for (const c of ROUND_CARDS) t.read(c);
    t.fireDueTimers(); // betting closes, the round is settled and ends
    const ending = t.outcomes.find((o) => o.writes.roundStatus?.ended)!;
    expect(ending.writes.roundStatus).toMatchObject({ id: roundId, status: 'completed' });
    expect(ending.writes.lapsedVoidRequests).toEqual({ roundId, requestIds: ['41'] });
    expect(ending.writes.events.find((e) => e.type === 'VoidRequestLapsed')).toMatchObject({
      visibility: 'restricted',
      roundId,
      payload: { requestId: '41', requestedBy: 'alice' },
    });
    const late = t.step({ type: 'approve-void', requestId: '41', by: 'bob' });
    expect(late.rejection?.code).toBe('request-not-pending');
    expect(late.writes.roundStatus).toBeUndefined();
  });

  it('refuses a request without a round or a reason', () => {
    const t = new Table();
    t.step({ type: 'start' });
    expect(
      t.step({ type: 'request-void', requestId: '1', by: 'alice', reason: 'x' }).rejection?.code,
    ).toBe('no-round');
    const r = shoeReady();
    expect(
      r.step({ type: 'request-void', requestId: '1', by: 'alice', reason: ' ' }).rejection?.code,
    ).toBe('reason-required');
  });
});
