import { studioFramedV1Frame } from '@studio/scanner-protocol';
import { createServer, Server, Socket } from 'node:net';
import { Pool } from 'pg';
import { ServiceProcess, spawnService } from '../support/service-process';
import { waitFor, writeTablesFile } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(400_000);

/** Long enough that a takeover seen well before it cannot have come from the lease expiring. */
const TTL_MS = 60_000;
const TABLE = 'lively-pokdeng';
const CARDS = ['AS', '7H', 'KD', '2C', '9S', 'QH', '4D', '8C', 'JS', '3H', '6D', 'TC', '5S'];

/**
 * A serial device server in raw TCP mode that keeps nothing for a client that is not there: a
 * frame sent while no instance is connected is gone, as a card scanned while no instance drove
 * the table would be. The test numbers the frames as a framed reader does.
 */
class DeviceServer {
  private socket?: Socket;
  private server!: Server;
  connections = 0;
  seq = 0;
  port = 0;
  /** Off: a connecting reader is hung up on at once (the device is out of its reach). */
  accepting = true;

  async listen(): Promise<void> {
    this.server = createServer((socket) => {
      if (!this.accepting) {
        socket.destroy();
        return;
      }
      this.connections += 1;
      this.socket = socket;
      socket.on('error', () => undefined);
      socket.on('close', () => {
        if (this.socket === socket) this.socket = undefined;
      });
      socket.on('data', () => undefined);
    });
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    this.port = (this.server.address() as { port: number }).port;
  }

  get connected(): boolean {
    return this.socket !== undefined;
  }

  /** The next numbered card frame; false when nobody was connected to read it. */
  card(code: string): boolean {
    this.seq += 1;
    const frame = studioFramedV1Frame(this.seq, `C:${code}`);
    if (!this.socket) return false;
    this.socket.write(frame);
    return true;
  }

  async close(): Promise<void> {
    this.socket?.destroy();
    await new Promise((ok) => this.server.close(ok));
  }
}

interface View {
  tableId: string;
  driven: boolean;
  round: unknown;
  expectedCard: unknown;
  paused: { reason: string; by: string } | null;
}

/**
 * Liveness by database session: an instance SIGKILLed loses its session lock at once and a
 * survivor takes its table long before the 60 s lease TTL. A table taken mid-round continues by
 * itself when its reader's next frame continues the stored sequence, and pauses with the missing
 * frames in its reason when frames were sent while no instance drove it.
 */
