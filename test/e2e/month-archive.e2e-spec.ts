import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { verifyArchive } from '../../src/audit/verify-archive/verify-archive';
import { eventHash, GENESIS_HASH } from '../../src/history/event-chain';
import {
  archiveDigest,
  archiveLines,
  DirectorySink,
} from '../../src/history/retention/archive-files';
import {
  anchorsAgainstLive,
  ArchiveManifest,
  MonthArchiver,
} from '../../src/history/retention/month-archive';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

const ROUND_OCT = '00000000-0000-4000-8000-00000000000a';
const ROUND_NOV = '00000000-0000-4000-8000-00000000000b';
const SHOE = '00000000-0000-4000-8000-0000000000aa';
const SHOE_DONE = '00000000-0000-4000-8000-0000000000ab';

/**
 * A closed month archived from the real PostgreSQL as NDJSON with its chain anchors: it verifies
 * from the anchors alone, the next month chains on from the first one's last hash, an edited
 * event is found even when the file's hash in the manifest is recomputed, and the live tables are
 * left as they were.
 */
describe('month archive on PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const dirs: string[] = [];
  const q = async <T>(sql: string, params?: unknown[]) => (await ds.query(sql, params)) as T[];

  /** Events of table t-1, chained as the service chains them. */
  async function chain(events: Array<{ roundId: string | null; type: string; at: string }>) {
    let prev = GENESIS_HASH;
    for (const [i, e] of events.entries()) {
      const fields = {
        tableId: 't-1',
        eventNo: i + 1,
        roundId: e.roundId,
        type: e.type,
        visibility: 'public',
        payload: { n: i + 1, note: 'a "quoted" ü' },
        actor: null,
        occurredAt: e.at,
        chainVersion: 1 as const,
        salt: null,
      };
      const hash = eventHash(prev, fields);
      await ds.query(
        `INSERT INTO round_events (table_id, event_no, round_id, type, visibility, payload, actor, occurred_at, prev_hash, hash)
         VALUES ('t-1', $1, $2, $3, 'public', $4, NULL, $5, $6, $7)`,
        [i + 1, e.roundId, e.type, JSON.stringify(fields.payload), e.at, prev, hash],
      );
      prev = hash;
    }
  }

  const counts = () =>
    q<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM round_events) AS events, (SELECT count(*)::int FROM rounds) AS rounds,
              (SELECT count(*)::int FROM bets) AS bets, (SELECT count(*)::int FROM scanner_readings) AS readings`,
    );

  async function archive(month: string): Promise<{ dir: string; manifest: ArchiveManifest }> {
    const dir = mkdtempSync(join(tmpdir(), 'month-archive-'));
    dirs.push(dir);
    const manifest = await new MonthArchiver(q).archive(month, new DirectorySink(join(dir, 'a')));
    return { dir: join(dir, 'a'), manifest };
  }

  const verify = (dir: string, manifest: ArchiveManifest) =>
    verifyArchive(
      manifest,
      (n) => archiveLines(dir, n),
      (n) => archiveDigest(dir, n),
    );

  beforeAll(async () => {
    db = await createTestDatabase('month_archive');
    ds = await db.migrated();
    await ds.query(
      `INSERT INTO studio_tables (id, name, game, currency, configuration, configuration_hash, registered_at, updated_at)
       VALUES ('t-1', 'T 1', 'pok-deng', 'THB', '{}', 'x', now(), now())`,
    );
    await ds.query(
      `INSERT INTO shoes (id, table_id, shoe_number, deck_count, status, started_at)
       VALUES ($1, 't-1', 1, 8, 'open', '2026-10-30T00:00:00Z')`,
      [SHOE],
    );
    for (const [id, n, at] of [
      [ROUND_OCT, 1, '2026-10-31T23:59:00Z'],
      [ROUND_NOV, 2, '2026-11-01T00:01:00Z'],
    ] as const) {
      await ds.query(
        `INSERT INTO rounds (id, table_id, shoe_id, shoe_number, round_number, game, status, phase, started_at, ended_at)
         VALUES ($1, 't-1', $2, 1, $3, 'pok-deng', 'completed', 'settled', $4, $4::timestamptz + interval '40 seconds')`,
        [id, SHOE, n, at],
      );
    }
    await ds.query(
      `INSERT INTO bets (id, round_id, table_id, player_id, bet_type, spot, amount, deducted, currency, status, placed_at)
       VALUES ('b-1', $1, 't-1', 'p-1', 'player', '1', 100, 200, 'THB', 'settled', '2026-10-31T23:59:05Z')`,
      [ROUND_OCT],
    );
    await ds.query(
      `INSERT INTO scanner_readings (table_id, port, wire_format, kind, raw, decoded, received_at, outcome)
       VALUES ('t-1', '/dev/x', 'line', 'card', '\\x4153'::bytea, '{"kind":"card"}', '2026-10-31T23:59:20Z', 'applied')`,
    );
    await chain([
      { roundId: null, type: 'ShoeStarted', at: '2026-10-30T00:00:00.000Z' },
      { roundId: ROUND_OCT, type: 'RoundStarted', at: '2026-10-31T23:59:00.000Z' },
      { roundId: ROUND_OCT, type: 'RoundCompleted', at: '2026-10-31T23:59:40.123Z' },
      { roundId: ROUND_NOV, type: 'RoundStarted', at: '2026-11-01T00:01:00.000Z' },
      { roundId: ROUND_NOV, type: 'RoundCompleted', at: '2026-11-01T00:01:40.000Z' },
    ]);
  });

  afterAll(async () => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await db?.drop();
  });

  it('archives a closed month that verifies from its anchors, and the next month chains on', async () => {
    const before = await counts();
    const oct = await archive('2026-10');
    expect(oct.manifest.tables).toEqual([
      expect.objectContaining({
        tableId: 't-1',
        before: { eventNo: 0, hash: GENESIS_HASH },
        lastEventNo: 3,
        events: 3,
      }),
    ]);
    expect(oct.manifest.files['rounds.ndjson'].rows).toBe(1);
    expect(oct.manifest.files['bets.ndjson'].rows).toBe(1);
    expect(oct.manifest.files['scanner_readings.ndjson'].rows).toBe(1);
    expect(await verify(oct.dir, oct.manifest)).toEqual({ ok: true, findings: [], events: 3 });
    expect(await anchorsAgainstLive(oct.manifest, q)).toEqual([]);

    const nov = await archive('2026-11');
    expect(nov.manifest.tables[0].before).toEqual({
      eventNo: 3,
      hash: oct.manifest.tables[0].lastHash,
    });
    expect(await verify(nov.dir, nov.manifest)).toMatchObject({ ok: true, events: 2 });
    expect(await counts()).toEqual(before);
  });

  it('archives the shoes finished in the month with their burn, not a shoe in play, and the table actions', async () => {
    await ds.query(
      `INSERT INTO shoes (id, table_id, shoe_number, deck_count, status, started_at, finished_at, finish_reason)
       VALUES ($1, 't-1', 0, 8, 'finished', '2026-10-01T00:00:00Z', '2026-10-29T23:00:00Z', 'closed')`,
      [SHOE_DONE],
    );
    // Each shoe's burn: the finished one's revealed, the one in play's still face down.
    for (const [shoe, card] of [
      [SHOE_DONE, 'KH'],
      [SHOE, 'QS'],
    ]) {
      await ds.query(
        `INSERT INTO round_cards (round_id, shoe_id, table_id, slot, card, face_down, dealt_at)
         VALUES (NULL, $1, 't-1', 'burn/1', $2, true, '2026-10-01T00:00:01Z')`,
        [shoe, card],
      );
    }
    for (const at of ['2026-10-15T10:00:00Z', '2026-11-02T10:00:00Z']) {
      await ds.query(
        `INSERT INTO supervisor_actions (table_id, round_id, action, reason, actor_name, status, created_at)
         VALUES ('t-1', NULL, 'close-table', 'end of day', 'sup', 'applied', $1)`,
        [at],
      );
    }
    const { dir, manifest } = await archive('2026-10');
    const rows = async (name: string) => {
      const out: Array<Record<string, unknown>> = [];
      for await (const line of archiveLines(dir, name)) out.push(JSON.parse(line));
      return out;
    };
    expect((await rows('shoes.ndjson')).map((r) => r.id)).toEqual([SHOE_DONE]);
    expect((await rows('shoe_cards.ndjson')).map((r) => r.card)).toEqual(['KH']);
    expect((await rows('table_actions.ndjson')).map((r) => r.created_at)).toEqual([
      '2026-10-15T10:00:00+00:00',
    ]);
    expect(manifest.files['shoe_cards.ndjson'].rows).toBe(1);
    expect(await verify(dir, manifest)).toMatchObject({ ok: true });
  });

  it('finds an edited event even when the manifest says the edited file is as written', async () => {
    const { dir, manifest } = await archive('2026-10');
    const file = join(dir, 'round_events.ndjson');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"n":2', '"n":20'));
    const shaOnly = await verify(dir, manifest);
    expect(shaOnly.ok).toBe(false);
    expect(shaOnly.findings[0]).toMatch(/^round_events\.ndjson: 3 rows, sha256/);

    const forged = { ...manifest, files: { ...manifest.files } };
    forged.files['round_events.ndjson'] = await archiveDigest(dir, 'round_events.ndjson');
    expect((await verify(dir, forged)).findings).toEqual([
      expect.stringMatching(/^t-1: broken at event_no 2: hash-mismatch/),
    ]);
  });

  it('says when the live chain no longer carries the archived anchor', async () => {
    const { manifest } = await archive('2026-10');
    const forged = {
      ...manifest,
      tables: [{ ...manifest.tables[0], lastHash: 'f'.repeat(64) }],
    };
    expect(await anchorsAgainstLive(forged, q)).toEqual([
      expect.stringMatching(/^t-1: live event 3 has hash [0-9a-f]{64}, the archive f{64}$/),
    ]);
  });
});
