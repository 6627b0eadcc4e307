import { Table } from './pok-deng-table.testing';

/** The declared phase along the main paths of a table's life. */
describe('the table phase', () => {
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

  it('goes awaiting-shoe, between-rounds (burning, then waiting), in-round, between-rounds', () => {
    const t = new Table();
    expect(t.state.phase).toEqual({ kind: 'awaiting-shoe' });
    t.step({ type: 'start' });
    expect(t.state.phase).toEqual({ kind: 'between-rounds' });
    expect(t.state.shoe?.state.phase).toBe('burning');
    for (const c of ['3C', 'KD', '4H', '9S']) t.read(c);
    expect(t.state.phase).toEqual({ kind: 'between-rounds' });
    t.fireDueTimers();
    expect(t.state.phase).toMatchObject({ kind: 'in-round', round: { roundNumber: 1 } });
    for (const c of ROUND_CARDS) t.read(c);
    t.fireDueTimers(); // betting closes, hands revealed, round settled
    expect(t.state.phase).toEqual({ kind: 'between-rounds' });
    expect(t.state.lastRoundId).toBeDefined();
  });

  it('wraps the phase a pause interrupted and restores it on resume', () => {
    const t = new Table();
    t.step({ type: 'start' });
    for (const c of ['3C', 'KD', '4H', '9S']) t.read(c);
    t.fireDueTimers();
    const inRound = t.state.phase;
    t.step({ type: 'pause', by: 'sup', reason: 'dealer change' });
    expect(t.state.phase).toMatchObject({
      kind: 'paused',
      pause: { kind: 'supervisor', by: 'sup', reason: 'dealer change' },
      resumes: inRound,
    });
    t.step({ type: 'resume', by: 'sup' });
    expect(t.state.phase).toEqual(inRound);
  });

  it('pauses between rounds too, and a void clears a pause inside a round', () => {
    const t = new Table();
    t.step({ type: 'start' });
    for (const c of ['3C', 'KD', '4H', '9S']) t.read(c);
    t.step({ type: 'pause', by: 'sup', reason: 'break' });
    expect(t.state.phase).toMatchObject({ kind: 'paused', resumes: { kind: 'between-rounds' } });
    t.step({ type: 'resume', by: 'sup' });
    t.fireDueTimers();
    t.step({ type: 'pause', by: 'sup', reason: 'card fell' });
    expect(t.step({ type: 'void', by: 'sup', reason: 'card fell' }).rejection).toBeUndefined();
    expect(t.state.phase).toEqual({ kind: 'between-rounds' });
  });
});
