import { readingsFlushLimitMs, ScannerReadingRecorder } from './reading-recorder';

/** Readings recorded while the database is out are stored once it is back, in order. */
describe('ScannerReadingRecorder through an outage', () => {
  const record = (n: number) => ({ n }) as never;

  function store(failFor: number) {
    const rows: number[] = [];
    let failures = 0;
    return {
      rows,
      open: true,
      insertReadings: async (records: readonly unknown[]) => {
        const batch = records as Array<{ n: number }>;
        if (failures < failFor) {
          failures += 1;
          throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        }
        rows.push(...batch.map((r) => r.n));
        return batch.map((r) => String(r.n));
      },
    };
  }

  it('keeps retrying past ten failures and stores every reading in order', async () => {
    const s = store(25);
    const recorder = new ScannerReadingRecorder(s, {
      batchSize: 2,
      maxQueued: 100,
      retryDelayMs: 1,
    });
    const ids = await Promise.all([1, 2, 3, 4, 5].map((n) => recorder.record(record(n))));
    expect(ids).toEqual(['1', '2', '3', '4', '5']);
    expect(s.rows).toEqual([1, 2, 3, 4, 5]);
    expect(recorder.stats).toEqual({ written: 5, queued: 0, dropped: 0 });
  });

  it('gives up at a flush whose time ran out, so a stop during an outage ends', async () => {
    const s = store(Number.MAX_SAFE_INTEGER);
    const recorder = new ScannerReadingRecorder(s, {
      batchSize: 2,
      maxQueued: 100,
      retryDelayMs: 5,
    });
    const id = recorder.record(record(1));
    await recorder.flush(50);
    expect(await id).toBeNull();
    expect(recorder.stats).toMatchObject({ written: 0, dropped: 1 });
  });
});

describe('readingsFlushLimitMs', () => {
  it('is a quarter of the shutdown budget, 10 s at most, so a stop during an outage fits in it', () => {
    expect(readingsFlushLimitMs(10_000)).toBe(2_500);
    expect(readingsFlushLimitMs(1_000)).toBe(250);
    expect(readingsFlushLimitMs(120_000)).toBe(10_000);
  });
});
