import { DatabaseSnapshot } from './database-snapshot';

describe('DatabaseSnapshot', () => {
  const reading = (observed: number) => [
    {
      tableId: 't1',
      verdict: 'inside' as const,
      observed,
      expected: 0.98,
      low: 0.9,
      high: 1.1,
    },
  ];

  it('reads the hold figures again only once the refresh interval has passed', async () => {
    let now = 0;
    let reads = 0;
    const snapshot = new DatabaseSnapshot(
      {
        lag: async () => ({ pending: 0, oldestPendingAt: null, oldestPendingAgeMs: null }),
        inboxWaiting: async () => [],
        hold: async () => reading((reads += 1)),
      },
      () => now,
      1_500,
      2_000,
    );
    const observed = () => snapshot.snapshot.readings?.hold[0].observed;

    await snapshot.refresh();
    expect(observed()).toBe(1);
    now = 1_999;
    await snapshot.refresh();
    expect(observed()).toBe(1);
    now = 2_000;
    await snapshot.refresh();
    expect(observed()).toBe(2);
    expect(snapshot.snapshot.up).toBe(true);
  });

  it('marks the database down and keeps the last figures when a read fails', async () => {
    let fail = false;
    const snapshot = new DatabaseSnapshot(
      {
        lag: async () => {
          if (fail) throw new Error('gone');
          return { pending: 3, oldestPendingAt: null, oldestPendingAgeMs: null };
        },
        inboxWaiting: async () => [],
        hold: async () => reading(1),
      },
      () => 0,
    );
    await snapshot.refresh();
    fail = true;
    await snapshot.refresh();
    expect(snapshot.snapshot).toMatchObject({ up: false, lag: { pending: 3 } });
  });
});
