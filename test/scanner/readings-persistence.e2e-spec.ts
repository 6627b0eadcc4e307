import { Logger } from '@nestjs/common';
import { SCANNER_STATUS_CHANGED } from '@studio/contracts';
import {
  LineDecoder,
  ScannerReading,
  StudioFramedV1Decoder,
  studioFramedV1Frame,
} from '@studio/scanner-protocol';
import { DataSource } from 'typeorm';
import { createStudioDataSource } from '../../src/database/data-source.factory';
import { Clock, RandomUuidGenerator, SystemClock } from '../../src/clock/clock';
import type { TableDefinition } from '../../src/config/tables-config';
import { ScannerHistoryRepository } from '../../src/history/scanner-history.repository';
import { ScannerReadingRecorder } from '../../src/history/reading-recorder';
import { ScannerService } from '../../src/scanner/scanner.service';
import { parseScannerSettings } from '../../src/scanner/scanner-settings';
import { createTestDatabase, insertStudioTables, TestDatabase } from '../support/test-database';
import { until } from './support/pty-reader';

jest.setTimeout(60_000);

/** Every byte the reader sent ends up in scanner_readings on the real PostgreSQL. */
describe('scanner readings in PostgreSQL', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const at = Date.UTC(2026, 10, 29, 12, 0, 0);

  beforeAll(async () => {
    Logger.overrideLogger(['error', 'warn']);
    db = await createTestDatabase('scanner');
    dataSource = createStudioDataSource({ url: db.url, poolSize: 4, connectTimeoutMs: 5000 });
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    await insertStudioTables(dataSource, ['t-framed', 't-line', 't-service']);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  async function rows(tableId: string) {
    return dataSource.query(
      `SELECT kind, raw, decoded, device_seq, received_at, outcome, port, wire_format
         FROM scanner_readings WHERE table_id = $1 ORDER BY id`,
      [tableId],
    ) as Promise<
      Array<{
        kind: string;
        raw: Buffer;
        decoded: Record<string, unknown>;
        device_seq: number | null;
        received_at: Date;
        outcome: string;
        port: string;
        wire_format: string;
      }>
    >;
  }

  it('stores garbage, frames and a cut-off frame with their bytes, decoding, sequence and time', async () => {
    const recorder = new ScannerReadingRecorder(new ScannerHistoryRepository(dataSource, ''));
    const decoder = new StudioFramedV1Decoder();
    const input = Buffer.concat([
      Buffer.from([0xde, 0xad]),
      studioFramedV1Frame(41, 'C:AS'),
      studioFramedV1Frame(42, 'U:NOREAD'),
      studioFramedV1Frame(42, 'U:NOREAD'),
      studioFramedV1Frame(45, 'H'),
      studioFramedV1Frame(46, 'C:XX'),
      studioFramedV1Frame(47, 'C:KH').subarray(0, 9),
    ]);
    const readings: ScannerReading[] = [...decoder.push(input, at), ...decoder.flush(at + 5)];
    for (const reading of readings) {
      recorder.record({
        tableId: 't-framed',
        port: '/dev/ttyUSB0',
        wireFormat: 'studio-framed-v1',
        reading,
        outcome: 'recorded',
      });
    }
    await recorder.flush();
    const stored = await rows('t-framed');
    expect(
      stored.map((r) => [
        r.kind,
        r.device_seq,
        r.decoded.code ?? r.decoded.reason ?? null,
        r.decoded.sequenceCheck ?? null,
      ]),
    ).toEqual([
      ['invalid', null, 'noise', null],
      ['card', 41, 'AS', 'first'],
      ['unrecognised', 42, 'NOREAD', 'next'],
      ['unrecognised', 42, 'NOREAD', 'repeat'],
      ['heartbeat', 45, null, 'gap'],
      ['invalid', 46, 'impossible-card-code', 'next'],
      ['invalid', null, 'truncated', null],
    ]);
    expect(Buffer.concat(stored.map((r) => r.raw)).equals(input)).toBe(true);
    expect(stored[1].decoded).toMatchObject({
      kind: 'card',
      code: 'AS',
      card: { rank: 'A', suit: 'S' },
    });
    expect(stored[4].decoded).toMatchObject({ missedFrames: 2 });
    expect(stored[0].received_at.getTime()).toBe(at);
    expect(stored.at(-1)!.received_at.getTime()).toBe(at + 5);
    expect(
      stored.every(
        (r) =>
          r.port === '/dev/ttyUSB0' &&
          r.wire_format === 'studio-framed-v1' &&
          r.outcome === 'recorded',
      ),
    ).toBe(true);
  });

  it('stores a 1 MB line without delimiter in bounded pieces, losing no byte', async () => {
    const recorder = new ScannerReadingRecorder(new ScannerHistoryRepository(dataSource, ''));
    const decoder = new LineDecoder();
    const huge = Buffer.alloc(1024 * 1024, 0x5a);
    const input = Buffer.concat([huge, Buffer.from('\n10H\n')]);
    for (let i = 0; i < input.length; i += 65536) {
      for (const reading of decoder.push(input.subarray(i, i + 65536), at)) {
        recorder.record({
          tableId: 't-line',
          port: '/dev/ttyS1',
          wireFormat: 'line',
          reading,
          outcome: 'recorded',
        });
      }
    }
    await recorder.flush();
    const stored = await rows('t-line');
    expect(recorder.stats).toEqual({ written: stored.length, queued: 0, dropped: 0 });
    expect(stored.at(-1)).toMatchObject({ kind: 'card', decoded: { code: 'TH' } });
    // The line is one failed read (`oversized`); the rest of it is noise, as after a frame.
    expect(stored[0]).toMatchObject({ kind: 'invalid', decoded: { reason: 'oversized' } });
    expect(
      stored.slice(1, -1).every((r) => r.kind === 'invalid' && r.decoded.reason === 'noise'),
    ).toBe(true);
    expect(Math.max(...stored.map((r) => r.raw.length))).toBeLessThanOrEqual(4096);
    expect(Buffer.concat(stored.map((r) => r.raw)).equals(input)).toBe(true);
  });

  it("runs a table's virtual shoe over a socat pty pair: readings stored, status in readiness and events", async () => {
    const clock: Clock = new SystemClock();
    const table = {
      id: 't-service',
      name: 'Service table',
      game: 'pok-deng',
      currency: 'THB',
      scanner: parseScannerSettings(
        {
          wireFormat: 'studio-framed-v1',
          virtualShoe: { seed: 11, intervalMs: 20, misreadRate: 0.2, heartbeatIntervalMs: 50 },
        },
        'test',
      ),
    } as TableDefinition;
    const history = new ScannerHistoryRepository(dataSource, '');
    // No table here: every reading is stored as it arrives.
    const recorder = new ScannerReadingRecorder(history);
    const service = new ScannerService([table], {
      recorder,
      statusEvents: history,
      clock,
      ids: new RandomUuidGenerator(),
    });
    await service.start();
    try {
      expect(service.states()).toMatchObject([
        { tableId: 't-service', status: 'connected', transport: 'pty', virtual: true },
      ]);
      await until(() => recorder.stats.written >= 30, '30 stored readings');
    } finally {
      await service.stop();
    }
    const stored = await rows('t-service');
    const kinds = new Set(stored.map((r) => r.kind));
    expect(kinds).toEqual(new Set(['card', 'unrecognised', 'heartbeat']));
    // The virtual shoe numbers every frame; nothing was lost between writer and database, and
    // the rows are in arrival order (rows() orders them by id).
    const seqs = stored.map((r) => r.device_seq);
    expect(seqs).toEqual(seqs.map((_s, i) => i + 1));
    expect(stored.every((r) => r.port.endsWith('t-service.reader'))).toBe(true);
    // The routine first connection and shutdown are not published; the service state says stopped.
    const events = await dataSource.query(`SELECT type FROM outbox WHERE table_id = 't-service'`);
    expect(events).toEqual([]);
    expect(service.states()[0].status).toBe('stopped');
  });

  it('publishes ScannerStatusChanged through the outbox when a configured reader is missing', async () => {
    const table = {
      id: 't-framed',
      name: 'Missing reader',
      game: 'pok-deng',
      currency: 'THB',
      scanner: parseScannerSettings(
        {
          wireFormat: 'studio-framed-v1',
          path: '/dev/does-not-exist',
          reconnectInitialDelayMs: 10,
        },
        'test',
      ),
    } as TableDefinition;
    const history = new ScannerHistoryRepository(dataSource, 'test.');
    const service = new ScannerService([table], {
      recorder: new ScannerReadingRecorder(history),
      statusEvents: history,
      clock: new SystemClock(),
      ids: new RandomUuidGenerator(),
    });
    await service.start();
    await until(() => service.states()[0].reconnectAttempts >= 2, 'two reconnect attempts');
    await service.stop();
    const events = await dataSource.query(
      `SELECT type, topic, seq, payload FROM outbox WHERE table_id = 't-framed' ORDER BY seq`,
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: SCANNER_STATUS_CHANGED,
      topic: 'test.studio.table-events.v1',
      payload: {
        tableId: 't-framed',
        port: '/dev/does-not-exist',
        status: 'disconnected',
        previousStatus: 'connecting',
        virtual: false,
      },
    });
    expect(events[0].payload.reason).toContain('cannot open /dev/does-not-exist');
  });
});
