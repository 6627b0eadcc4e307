import { ThrottlerStorageService } from '@nestjs/throttler';
import fc from 'fast-check';
import { Clock } from '../clock/clock';
import { PlatformRateStorage } from './platform-rate-storage';

class FakeClock extends Clock {
  constructor(public ms = Date.UTC(2026, 11, 4, 12)) {
    super();
  }

  now(): Date {
    return new Date(this.ms);
  }
}

describe('PlatformRateStorage', () => {
  it('allows `limit` hits a window, blocks the next for blockDuration, then counts again', async () => {
    const clock = new FakeClock();
    const storage = new PlatformRateStorage(clock);
    const hit = () => storage.increment('platform:a', 1_000, 3, 1_000, 'platform');
    for (let i = 1; i <= 3; i += 1) {
      expect(await hit()).toMatchObject({ totalHits: i, isBlocked: false });
    }
    expect(await hit()).toMatchObject({ isBlocked: true, timeToBlockExpire: 1 });
    clock.ms += 999;
    expect((await hit()).isBlocked).toBe(true);
    clock.ms += 1;
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('counts each platform on its own', async () => {
    const storage = new PlatformRateStorage(new FakeClock());
    await storage.increment('platform:a', 1_000, 1, 1_000, 'platform');
    expect((await storage.increment('platform:a', 1_000, 1, 1_000, 'platform')).isBlocked).toBe(
      true,
    );
    expect((await storage.increment('platform:b', 1_000, 1, 1_000, 'platform')).isBlocked).toBe(
      false,
    );
  });

  it('drops hits as they leave the sliding window', async () => {
    const clock = new FakeClock();
    const storage = new PlatformRateStorage(clock);
    const hit = () => storage.increment('k', 1_000, 2, 5_000, 'platform');
    await hit();
    clock.ms += 600;
    await hit();
    clock.ms += 400; // the first hit is now a full window old
    expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: false });
  });

  it('answers as the library storage does, for any pace of requests', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 3 }).map((s) => s * 1_000),
        fc.array(fc.integer({ min: 0, max: 700 }), { minLength: 1, maxLength: 60 }),
        async (limit, ttl, gaps) => {
          const now = jest.spyOn(Date, 'now');
          try {
            const clock = new FakeClock();
            const ours = new PlatformRateStorage(clock);
            const theirs = new ThrottlerStorageService();
            for (const gap of gaps) {
              clock.ms += gap;
              now.mockReturnValue(clock.ms);
              const a = await ours.increment('k', ttl, limit, ttl, 'platform');
              const b = await theirs.increment('k', ttl, limit, ttl, 'platform');
              expect(a.isBlocked).toBe(b.isBlocked);
              if (a.isBlocked) expect(a.timeToBlockExpire).toBe(b.timeToBlockExpire);
              else expect(a.totalHits).toBe(b.totalHits);
            }
            theirs.onApplicationShutdown();
          } finally {
            now.mockRestore();
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('stays constant-cost with a large budget (the library storage overflowed its stack)', async () => {
    const clock = new FakeClock();
    const storage = new PlatformRateStorage(clock);
    let last;
    for (let i = 0; i < 200_000; i += 1) {
      clock.ms += i % 10 === 0 ? 1 : 0;
      last = await storage.increment('k', 3_600_000, 1_000_000, 3_600_000, 'platform');
    }
    expect(last).toMatchObject({ totalHits: 200_000, isBlocked: false });
  });
});
