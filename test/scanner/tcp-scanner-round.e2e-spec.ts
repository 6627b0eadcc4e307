import { StudioFramedV1Encoder } from '@studio/scanner-protocol';
import { shuffledShoe, ShoeWriter, TcpShoeServer, VirtualShoe } from '@studio/virtual-shoe';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { signIn, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

/**
 * The whole service with a table whose scanner is tcp://… to a shoe hosted elsewhere (a device
 * server played by the virtual shoe): the test deals, as a dealer would, whenever the table
 * expects a card, and the round is played to the end from what came over TCP.
 */
describe('a table reading its shoe over TCP plays a round', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let shoeServer: TcpShoeServer;
  let writer: ShoeWriter;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase('tcpround');
    shoeServer = await TcpShoeServer.listen({ port: 0 });
    writer = new ShoeWriter({
      shoe: new VirtualShoe({ seed: 77, decks: 8, encoder: new StudioFramedV1Encoder() }),
      sink: shoeServer,
      intervalMs: 0,
      heartbeatIntervalMs: 500,
    });
    writer.start();
    const table = {
      id: 'pokdeng-tcp',
      name: 'Pok Deng over TCP',
      game: 'pok-deng',
      currency: 'THB',
      bettingWindowMs: 1_000,
      roundIntervalMs: 300,
      scanner: { wireFormat: 'studio-framed-v1', path: `tcp://127.0.0.1:${shoeServer.port}` },
    } as unknown as TableDefinition;
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: [table],
      env: { DEMO_USERS: 'true', TABLE_LEASE_TTL_MS: '5000' },
    });
    token = await signIn(studio.url, 'supervisor', 'supervisor-demo');
  });

  afterAll(async () => {
    await studio?.close();
    await writer?.stop();
    await shoeServer?.close();
    await db?.drop();
  });

  const q = <T>(sql: string, params: unknown[] = []): Promise<T[]> =>
    studio.database.dataSource.query(sql, params);

  async function expectsCard(): Promise<boolean> {
    const response = await fetch(`${studio.url}/tables/pokdeng-tcp`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const view = (await response.json()) as { expectedCard: { slot: string } | null };
    return view.expectedCard !== null;
  }

  /** Card readings the table has decided on (a stored reading stays `recorded` until then). */
  async function decided(): Promise<number> {
    const [row] = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM scanner_readings
        WHERE table_id = 'pokdeng-tcp' AND kind = 'card' AND outcome <> 'recorded'`,
    );
    return row.n;
  }

  it('deals a Pok Deng round from the TCP shoe to completion; every card stored and applied', async () => {
    let dealt = 0;
    // The dealer: a card whenever the table expects one (burn cards too), the next only once the
    // table has decided on the previous one.
    await waitFor(
      'a round dealt over TCP to complete',
      async () => {
        const [round] = await q<{ status: string }>(
          `SELECT status FROM rounds ORDER BY started_at LIMIT 1`,
        );
        if (round?.status === 'completed') return true;
        if ((await decided()) === dealt && (await expectsCard())) {
          await writer.dealNext();
          dealt += 1;
        }
        return false;
      },
      60_000,
      50,
    );

    const readings = await q<{ code: string; port: string; outcome: string }>(
      `SELECT decoded->>'code' AS code, port, outcome FROM scanner_readings
        WHERE table_id = 'pokdeng-tcp' AND kind = 'card' ORDER BY id`,
    );
    expect(dealt).toBeGreaterThanOrEqual(4);
    expect(readings.map((r) => r.code)).toEqual(shuffledShoe(77, 8).slice(0, dealt));
    expect(readings.every((r) => r.port === `tcp://127.0.0.1:${shoeServer.port}`)).toBe(true);
    expect(readings.filter((r) => r.outcome === 'recorded')).toEqual([]);
  });
});
