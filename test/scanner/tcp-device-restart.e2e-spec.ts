import { studioFramedV1Frame } from '@studio/scanner-protocol';
import { createServer, Server, Socket } from 'node:net';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { ScannerService } from '../../src/scanner/scanner.service';
import { startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

/**
 * A serial device server (raw TCP) that restarts: it drops the connection, comes back on the same
 * port and numbers its frames from 1 again. As docs/scanner-protocol.md says, a new connection
 * starts afresh with `first`: the card is applied, nothing is held and no supervisor is alerted.
 */
describe('a TCP device server that restarts its numbering (real socket, real service)', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let server: Server | undefined;
  let port: number;
  const sockets: Socket[] = [];

  /** The device server: listens on `port` (0 the first time) and keeps its clients. */
  async function deviceServer(listenOn: number): Promise<Server> {
    const created = createServer((socket) => {
      socket.on('error', () => undefined);
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => created.listen(listenOn, '127.0.0.1', resolve));
    port = (created.address() as { port: number }).port;
    return created;
  }

  async function restartDeviceServer(): Promise<void> {
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise((resolve) => server!.close(resolve));
    server = await deviceServer(port);
  }

  beforeAll(async () => {
    server = await deviceServer(0);
    db = await createTestDatabase('tcp_device_restart');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: [
        {
          id: 'pd-restart',
          name: 'Pok Deng Device Restart',
          game: 'pok-deng',
          currency: 'THB',
          scanner: {
            wireFormat: 'studio-framed-v1',
            path: `tcp://127.0.0.1:${port}`,
            reconnectInitialDelayMs: 50,
            reconnectMaxDelayMs: 200,
          },
        } as unknown as TableDefinition,
      ],
    });
  });

  afterAll(async () => {
    await studio?.close();
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await db?.drop();
  });

  const readings = () =>
    studio.database.dataSource.query(
      `SELECT device_seq, decoded->>'code' AS code, decoded->>'sequenceCheck' AS sequence_check,
              outcome
         FROM scanner_readings WHERE table_id = 'pd-restart' AND kind = 'card' ORDER BY id`,
    ) as Promise<
      Array<{ device_seq: number; code: string; sequence_check: string; outcome: string }>
    >;
  const alerts = () =>
    studio.database.dataSource.query(
      `SELECT payload FROM outbox WHERE table_id = 'pd-restart' AND type = 'SupervisorAlert'`,
    ) as Promise<Array<{ payload: Record<string, unknown> }>>;

  const connected = () =>
    waitFor('the reader to connect', async () =>
      studio.app
        .get(ScannerService)
        .states()
        .some((s) => s.status === 'connected' && sockets.length === 1),
    );

  async function send(sequence: number, code: string, expectedCount: number) {
    sockets[0].write(studioFramedV1Frame(sequence, `C:${code}`));
    return waitFor(`reading ${sequence} ${code} processed`, async () => {
      const rows = await readings();
      return rows.length === expectedCount && rows.at(-1)!.outcome !== 'recorded' && rows;
    });
  }

  it('starts afresh with `first` on the new connection: applied, not held, no alert', async () => {
    await connected();
    let rows = await send(500, '3C', 1);
    expect(rows[0]).toMatchObject({ sequence_check: 'first', outcome: 'applied' });

    await restartDeviceServer();
    await connected();
    rows = await send(1, '4H', 2);

    expect(rows[1]).toMatchObject({ device_seq: 1, sequence_check: 'first', outcome: 'applied' });
    expect(await alerts()).toEqual([]);
    const cards = await studio.database.dataSource.query(
      `SELECT card FROM round_cards WHERE table_id = 'pd-restart' ORDER BY id`,
    );
    expect(cards.map((c: { card: string }) => c.card)).toEqual(['3C', '4H']);
  });
});
