import { Logger } from '@nestjs/common';
import { shuffledShoe } from '@studio/virtual-shoe';
import { RandomUuidGenerator, SystemClock } from '../clock/clock';
import type { TableDefinition } from '../config/tables-config';
import type { ReadingRecord } from '../use-cases/common/tables.port';
import { scannersCheck } from './scanner-readiness';
import { ScannerService } from './scanner.service';
import { isNewsworthy } from './scanner-status';
import { parseScannerSettings } from './scanner-settings';
import { until } from '../../test/support/until';

describe('ScannerService without socat (serialport mock binding fallback)', () => {
  it('feeds the virtual shoe through the in-process mock port, says so in the log, and is ready', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    const recorded: ReadingRecord[] = [];
    const recorder = {
      record: (r: ReadingRecord) => recorded.push(r),
      flush: async () => undefined,
    };
    const applied: ReadingRecord[] = [];
    const table = {
      id: 'mock-1',
      name: 'Mock',
      game: 'infinite-blackjack',
      currency: 'EUR',
      scanner: parseScannerSettings(
        { wireFormat: 'studio-framed-v1', virtualShoe: { seed: 4, decks: 1, intervalMs: 5 } },
        'test',
      ),
    } as TableDefinition;
    const service = new ScannerService([table], {
      recorder,
      // Nothing newsworthy happens, so no event is written.
      statusEvents: { appendStatusChanged: () => Promise.reject(new Error('not expected')) },
      clock: new SystemClock(),
      ids: new RandomUuidGenerator(),
      // The readings a table applies go to it, as production's ApplyReading takes them.
      apply: (record) => applied.push(record),
      socatPath: null, // as if socat were not installed
    });
    const cards = () => applied.flatMap((r) => (r.reading.kind === 'card' ? [r.reading.code] : []));
    await service.start();
    try {
      expect(service.states()).toMatchObject([
        { tableId: 'mock-1', transport: 'mock', status: 'connected', port: '/virtual/mock-1' },
      ]);
      expect(warn.mock.calls.flat().join(' ')).toContain('socat is not installed');
      expect(await scannersCheck(service).check()).toMatchObject({
        status: 'ok',
        tables: { 'mock-1': { status: 'connected' } },
      });
      await until(() => cards().length >= 10);
    } finally {
      await service.stop();
      jest.restoreAllMocks();
    }
    // The cards reach the table in the shoe's order, none of them stored on the way.
    expect(cards().slice(0, 10)).toEqual(shuffledShoe(4, 1).slice(0, 10));
    expect(applied.every((r) => r.outcome === 'recorded' && r.tableId === 'mock-1')).toBe(true);
    // Heartbeats and status frames change nothing at a table: stored as they are.
    expect(
      recorded.every((r) => r.reading.kind === 'heartbeat' || r.reading.kind === 'status'),
    ).toBe(true);
  });

  it('reports not ready while a reader is disconnected, and disabled with no scanners', async () => {
    const fake = (states: unknown[]) => ({ states: () => states }) as unknown as ScannerService;
    expect(await scannersCheck(fake([])).check()).toMatchObject({ status: 'disabled' });
    expect(
      await scannersCheck(
        fake([{ tableId: 'a', status: 'disconnected', reason: 'port closed: unplugged' }]),
      ).check(),
    ).toMatchObject({ status: 'error', message: 'a disconnected: port closed: unplugged' });
  });

  it('publishes problems and recoveries, not the routine first connection or shutdown', () => {
    expect(isNewsworthy({ previousStatus: 'connecting', status: 'connected' })).toBe(false);
    expect(isNewsworthy({ previousStatus: 'connected', status: 'stopped' })).toBe(false);
    expect(isNewsworthy({ previousStatus: 'connecting', status: 'disconnected' })).toBe(true);
    expect(isNewsworthy({ previousStatus: 'connected', status: 'stale' })).toBe(true);
    expect(isNewsworthy({ previousStatus: 'disconnected', status: 'connected' })).toBe(true);
  });
});

describe('ScannerService.stop', () => {
  it('gives the readings queued during a database outage the share of the stop budget it is given', async () => {
    const flush = jest.fn(async () => undefined);
    const service = new ScannerService([], {
      recorder: { record: () => undefined, flush },
      statusEvents: { appendStatusChanged: () => Promise.resolve() },
      clock: new SystemClock(),
      ids: new RandomUuidGenerator(),
      flushLimitMs: 2_500,
    });
    await service.start();
    await service.stop();
    expect(flush).toHaveBeenCalledWith(2_500);
  });
});
