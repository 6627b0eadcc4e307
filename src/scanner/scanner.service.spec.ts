import { Logger } from '@nestjs/common';
import type { ScannerReading } from '@studio/scanner-protocol';
import type { ScannerHistoryRepository } from '../history/scanner-history.repository';
import { shuffledShoe } from '@studio/virtual-shoe';
import { RandomUuidGenerator, SystemClock } from '../clock/clock';
import type { TableDefinition } from '../config/tables-config';
import type { ReadingRecord, ScannerReadingRecorder } from './reading-recorder';
import { scannersCheck } from './scanner-readiness';
import { isNewsworthy, ScannerService } from './scanner.service';
import { parseScannerSettings } from './scanner-settings';
import { until } from '../../test/support/until';

describe('ScannerService without socat (serialport mock binding fallback)', () => {
  it('feeds the virtual shoe through the in-process mock port, says so in the log, and is ready', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    const recorded: ReadingRecord[] = [];
    const recorder = {
      record: async (r: ReadingRecord) => String(recorded.push(r)),
      flush: async () => undefined,
    };
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
    const service = new ScannerService(
      [table],
      {} as ScannerHistoryRepository, // nothing newsworthy happens, so no event is written
      new SystemClock(),
      new RandomUuidGenerator(),
      recorder as unknown as ScannerReadingRecorder,
      null, // as if socat were not installed
    );
    const cards: string[] = [];
    const ids: Array<string | null> = [];
    service.onReading((_t, r: ScannerReading, readingId) => {
      ids.push(readingId);
      if (r.kind === 'card') cards.push(r.code);
    });
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
      await until(() => cards.length >= 10);
    } finally {
      await service.stop();
      jest.restoreAllMocks();
    }
    expect(cards.slice(0, 10)).toEqual(shuffledShoe(4, 1).slice(0, 10));
    expect(recorded.filter((r) => r.reading.kind === 'card').length).toBeGreaterThanOrEqual(10);
    expect(recorded.every((r) => r.outcome === 'recorded' && r.tableId === 'mock-1')).toBe(true);
    // Listeners hear of each reading after it is stored, in order, with its row id.
    expect(ids.slice(0, 5)).toEqual(['1', '2', '3', '4', '5']);
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
