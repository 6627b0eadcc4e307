import { Logger } from '@nestjs/common';
import { SCANNER_STATUS_CHANGED } from '@studio/contracts';
import { StudioFramedV1Encoder, studioFramedV1Frame } from '@studio/scanner-protocol';
import { shuffledShoe, ShoeWriter, TcpShoeServer, VirtualShoe } from '@studio/virtual-shoe';
import { createServer, Server, Socket } from 'node:net';
import { DataSource } from 'typeorm';
import { createStudioDataSource } from '../../src/database/data-source.factory';
import { RandomUuidGenerator, SystemClock } from '../../src/clock/clock';
import type { TableDefinition } from '../../src/config/tables-config';
import { ScannerReadingRecorder } from '../../src/history/reading-recorder';
import { ScannerHistoryRepository } from '../../src/history/scanner-history.repository';
import { ScannerService } from '../../src/scanner/scanner.service';
import { parseScannerSettings } from '../../src/scanner/scanner-settings';
import { createTestDatabase, insertStudioTables, TestDatabase } from '../support/test-database';
import { until } from './support/pty-reader';

jest.setTimeout(60_000);

interface StoredReading {
  kind: string;
  raw: Buffer;
  code: string | null;
  sequence_check: string | null;
  device_seq: number | null;
  port: string;
}

/**
 * Scanners on serial device servers in raw TCP mode, over real loopback sockets into the real
 * PostgreSQL: the same decoding, raw storage, reconnection and stale rule as a serial reader.
 */