describe('failover by database session, judged by frame numbers', () => {
  let db: TestDatabase;
  let client: Pool;
  const device = new DeviceServer();
  const running: ServiceProcess[] = [];
  let tablesFile: string;

  beforeAll(async () => {
    db = await createTestDatabase('session_failover');
    client = db.pool();
    await device.listen();
    tablesFile = writeTablesFile([
      {
        id: TABLE,
        name: 'Lively Pok Deng',
        game: 'pok-deng',
        currency: 'THB',
        bettingWindowMs: 1_000,
        roundIntervalMs: 200,
        scanner: {
          wireFormat: 'studio-framed-v1',
          path: `tcp://127.0.0.1:${device.port}`,
          heartbeatTimeoutMs: null,
        },
      },
    ] as never);
  });

  afterAll(async () => {
    for (const s of running) s.killGroup('SIGKILL');
    await device.close();
    await db.drop();
  });

  async function start(instanceId: string) {
    const service = spawnService({
      DATABASE_URL: db.url,
      PORT: '0',
      LOG_LEVEL: 'info',
      STUDIO_INSTANCE_ID: instanceId,
      TABLE_LEASE_TTL_MS: String(TTL_MS),
      DEMO_USERS: 'true',
      TABLES_FILE: tablesFile,
    });
    running.push(service);
    const url = await service.listening(90_000);
    const login = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'supervisor', password: 'supervisor-demo' }),
    });
    const { token } = (await login.json()) as { token: string };
    const view = async (): Promise<View> => {
      const tables = (await (
        await fetch(`${url}/tables`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as View[];
      return tables.find((t) => t.tableId === TABLE)!;
    };
    const resume = async () =>
      fetch(`${url}/tables/${TABLE}/resume`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
    return { service, view, resume, instanceId };
  }
  type Instance = Awaited<ReturnType<typeof start>>;

  const lastStoredSeq = async () =>
    (
      await client.query<{ seq: number | null }>(
        `SELECT max(device_seq) AS seq FROM scanner_readings WHERE table_id = $1`,
        [TABLE],
      )
    ).rows[0].seq;

  /** Deals cards until the table is mid-round waiting for one, every card sent stored. */
  async function untilACardIsExpectedMidRound(owner: Instance): Promise<void> {
    let dealt = 0;
    await waitFor(
      'the table to wait for a card mid-round',
      async () => {
        const v = await owner.view();
        if (v.round && v.expectedCard && dealt > 0) return true;
        if (v.expectedCard && device.connected) {
          device.card(CARDS[device.seq % CARDS.length]);
          dealt += 1;
          await waitFor(
            'the card to be stored',
            async () => (await lastStoredSeq()) === device.seq,
          );
        }
        return false;
      },
      60_000,
      150,
    );
  }

  /** Kills the owner and returns the survivor once it drives the table, and how long it took. */
  async function killAndWaitForTakeover(dead: Instance, survivor: Instance) {
    const connections = device.connections;
    dead.service.killGroup('SIGKILL');
    await dead.service.exited();
    const killedAt = Date.now();
    await waitFor(
      'the survivor to drive the table',
      async () => (await survivor.view()).driven,
      45_000,
      100,
    );
    const tookMs = Date.now() - killedAt;
    await waitFor(
      'the survivor to connect to the reader',
      async () => device.connections > connections,
    );
    return tookMs;
  }

  it('takes over before the TTL, continues when no frame was missed and pauses on a gap', async () => {
    const a = await start('lively-a');
    await waitFor('instance A to drive the table', async () => (await a.view()).driven, 60_000);
    await waitFor('A to connect to the reader', async () => device.connected);
    const b = await start('lively-b');
    expect((await b.view()).driven).toBe(false);

    // 1. A dies mid-round; no frame is sent meanwhile: B continues the round by itself.
    await untilACardIsExpectedMidRound(a);
    const firstTakeoverMs = await killAndWaitForTakeover(a, b);
    expect(firstTakeoverMs).toBeLessThan(TTL_MS / 2);
    expect(b.service.stdout()).toMatch(/lively-a\\?" is gone \(its database session ended/);
    const before = device.seq;
    expect(device.card(CARDS[device.seq % CARDS.length])).toBe(true);
    await waitFor(
      'the next frame to be stored',
      async () => (await lastStoredSeq()) === before + 1,
    );
    await waitFor('the card to be applied', async () => {
      const [{ outcome }] = (
        await client.query<{ outcome: string }>(
          `SELECT outcome FROM scanner_readings WHERE table_id = $1 AND device_seq = $2`,
          [TABLE, before + 1],
        )
      ).rows;
      return outcome !== 'recorded' ? outcome : undefined;
    });
    const continued = await b.view();
    expect(continued.paused).toBeNull();

    // 2. A comes back (it keeps off: B holds the table), then B dies mid-round and three frames
    // are sent while nobody drives the table: A pauses it and says which frames.
    const a2 = await start('lively-a');
    await untilACardIsExpectedMidRound(b);
    const gapFrom = device.seq + 1;
    const connections = device.connections;
    // The frames of the gap must reach nobody: A may take the table and reconnect before this
    // test sees B's connection close (a busy machine), so the device takes no reader meanwhile.
    device.accepting = false;
    b.service.killGroup('SIGKILL');
    await b.service.exited();
    const killedAt = Date.now();
    await waitFor('the reader to see the dead connection close', async () => !device.connected);
    for (let i = 0; i < 3; i += 1) expect(device.card(CARDS[i])).toBe(false);
    device.accepting = true;
    await waitFor('A to drive the table', async () => (await a2.view()).driven, 45_000, 100);
    expect(Date.now() - killedAt).toBeLessThan(TTL_MS / 2);
    await waitFor('A to connect to the reader', async () => device.connections > connections);
    expect(device.card(CARDS[3])).toBe(true);
    const paused = await waitFor(
      'the table to pause',
      async () => (await a2.view()).paused ?? undefined,
    );
    expect(paused.by).toBe('system');
    expect(paused.reason).toContain(
      `Frames ${gapFrom}–${gapFrom + 2} were sent while no instance drove the table`,
    );
    process.stdout.write(
      `takeover after SIGKILL with a ${TTL_MS} ms TTL: ${firstTakeoverMs} ms; gap pause: "${paused.reason}"\n`,
    );

    // 3. The only instance is stopped gracefully mid-round (a restart, a deploy) and two frames
    // are sent before it is back: it hands the table over to its next start, which must not go
    // on as if nothing had been dealt meanwhile. Before, it did: the round continued, the next
    // card read filling the place of the first one lost.
    expect((await a2.resume()).status).toBe(200);
    await waitFor('the table to run again', async () => (await a2.view()).paused === null);
    await untilACardIsExpectedMidRound(a2);
    const restartGapFrom = device.seq + 1;
    device.accepting = false;
    a2.service.killGroup('SIGTERM');
    expect((await a2.service.exited()).code).toBe(0);
    expect(a2.service.stdout()).toMatch(/Released tables lively-pokdeng/);
    await waitFor('the reader to see the connection close', async () => !device.connected);
    for (let i = 0; i < 2; i += 1) expect(device.card(CARDS[i])).toBe(false);
    device.accepting = true;
    const a3 = await start('lively-a');
    await waitFor('the restarted A to drive the table', async () => (await a3.view()).driven);
    expect(a3.service.stdout()).toMatch(/handed over by its previous holder/);
    await waitFor('the restarted A to connect to the reader', async () => device.connected);
    expect(device.card(CARDS[2])).toBe(true);
    const pausedAfterRestart = await waitFor(
      'the table to pause after the restart',
      async () => (await a3.view()).paused ?? undefined,
    );
    expect(pausedAfterRestart.reason).toContain(
      `Frames ${restartGapFrom}–${restartGapFrom + 1} were sent while no instance drove the table`,
    );
  });
});
