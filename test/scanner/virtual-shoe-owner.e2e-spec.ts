import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { ScannerService } from '../../src/scanner/scanner.service';
import { TableRuntimeRegistry } from '../../src/tables/table-runtime.registry';
import { startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

const TABLE_IDS = ['owner-pd-1', 'owner-pd-2', 'owner-pd-3', 'owner-ibj'];

/** The socat processes (not their shells) serving each table's pty pair, counted from /proc. */
function socatPairsByTable(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // ended meanwhile
    }
    if (basename(argv[0]) !== 'socat') continue;
    for (const id of TABLE_IDS) {
      if (argv.some((a) => a.endsWith(`/${id}.reader`))) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * Two instances on one database, four tables with built-in virtual shoes: only the instance that
 * drives a table runs its socat pair and reader; the other keeps it closed (no process, no stale
 * warning) until it takes the table over, and then it opens it.
 */
describe('only the owner opens a table’s virtual shoe (two instances, real socat)', () => {
  let db: TestDatabase;
  const studios: RunningStudio[] = [];

  const tables = TABLE_IDS.map((id, i) => ({
    id,
    name: id,
    game: id.includes('ibj') ? 'infinite-blackjack' : 'pok-deng',
    currency: id.includes('ibj') ? 'EUR' : 'THB',
    scanner: {
      wireFormat: 'studio-framed-v1',
      heartbeatTimeoutMs: 1_000,
      virtualShoe: {
        seed: 40 + i,
        intervalMs: 3_600_000,
        misreadRate: 0,
        heartbeatIntervalMs: 200,
      },
    },
  })) as unknown as TableDefinition[];

  beforeAll(async () => {
    db = await createTestDatabase('shoe_owner');
  });

  afterAll(async () => {
    for (const studio of studios.splice(0)) await studio.close().catch(() => undefined);
    await db?.drop();
  });

  const start = async (instance: string) => {
    const studio = await startTestStudio({
      databaseUrl: db.url,
      tables,
      env: { STUDIO_INSTANCE_ID: instance, TABLE_LEASE_TTL_MS: '3000' },
    });
    studios.push(studio);
    return studio;
  };
  const drives = (studio: RunningStudio, id: string) =>
    studio.app.get(TableRuntimeRegistry).get(id).ok;
  const scanners = (studio: RunningStudio) =>
    new Map(
      studio.app
        .get(ScannerService)
        .states()
        .map((s) => [s.tableId, s] as const),
    );

  /** Each table: one socat pair in all, the driver's reader connected, the other's closed. */
  async function expectOnlyOwnersOpen(instances: RunningStudio[]): Promise<void> {
    const ownersOpen = async () =>
      TABLE_IDS.every((id) =>
        instances.every((studio) => {
          const state = scanners(studio).get(id)!;
          return drives(studio, id)
            ? state.status === 'connected'
            : state.status === 'stopped' && state.drivenElsewhere;
        }),
      );
    await waitFor('every driven table’s reader connected, and only those', ownersOpen);
    const ownerOf = (id: string) => instances.findIndex((studio) => drives(studio, id));
    const owners = new Map(TABLE_IDS.map((id) => [id, ownerOf(id)] as const));
    // Longer than the heartbeat timeout: a closed reader cannot go stale, an open one is fed.
    await new Promise((r) => setTimeout(r, 1_500));
    for (const id of TABLE_IDS) {
      // Never two drivers; none for a moment while the spread moves the table from one to the other.
      const drivers = instances.filter((studio) => drives(studio, id)).length;
      expect({ id, twoDrivers: drivers > 1 }).toEqual({ id, twoDrivers: false });
      // A table the spread moved meanwhile is between readers; it is judged again below.
      if (drivers === 0 || ownerOf(id) !== owners.get(id)) continue;
      for (const studio of instances) {
        expect({ id, status: scanners(studio).get(id)!.status }).toEqual({
          id,
          status: drives(studio, id) ? 'connected' : 'stopped',
        });
      }
    }
    await waitFor('the moved tables’ readers open at their new owner only', ownersOpen);
    expect(Object.fromEntries(socatPairsByTable())).toEqual(
      Object.fromEntries(TABLE_IDS.map((id) => [id, 1])),
    );
  }

  it('runs each table’s socat pair on its driver only, and moves it with the table', async () => {
    const a = await start('owner-a');
    await waitFor('A drives every table', async () => TABLE_IDS.every((id) => drives(a, id)));
    const b = await start('owner-b');
    await expectOnlyOwnersOpen([a, b]);
    const drivenByB = TABLE_IDS.filter((id) => drives(b, id));
    console.log(`tables driven by B while A runs: ${drivenByB.length} of ${TABLE_IDS.length}`);

    // A stops: it releases its tables, B takes them and opens their shoes; A's pairs are gone.
    await a.close();
    studios.splice(studios.indexOf(a), 1);
    await waitFor('B drives every table', async () => TABLE_IDS.every((id) => drives(b, id)));
    await expectOnlyOwnersOpen([b]);
  });
});
