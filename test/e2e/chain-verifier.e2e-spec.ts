import { CHAIN_CHECKPOINT, topicName } from '@studio/contracts';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { VerifyEventChain } from '../../src/audit/verify-event-chain/verify-event-chain.use-case';
import { ChainedEvent, eventHash, GENESIS_HASH } from '../../src/history/event-chain';
import { useAuditStudio } from '../support/audit-studio';
import { REPO_ROOT, TEST_KAFKA_BROKERS } from '../support/environment';
import { KafkaCollector } from '../support/kafka-collector';
import { uniqueTopicPrefix, waitFor } from '../support/studio-harness';

jest.setTimeout(240_000);

const VERIFIER = join(__dirname, '../../tools/verify_chain.py');
const TABLES = ['ibj-audit', 'lux-audit', 'pokdeng-audit', 'practice-audit'];

type Line = Partial<ChainedEvent> & { withheld?: true };

/**
 * The Python verifier (tools/verify_chain.py, standard library only, written from docs/chain.md)
 * against the real service: it agrees with the service on the chain export of a table of every
 * game, checked against the heads read back from the real broker, and rejects each way of
 * tampering with an export.
 */
describe('the independent Python chain verifier', () => {
  const prefix = uniqueTopicPrefix('chainpy');
  const audit = useAuditStudio('chain_verifier', {
    kafkaBrokers: TEST_KAFKA_BROKERS,
    topicPrefix: prefix,
  });
  const collector = new KafkaCollector(TEST_KAFKA_BROKERS, topicName('tableEvents', prefix));
  const dir = mkdtempSync(join(tmpdir(), 'chain-verifier-'));
  const exports = new Map<string, Line[]>();
  /** Per table, the newest head in the anchors file. */
  const newestHead = new Map<string, number>();
  let anchors = '';

  const write = (name: string, lines: readonly object[]) => {
    const path = join(dir, name);
    writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    return path;
  };
  const python = async (...args: string[]) => {
    try {
      const { stdout } = await promisify(execFile)('python3', [VERIFIER, ...args]);
      return { code: 0, out: stdout };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: `${e.stdout}${e.stderr}` };
    }
  };
  /** The published heads of a table, as the verifier reads them from the anchors file. */
  const headsOf = (table: string, events = collector.events) =>
    events
      .filter((e) => e.key === table)
      .flatMap((e) => {
        const env = e.envelope as { type: string; chain?: { eventNo: number }; payload: unknown };
        if (env.type === CHAIN_CHECKPOINT) return [(env.payload as { eventNo: number }).eventNo];
        return env.chain ? [env.chain.eventNo] : [];
      });

  beforeAll(async () => {
    await collector.start();
    // Heads of every table on the topic, then the exports (which reach at least as far).
    for (const table of TABLES) {
      await waitFor(`published heads of ${table}`, async () => headsOf(table).length > 5, 60_000);
    }
    const sent = [...collector.events];
    anchors = write(
      'anchors.ndjson',
      sent.map((e) => e.envelope),
    );
    for (const table of TABLES) newestHead.set(table, Math.max(...headsOf(table, sent)));
    for (const table of TABLES) {
      const r = await audit.get(`/audit/chain/export?tableId=${table}`);
      expect(r.status).toBe(200);
      expect(r.type).toContain('application/x-ndjson');
      exports.set(
        table,
        r.text
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as Line),
      );
    }
  });

  afterAll(async () => {
    await collector.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('agrees with the service on a real export of every game, anchored by the heads on Kafka', async () => {
    const service = await new VerifyEventChain(audit.q).all();
    const paths = TABLES.map((t) => write(`${t}.ndjson`, exports.get(t)!));
    const r = await python(...paths, '--anchors', anchors);
    expect(r).toMatchObject({ code: 0 });
    for (const table of TABLES) {
      const lines = exports.get(table)!;
      const newest = newestHead.get(table)!;
      expect(lines.filter((l) => !l.withheld).length).toBeGreaterThan(10);
      expect(r.out).toContain(`OK ${table}: ${lines.length} event(s) chained`);
      expect(r.out).toContain(`anchored up to ${newest};`);
      // The service's walk verifies at least as far (the tables play on).
      const own = service.find((v) => v.tableId === table)!;
      expect(own.intact).toBe(true);
      expect(own.events).toBeGreaterThanOrEqual(lines.length);
    }
    console.log(r.out.trimEnd());
  });

  it('the audit CLI reads DATABASE_URL from .env as the service does, and replays without warnings', async () => {
    // An operator's .env beside the service: `npm run audit:verify-chain` used to answer
    // "DATABASE_URL is not set", and each replayed round printed pg's deprecation warning for
    // queries sent side by side on one client.
    const cwd = mkdtempSync(join(tmpdir(), 'audit-cli-env-'));
    writeFileSync(join(cwd, '.env'), `DATABASE_URL=${audit.databaseUrl}\n`);
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DATABASE_URL;
    delete env.ENV_FILE;
    const cli = join(REPO_ROOT, 'dist', 'apps', 'audit-cli', 'main.js');
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, [cli, ...args], { cwd, env });
    try {
      const chain = await run('verify-chain', '--table', 'pokdeng-audit');
      expect(chain.stdout).toMatch(/pokdeng-audit/);
      const replay = await run('verify-replay', '--round', audit.ibjRoundId);
      expect(replay.stdout).toContain(`MATCH     round ${audit.ibjRoundId}`);
      expect(replay.stderr).toBe('');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('withholds the burnt card of the shoe in play (face down, never revealed) until the shoe ends', async () => {
    let hidden = 0;
    for (const table of TABLES) {
      const rows = await audit.q<{ event_no: string }>(
        `SELECT e.event_no FROM round_events e JOIN shoes s ON s.table_id = e.table_id
          WHERE e.table_id = $1 AND s.status = 'open' AND e.round_id IS NULL
            AND e.visibility = 'restricted' AND e.occurred_at >= s.started_at`,
        [table],
      );
      const open = new Set(rows.map((r) => Number(r.event_no)));
      hidden += open.size;
      const shown = exports.get(table)!.filter((l) => !l.withheld && open.has(l.eventNo!));
      expect(shown.map((l) => `${table} ${l.eventNo} ${l.type}`)).toEqual([]);
    }
    // The tables that burn a card at the shoe's start did (else this would prove nothing).
    expect(hidden).toBeGreaterThan(0);
  });

  it('shows a finished round whose status row was set back to in progress: the chain says it ended', async () => {
    const [round] = await audit.q<{ id: string; status: string }>(
      `SELECT id, status FROM rounds WHERE table_id = 'pokdeng-audit' AND status = 'completed'
        ORDER BY round_number LIMIT 1`,
    );
    const ofRound = (lines: Line[]) => lines.filter((l) => l.roundId === round.id);
    expect(ofRound(exports.get('pokdeng-audit')!).length).toBeGreaterThan(3);
    await audit.q(`UPDATE rounds SET status = 'in-progress' WHERE id = $1`, [round.id]);
    try {
      const r = await audit.get(`/audit/chain/export?tableId=pokdeng-audit`);
      const lines = r.text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Line);
      const withheld = lines.filter((l) => l.withheld).map((l) => l.eventNo);
      const shown = exports.get('pokdeng-audit')!.filter((l) => l.roundId === round.id);
      expect(withheld.filter((no) => shown.some((l) => l.eventNo === no))).toEqual([]);
      expect(ofRound(lines).length).toBe(shown.length);
    } finally {
      await audit.q(`UPDATE rounds SET status = $2 WHERE id = $1`, [round.id, round.status]);
    }
  });

  it('verifies version-1 events (before the versioned chain) as docs/chain.md says', async () => {
    // The first events rewritten as the service wrote them before: version 1, no salt.
    // The shown events, numbered again from 1 (the shoe's burnt card is withheld mid-chain).
    const lines = exports.get('pokdeng-audit')!.filter((l) => !l.withheld);
    let prev = GENESIS_HASH;
    const old = lines.map((l, i) => {
      const e = { ...(l as ChainedEvent), eventNo: i + 1, prevHash: prev };
      if (i < 8) Object.assign(e, { chainVersion: 1, salt: null });
      e.hash = eventHash(prev, e);
      prev = e.hash;
      return e;
    });
    expect(await python(write('v1.ndjson', old))).toMatchObject({ code: 0 });
    // Version 2 before version 1 is refused.
    const wrongOrder = old.map((e, i) => (i === 9 ? { ...e, chainVersion: 1 } : e));
    const r = await python(write('downgrade.ndjson', wrongOrder));
    expect(r.code).toBe(1);
    expect(r.out).toContain('event 10: chain version 1 after version 2');
  });

  it.each(TABLES)('rejects every tampered export of %s', async (table) => {
    const lines = exports.get(table)!;
    const newest = newestHead.get(table)!;
    const run = async (name: string, tampered: readonly object[]) => {
      const file = write(`${table}-${name}.ndjson`, tampered);
      const r = await python(file, '--anchors', anchors, '--table', table);
      return { name, code: r.code, out: r.out };
    };
    const at = lines.findIndex((l, i) => i >= 4 && !l.withheld && l.payload !== undefined);
    const edited = lines.map((l, i) =>
      i === at ? { ...l, payload: { ...(l.payload as object), tampered: 1 } } : l,
    );
    const swapped = [...lines];
    [swapped[at], swapped[at + 1]] = [swapped[at + 1], swapped[at]];
    // Re-hashed after the edit, so the links hold: only the published heads can tell.
    let prev = GENESIS_HASH;
    const rehashed = edited.map((l) => {
      if (l.withheld) return { ...l, prevHash: prev }; // cannot be re-hashed without its content
      const e = { ...(l as ChainedEvent), prevHash: prev };
      e.hash = eventHash(prev, e);
      prev = e.hash;
      return e;
    });
    const results = [
      await run('edit', edited),
      await run(
        'delete',
        lines.filter((_, i) => i !== at),
      ),
      await run('reorder', swapped),
      await run('rehash', rehashed),
      await run('truncate', lines.slice(0, newest - 1)),
      await run('truncate-all', []),
    ];
    expect(results.map((r) => [r.name, r.code])).toEqual(results.map((r) => [r.name, 1]));
    const out = Object.fromEntries(results.map((r) => [r.name, r.out]));
    expect(out.edit).toContain(`event ${at + 1}: content hashes to`);
    expect(out.delete).toContain(`expected event ${at + 1} here`);
    expect(out.reorder).toContain(`expected event ${at + 1} here`);
    expect(out.truncate).toContain(
      `chain ends at ${newest - 1} but a head was published at ${newest}`,
    );
    expect(out['truncate-all']).toContain(
      `FAIL ${table}: the export holds none of its events (heads were published up to ${newest})`,
    );
    expect(out.rehash).toMatch(/FAIL .*(rewritten|prevHash)/);

    // Cutting only what no published head covers is no finding: it is reported as unanchored.
    if (lines.length > newest) {
      const r = await run('unpublished-tail', lines.slice(0, newest));
      expect(r).toMatchObject({ code: 0 });
      expect(r.out).toContain(`anchored up to ${newest}; 0 event(s) after it`);
    }
  });
});
