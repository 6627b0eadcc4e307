import { shoeReady, Table } from './pok-deng-table.testing';
import { roundOf } from './table-machine';

/**
 * A supervisor's void or correction names the round it was decided on. A dialog left open while
 * that round ended must not void or change the next round, which nobody looked at.
 */
describe('TableMachine: a void or correction meant for a round that has ended', () => {
  const ROUND = ['2D', 'TC', '6C', '5D', '5H', '5S', '6S', 'TH', '7S', '5C', '6H', '6D', '8S'];

  /** Round 1 played to its end, round 2 started with its burn and two face-down cards. */
  function nextRoundDealing(): { t: Table; ended: string; current: string } {
    const t = shoeReady();
    const ended = roundOf(t.state)!.id;
    for (const c of ROUND) t.read(c);
    t.fireDueTimers(); // betting closes, hands revealed, settled
    t.fireDueTimers(); // the next round starts
    const current = roundOf(t.state)!.id;
    for (const c of ['3D', '4C', '9H']) expect(t.read(c).rejection).toBeUndefined();
    return { t, ended, current };
  }

  it('refuses the void (round-changed) and leaves the round in play alone', () => {
    const { t, ended, current } = nextRoundDealing();
    expect(current).not.toBe(ended);
    const stale = t.step({ type: 'void', by: 'sup', reason: 'meant round 1', roundId: ended });
    expect(stale.rejection?.code).toBe('round-changed');
    expect(stale.writes.roundStatus).toBeUndefined();
    expect(roundOf(t.state)?.id).toBe(current);
    const meant = t.step({ type: 'void', by: 'sup', reason: 'this one', roundId: current });
    expect(meant.rejection).toBeUndefined();
    expect(meant.writes.roundStatus).toMatchObject({ id: current, status: 'voided' });
  });

  it('refuses a requested void (second approval) for an ended round', () => {
    const { t, ended } = nextRoundDealing();
    const stale = t.step({
      type: 'request-void',
      requestId: '7',
      by: 'sup',
      reason: 'meant round 1',
      roundId: ended,
    });
    expect(stale.rejection?.code).toBe('round-changed');
    expect(roundOf(t.state)?.voidRequests).toEqual([]);
  });

  it('refuses the correction (round-changed): the next round keeps the card it read', () => {
    const { t, ended, current } = nextRoundDealing();
    const before = t.state.faceDownCards['player-1/1'];
    const stale = t.step({
      type: 'correct-card',
      by: 'sup',
      slot: 'player-1/1',
      card: 'AS',
      reason: 'meant round 1',
      roundId: ended,
    });
    expect(stale.rejection?.code).toBe('round-changed');
    expect(stale.writes.corrections).toEqual([]);
    expect(t.state.faceDownCards['player-1/1']).toBe(before);
    const meant = t.step({
      type: 'correct-card',
      by: 'sup',
      slot: 'player-1/1',
      card: 'AS',
      reason: 'mis-scan',
      roundId: current,
    });
    expect(meant.rejection).toBeUndefined();
    expect(t.state.faceDownCards['player-1/1']).toBe('AS');
  });

  it('still takes a void without a round id (API clients that name none)', () => {
    const { t } = nextRoundDealing();
    expect(t.step({ type: 'void', by: 'sup', reason: 'no id' }).rejection).toBeUndefined();
  });
});
