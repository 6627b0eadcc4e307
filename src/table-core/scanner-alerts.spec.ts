import { CardCode, parseCardCode } from '@studio/cards';
import { Table } from './pok-deng-table.testing';

describe('scanner alerts', () => {
  it('tells the supervisor of scanner frames that never arrived, naming no card', () => {
    const t = new Table();
    t.step({ type: 'start' });
    t.read('9S'); // shown: burn 9
    t.now += 500;
    const skipped = t.step({
      type: 'reading',
      readingId: 'r-gap',
      reading: {
        kind: 'card',
        card: parseCardCode('AS')!,
        code: 'AS' as CardCode,
        raw: new Uint8Array(),
        receivedAt: t.now,
        sequence: 9,
        sequenceCheck: 'gap',
        missedFrames: 7,
      },
    });
    expect(skipped.writes.readingOutcome?.outcome).toBe('applied');
    const alert = skipped.writes.events.find((e) => e.type === 'SupervisorAlert');
    expect(alert?.visibility).toBe('public');
    expect(alert?.payload).toEqual({
      kind: 'scanner-gap',
      sequence: 9,
      missedFrames: 7,
      message:
        '7 scanner frames before frame 9 never arrived: check the cards on the table against the layout',
    });
    expect(JSON.stringify(alert?.payload)).not.toContain('AS');
  });
});
