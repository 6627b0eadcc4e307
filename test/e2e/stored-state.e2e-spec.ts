import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { TableStateRepository } from '../../src/history/writer/table-state.repository';
import type { TableState } from '../../src/table-core/table-machine';
import { TableRuntimeRegistry } from '../../src/tables/table-runtime.registry';
import { UncertainCommits } from '../../src/tables/uncertain-commits';
import { virtualShoeScanner } from '../support/orchestrator-tables';
import { postJson, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

const PLATFORM_KEY = 'stored-state-key';
const quick = { bettingWindowMs: 1_000, decisionWindowMs: 1_000, roundIntervalMs: 100 };
const TABLES = [
  { id: 'ss-pokdeng', game: 'pok-deng', currency: 'THB', seed: 41 },
  { id: 'ss-ibj', game: 'infinite-blackjack', currency: 'EUR', seed: 42 },
  { id: 'ss-lux', game: 'blackjack-lux', currency: 'EUR', seed: 43 },
].map(
  ({ seed, ...table }) =>
    ({ ...table, name: table.id, ...quick, scanner: virtualShoeScanner(seed, 0.1) }) as unknown,
) as TableDefinition[];

/**
 * After a commit whose answer was lost, a table finds which of its attempts landed by comparing
 * each with the stored state (UncertainCommits), and announces that one with its writes. That only
 * works if the state the database gives back (snapshot and deltas rebuilt, upgraded, from jsonb)
 * is the state the runtime committed: checked here on each game's real states, mid-round, on the
 * real PostgreSQL.
 */
describe('stored table state', () => {
  let db: TestDatabase;
  let studio: RunningStudio;

  beforeAll(async () => {
    db = await createTestDatabase('stored_state');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: TABLES,
      env: { PLATFORM_API_KEYS: PLATFORM_KEY, VIRTUAL_DEALER_PACE_MS: '20' },
    });
  });

  afterAll(async () => {
    await studio?.close();
    await db?.drop();
  });

  it("is the runtime's own state, so a lost commit's attempt is recognised by it", async () => {
    const stored = new TableStateRepository(studio.database.dataSource);
    const registry = studio.app.get(TableRuntimeRegistry);
    const runtimeOf = (tableId: string) => registry.all().find((r) => r.tableId === tableId)!;
    /** Whether an attempt that left `held` is taken for the commit that stored `loaded`. */
    const recognised = (held: TableState, loaded: { version: number; state: TableState }) => {
      const uncertain = new UncertainCommits();
      uncertain.failed(loaded.version - 1, { state: held } as never);
      return uncertain.landed(loaded.version, loaded.state) !== undefined;
    };
    const bets = { 'ss-pokdeng': { betType: 'player', spot: '1' }, 'ss-ibj': { betType: 'main' } };
    let player = 0;
    let accepted = 0;
    const bet = async () => {
      for (const [tableId, body] of Object.entries(bets)) {
        const answer = await postJson(
          studio.url,
          `/platform/tables/${tableId}/bets`,
          { ...body, playerId: `p-${(player += 1)}`, amount: 1_000 },
          { 'x-platform-key': PLATFORM_KEY },
        );
        if (answer.body.accepted === true) accepted += 1;
      }
    };
    // Rounds with players in them first: bets on every open window until every table completed
    // two rounds and bets were taken.
    await waitFor(
      'two completed rounds at every table, with bets',
      async () => {
        await bet();
        const rows = await studio.database.dataSource.query(
          `SELECT table_id, count(*)::int AS n FROM rounds WHERE status = 'completed' GROUP BY 1`,
        );
        const done = (rows as Array<{ n: number }>).filter((r) => r.n >= 2).length;
        return done === TABLES.length && accepted >= 4 ? true : undefined;
      },
      90_000,
      150,
    );
    // Then each table read three times at a moment when no commit was in flight between the two
    // reads, bets still coming.
    const checked = new Map(TABLES.map((t) => [t.id, 0]));
    await waitFor(
      'three matching reads of every table',
      async () => {
        await bet();
        for (const table of TABLES) {
          const runtime = runtimeOf(table.id);
          const held = runtime.snapshot;
          const loaded = await stored.load(table.id);
          if (!loaded || runtime.snapshot !== held) continue;
          if (recognised(held, loaded)) checked.set(table.id, checked.get(table.id)! + 1);
        }
        return [...checked.values()].every((n) => n >= 3) ? true : undefined;
      },
      90_000,
      150,
    );
    // The comparison can fail: a state one card on is not taken for the stored one.
    const loaded = (await stored.load('ss-ibj'))!;
    const changed = { ...runtimeOf('ss-ibj').snapshot, faceDownCards: { x: 'AS' } } as TableState;
    expect(recognised(changed, loaded)).toBe(false);
  });
});
