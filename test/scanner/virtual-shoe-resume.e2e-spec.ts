import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { postJson, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(90_000);

/** One deck, so that a single card dealt twice from the same shoe is refused at once. */
const TABLE = {
  id: 'pd-virtual',
  name: 'Pok Deng Virtual',
  game: 'pok-deng',
  currency: 'THB',
  bettingWindowMs: 1_000,
  roundIntervalMs: 0,
  rules: { deckCount: 1 },
  scanner: {
    wireFormat: 'studio-framed-v1',
    decks: 1,
    virtualShoe: { seed: 21, intervalMs: 0, misreadRate: 0, heartbeatIntervalMs: 60_000 },
  },
} as unknown as TableDefinition;

/**
 * The demo's virtual shoe after a restart: it must go on from where the table's shoe stands, not
 * deal the shoe's first cards again (each refused as a copy too many).
 */
describe('virtual shoe resumes after a restart', () => {
  let db: TestDatabase;
  let studio: RunningStudio | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('virtual_resume');
  });

  afterAll(async () => {
    await studio?.close();
    await db?.drop();
  });

  const start = () =>
    startTestStudio({
      databaseUrl: db.url,
      tables: [TABLE],
      env: { VIRTUAL_DEALER_PACE_MS: '10', TABLE_LEASE_TTL_MS: '1000', DEMO_USERS: 'true' },
    });
  const cardsOfShoe = async (): Promise<{ shoe: string; cards: number }> => {
    const rows = await studio!.database.dataSource.query(
      `SELECT c.shoe_id AS shoe, count(*)::int AS cards FROM round_cards c
         JOIN shoes s ON s.id = c.shoe_id
        WHERE c.table_id = $1 GROUP BY c.shoe_id, s.shoe_number ORDER BY s.shoe_number DESC LIMIT 1`,
      [TABLE.id],
    );
    return rows[0] ?? { shoe: '', cards: 0 };
  };
  const refusedSince = async (afterId: string) =>
    studio!.database.dataSource.query(
      `SELECT outcome, decoded->>'code' AS code FROM scanner_readings
        WHERE table_id = $1 AND id > $2 AND kind = 'card' AND outcome NOT IN ('applied', 'recorded')`,
      [TABLE.id, afterId],
    ) as Promise<Array<{ outcome: string; code: string }>>;

  /** A restart while a card was expected pauses the table: the supervisor checks and resumes. */
  async function resumeIfPaused(): Promise<void> {
    const login = await postJson(studio!.url, '/auth/login', {
      username: 'supervisor',
      password: 'supervisor-demo',
    });
    const token = login.body.token as string;
    const resumed = await postJson(
      studio!.url,
      `/tables/${TABLE.id}/resume`,
      {},
      { authorization: `Bearer ${token}` },
    );
    expect([200, 201, 409]).toContain(resumed.status);
  }

  it('deals no card of the current shoe twice after the service restarts mid-shoe', async () => {
    studio = await start();
    const before = await waitFor('12 cards of the first shoe', async () => {
      const shoe = await cardsOfShoe();
      return shoe.cards >= 12 && shoe;
    });
    expect(await refusedSince('0')).toEqual([]);
    await studio.close();
    studio = undefined;

    studio = await start();
    const [{ last }] = await studio.database.dataSource.query(
      `SELECT coalesce(max(id), 0)::text AS last FROM scanner_readings WHERE table_id = $1`,
      [TABLE.id],
    );
    await resumeIfPaused();
    await waitFor(
      '12 more cards of the same shoe',
      async () => {
        const shoe = await cardsOfShoe();
        return shoe.shoe === before.shoe && shoe.cards >= before.cards + 12;
      },
      40_000,
    );
    expect(await refusedSince(last)).toEqual([]);
    const alerts = await studio.database.dataSource.query(
      `SELECT payload FROM outbox WHERE table_id = $1 AND type = 'SupervisorAlert'`,
      [TABLE.id],
    );
    expect(alerts).toEqual([]);
  });
});