describe('TCP scanners (serial device server in raw TCP mode)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const services: ScannerService[] = [];
  const recorders = new Map<ScannerService, ScannerReadingRecorder>();
  const closers: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    Logger.overrideLogger(['error']);
    db = await createTestDatabase('tcpscanner');
    dataSource = createStudioDataSource({ url: db.url, poolSize: 4, connectTimeoutMs: 5000 });
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    await insertStudioTables(dataSource, ['t-tcp', 't-silent', 't-host', 't-remote']);
  });

  afterEach(async () => {
    for (const service of services.splice(0)) await service.stop();
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  function serviceFor(id: string, scanner: Record<string, unknown>): ScannerService {
    const table = {
      id,
      name: id,
      game: 'pok-deng',
      currency: 'THB',
      scanner: parseScannerSettings({ wireFormat: 'studio-framed-v1', ...scanner }, 'test'),
    } as TableDefinition;
    const history = new ScannerHistoryRepository(dataSource, 'test.');
    // No table here: every reading is stored as it arrives.
    const recorder = new ScannerReadingRecorder(history);
    const service = new ScannerService([table], {
      recorder,
      statusEvents: history,
      clock: new SystemClock(),
      ids: new RandomUuidGenerator(),
      socatPath: null,
    });
    services.push(service);
    recorders.set(service, recorder);
    return service;
  }

  /** How many readings a service's recorder has stored. */
  const storedBy = (service: ScannerService) => recorders.get(service)!.stats.written;

  async function stored(tableId: string): Promise<StoredReading[]> {
    return dataSource.query(
      `SELECT kind, raw, decoded->>'code' AS code, decoded->>'sequenceCheck' AS sequence_check,
              device_seq, port
         FROM scanner_readings WHERE table_id = $1 ORDER BY id`,
      [tableId],
    );
  }

  async function statusEvents(tableId: string): Promise<Array<Record<string, unknown>>> {
    const rows: Array<{ type: string; payload: Record<string, unknown> }> = await dataSource.query(
      `SELECT type, payload FROM outbox WHERE table_id = $1 ORDER BY seq`,
      [tableId],
    );
    expect(rows.every((r) => r.type === SCANNER_STATUS_CHANGED)).toBe(true);
    return rows.map((r) => r.payload);
  }

  const cards = (rows: StoredReading[]) => rows.filter((r) => r.kind === 'card');

  it('reads a shoe over TCP, stores raw bytes, survives a dropped connection without losing or repeating a frame, and goes stale when silent', async () => {
    const server = await TcpShoeServer.listen({ port: 0 });
    closers.push(() => server.close());
    const shoe = new VirtualShoe({ seed: 15, decks: 1, encoder: new StudioFramedV1Encoder() });
    const written: Buffer[] = [];
    const writer = new ShoeWriter({
      shoe,
      sink: server,
      intervalMs: 0,
      heartbeatIntervalMs: 0,
      onEmission: (e) => written.push(Buffer.from(e.bytes)),
    });
    closers.push(() => writer.stop());
    const path = `tcp://127.0.0.1:${server.port}`;
    const service = serviceFor('t-tcp', {
      path,
      heartbeatTimeoutMs: 400,
      reconnectInitialDelayMs: 300,
    });
    await service.start();
    await until(() => service.states()[0].status === 'connected', 'connected');
    expect(service.states()).toMatchObject([
      { tableId: 't-tcp', transport: 'tcp', virtual: false, port: path },
    ]);
    await until(() => server.clientCount === 1, 'the adapter connected to the shoe server');

    for (let i = 0; i < 10; i += 1) await writer.dealNext();
    await until(() => storedBy(service) >= 10, 'the first 10 readings stored');

    server.dropClients(); // the device server drops the connection
    await until(() => service.states()[0].status === 'disconnected', 'disconnected');
    // Dealt while the table is cut off: the device server holds them for the next connection.
    for (let i = 10; i < 15; i += 1) await writer.dealNext();
    await until(() => service.states()[0].status === 'connected', 'reconnected', 5000);
    for (let i = 15; i < 30; i += 1) await writer.dealNext();
    await until(() => storedBy(service) >= 30, '30 readings stored');

    // Silence past the heartbeat timeout: stale, exactly as a serial reader; a heartbeat revives.
    await until(() => service.states()[0].status === 'stale', 'stale', 3000);
    const heartbeat = shoe.heartbeat()[0].bytes;
    await server.write(heartbeat);
    await until(() => service.states()[0].status === 'connected', 'connected after the heartbeat');
    await until(() => storedBy(service) >= 31, 'the heartbeat stored');

    const rows = await stored('t-tcp');
    expect(
      Buffer.concat(rows.map((r) => r.raw)).equals(Buffer.concat([...written, heartbeat])),
    ).toBe(true);
    expect(cards(rows).map((r) => r.code)).toEqual(shuffledShoe(15, 1).slice(0, 30));
    // Numbered 1..31 with no gap and no repeat: nothing lost, nothing applied twice.
    expect(rows.map((r) => r.device_seq)).toEqual(rows.map((_r, i) => i + 1));
    expect(rows.filter((r) => r.sequence_check !== 'next' && r.sequence_check !== 'first')).toEqual(
      [],
    );
    expect(rows.every((r) => r.port === path)).toBe(true);

    await service.stop();
    const events = await statusEvents('t-tcp');
    expect(events.map((e) => `${e.previousStatus}->${e.status}`)).toEqual([
      'connected->disconnected',
      'disconnected->connected',
      'connected->stale',
      'stale->connected',
    ]);
    expect(events[0]).toMatchObject({ port: path, virtual: false });
    expect(events[0].reason).toMatch(/closed|reset/);
    expect(events[2].reason).toMatch(/nothing but noise or silence for \d+ ms \(timeout 400 ms\)/);
  });

  it('keeps retrying a device server that refuses, then reads a tiny raw-TCP server once it listens', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));

    const service = serviceFor('t-silent', {
      path: `tcp://127.0.0.1:${port}`,
      reconnectInitialDelayMs: 20,
      reconnectMaxDelayMs: 100,
    });
    await service.start();
    await until(() => service.states()[0].reconnectAttempts >= 3, 'three refused attempts');
    expect(service.states()[0]).toMatchObject({ status: 'disconnected' });
    expect(service.states()[0].reason).toMatch(
      /cannot open tcp:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/,
    );

    const sockets: Socket[] = [];
    const server: Server = createServer((socket) => {
      sockets.push(socket);
      socket.write(Buffer.concat([studioFramedV1Frame(1, 'C:AS'), studioFramedV1Frame(2, 'C:KD')]));
    });
    closers.push(
      () =>
        new Promise((resolve) => {
          sockets.forEach((s) => s.destroy());
          server.close(resolve);
        }),
    );
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    await until(() => storedBy(service) >= 2, 'two readings stored', 5000);
    expect(cards(await stored('t-silent')).map((r) => r.code)).toEqual(['AS', 'KD']);
    expect(service.states()[0]).toMatchObject({ status: 'connected', reconnectAttempts: 0 });
  });

  it('hosts a virtual shoe as a TCP device server that another instance reads as tcp://host:port', async () => {
    const host = serviceFor('t-host', {
      virtualShoe: { seed: 21, decks: 1, misreadRate: 0, heartbeatIntervalMs: 600_000, tcpPort: 0 },
    });
    await host.start();
    const [hosted] = host.states();
    expect(hosted).toMatchObject({ transport: 'tcp', virtual: true, status: 'connected' });
    expect(hosted.port).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);

    // Another instance's table points its scanner at the same shoe.
    const remote = serviceFor('t-remote', { path: hosted.port, reconnectInitialDelayMs: 20 });
    await remote.start();
    await until(() => remote.states()[0].status === 'connected', 'the remote table connected');
    expect(remote.states()[0]).toMatchObject({ transport: 'tcp', virtual: false });
    await new Promise((r) => setTimeout(r, 50)); // both clients registered by the server

    for (let i = 0; i < 12; i += 1) await host.dealVirtualCard('t-host');
    await until(
      () => storedBy(host) >= 12 && storedBy(remote) >= 12,
      'both instances stored 12 readings',
    );
    const here = await stored('t-host');
    const there = await stored('t-remote');
    expect(cards(there).map((r) => r.code)).toEqual(shuffledShoe(21, 1).slice(0, 12));
    expect(
      Buffer.concat(there.map((r) => r.raw)).equals(Buffer.concat(here.map((r) => r.raw))),
    ).toBe(true);
  });
});
