import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { REPO_ROOT } from '../support/environment';
import { spawnService } from '../support/service-process';

jest.setTimeout(420_000);

/**
 * The built service as an operator runs it: embedded defaults with no configuration, graceful
 * shutdown, data that survives a restart, and one-line failures for bad configuration.
 */
describe('the service process', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'studio-pglite-'));
  });

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * The readiness answer once it is 200, or the last one after 60 s: each check has its own
   * short deadline, so a just-started service on a loaded machine may answer 503 for a moment.
   */
  async function readyBody(url: string) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await fetch(`${url}/health/ready`);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const body = (await response.json()) as Record<string, any>;
      const answer = { status: response.status, body };
      if (answer.status === 200 || Date.now() > deadline) return answer;
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /**
   * A private copy of the first test's embedded folder (already created and migrated): only the
   * first test needs a first start, and a first start is the slow one (PGlite's initdb, every
   * migration).
   */
  function copyOfDataDir(prefix: string): string {
    const copy = mkdtempSync(join(tmpdir(), prefix));
    cpSync(dataDir, copy, { recursive: true });
    return copy;
  }

  /** A port free a moment ago (the service's own start takes it; PORT=0 says it only at the end). */
  async function freePort(): Promise<number> {
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const { port } = probe.address() as { port: number };
    await new Promise((r) => probe.close(r));
    return port;
  }

  async function embeddedRows(port: number) {
    const client = new Client({
      connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    });
    await client.connect();
    try {
      const tables = await client.query(`SELECT id, registered_at FROM studio_tables ORDER BY id`);
      const outbox = await client.query(
        `SELECT count(*)::int AS n FROM outbox WHERE type = 'TableRegistered'`,
      );
      return { tables: tables.rows, outboxCount: outbox.rows[0].n as number };
    } finally {
      await client.end();
    }
  }

  it('starts on embedded defaults, is ready, stops on SIGTERM and keeps its data', async () => {
    // Only what a test needs to avoid clashing with a developer's running service: a free HTTP
    // port, a private data folder and a known PGlite port to look inside.
    const env = { PORT: '0', PGLITE_DATA_DIR: dataDir, PGLITE_PORT: '55433' };

    const first = spawnService(env);
    const url = await first.listening();
    const ready = await readyBody(url);
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.checks.database.status).toBe('ok');
    expect(ready.body.checks.migrations.status).toBe('ok');
    expect(ready.body.checks.kafka.status).toBe('disabled');
    const before = await embeddedRows(55433);
    expect(before.tables.map((t) => t.id)).toEqual(['ibj-1', 'lux-1', 'pokdeng-1', 'practice-1']);
    expect(before.outboxCount).toBe(4);

    first.child.kill('SIGTERM');
    expect(await first.exited()).toEqual({ code: 0, signal: null });
    // Structured JSON logs on stdout (not a terminal), without Nest's route dump at info.
    const lines = first.stdout().trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(first.stdout()).not.toMatch(/RouterExplorer|RoutesResolver|Mapped \{/);

    const second = spawnService(env);
    const url2 = await second.listening();
    expect((await readyBody(url2)).status).toBe(200);
    const after = await embeddedRows(55433);
    expect(after.tables).toEqual(before.tables);
    expect(after.outboxCount).toBe(4);
    second.child.kill('SIGINT');
    expect(await second.exited()).toEqual({ code: 0, signal: null });
  });

  it('stops cleanly when SIGTERM comes while it is still starting', async () => {
    const folder = copyOfDataDir('studio-pglite-early-stop-');
    const service = spawnService({ PORT: '0', PGLITE_DATA_DIR: folder });
    try {
      // Its first log line: the process is up, its start-up not finished yet.
      const deadline = Date.now() + 60_000;
      while (service.stdout().length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      service.child.kill('SIGTERM');
      const exit = await service.exited(120_000);
      // Its own words when it did not stop cleanly (a start-up failure, a stop past its budget).
      expect({ ...exit, stderr: exit.code === 0 ? '' : service.stderr() }).toEqual({
        code: 0,
        signal: null,
        stderr: '',
      });
    } finally {
      if (service.child.exitCode === null) service.killGroup('SIGKILL');
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('answers liveness 200 (starting) from the first moment, readiness 503 until it has started', async () => {
    const folder = copyOfDataDir('studio-pglite-live-');
    const port = await freePort();
    const service = spawnService({ PORT: String(port), PGLITE_DATA_DIR: folder });
    const base = `http://127.0.0.1:${port}`;
    const answer = async (path: string) => {
      try {
        const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(5_000) });
        const body = (await response.json()) as { status?: string; error?: string };
        return `${response.status} ${body.status ?? body.error}`;
      } catch {
        return 'no answer'; // the port is not open yet
      }
    };
    try {
      // Probes as a platform's orchestrator sends them while the service starts.
      const seen = new Set<string>();
      while (!/listening on/.test(service.stdout()) && service.child.exitCode === null) {
        const [live, ready] = await Promise.all([answer('/health/live'), answer('/health/ready')]);
        if (live !== 'no answer') seen.add(`live ${live}, ready ${ready}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await service.listening();
      expect(seen).toContain('live 200 starting, ready 503 starting');
      for (const pair of seen) expect(pair).toMatch(/^live 200 (starting|ok), /);
      expect(await answer('/health/live')).toBe('200 ok');
    } finally {
      service.child.kill('SIGTERM');
      await service.exited();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('refuses a second process on the same embedded folder, and not after the first is killed', async () => {
    const shared = copyOfDataDir('studio-pglite-shared-');
    const first = spawnService({ PORT: '0', PGLITE_DATA_DIR: shared });
    try {
      await first.listening();
      // An operator starting the service twice on one machine: the second must not open the folder.
      const second = spawnService({ PORT: '0', PGLITE_DATA_DIR: shared });
      const { code } = await second.exited(60_000);
      expect(code).not.toBe(0);
      const stderr = second.stderr().trim();
      expect(stderr.split('\n')).toHaveLength(1);
      expect(stderr).toMatch(
        new RegExp(`^Start-up failed: .*in use by another process \\(pid ${first.child.pid} `),
      );
      expect(second.stdout()).not.toMatch(/Table \S+ is running/);

      // A killed process leaves no lock behind: the next start opens the folder.
      first.killGroup('SIGKILL');
      await first.exited();
      const third = spawnService({ PORT: '0', PGLITE_DATA_DIR: shared });
      await third.listening();
      third.child.kill('SIGTERM');
      expect((await third.exited()).code).toBe(0);
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null)
        first.killGroup('SIGKILL');
      rmSync(shared, { recursive: true, force: true });
    }
  });

  it.each([
    [
      { PORT: 'abc' },
      /^Configuration error: PORT must be an integer from 0 to 65535 \(got "abc"\)$/,
    ],
    [
      { KAFKA_BROKERS: 'nohost' },
      /^Configuration error: KAFKA_BROKERS must be a comma-separated list of host:port/,
    ],
    [
      { TABLES_FILE: '/nope/tables.json' },
      /^Configuration error: TABLES_FILE "\/nope\/tables.json" cannot be read \(ENOENT\)$/,
    ],
    [
      {
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/studio',
        DATABASE_CONNECT_TIMEOUT_MS: '2000',
      },
      /^Start-up failed: Database unreachable \(PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/studio\): .*ECONNREFUSED/,
    ],
  ])('exits non-zero with a one-line reason for %p', async (env, pattern) => {
    const service = spawnService({ PORT: '0', PGLITE_DATA_DIR: dataDir, ...env }, REPO_ROOT);
    const { code } = await service.exited(60_000);
    expect(code).not.toBe(0);
    const stderr = service.stderr().trim();
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(pattern);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('plays demo hands through the platform API and logs them as readable lines', async () => {
    // A copy of the first test's folder: the demo plays the same on a database it restarts on.
    const demoDir = copyOfDataDir('studio-demo-');
    const service = spawnService({ PORT: '0', PGLITE_DATA_DIR: demoDir, LOG_FORMAT: 'pretty' });
    try {
      await service.listening();
      // The demo players' bets reach a Pok Deng round (about 35 s a round on the demo pace).
      const deadline = Date.now() + 150_000;
      let completed: string | undefined;
      while (!completed && Date.now() < deadline) {
        completed = service
          .stdout()
          .split('\n')
          .find((l) =>
            /Pok Deng 1 \(pokdeng-1\): round \d+ of shoe \d+ completed: \d+ bets? by/.test(l),
          );
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(completed).toBeDefined();
      const lines = service.stdout().trim().split('\n');
      for (const line of lines) expect(line).not.toMatch(/^\{/); // readable, not JSON
      expect(lines.some((l) => /INFO.*Studio service listening on/.test(l))).toBe(true);
    } finally {
      service.child.kill('SIGTERM');
      expect((await service.exited()).code).toBe(0);
      rmSync(demoDir, { recursive: true, force: true });
    }
  });

  it('refuses an HTTP port that is taken before it starts anything, with a one-line reason', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      // A second copy started by mistake: it must fail before it opens the database, takes a
      // table's lease or opens a round (its tables are the first copy's).
      const began = Date.now();
      const service = spawnService({ PORT: String(port), PGLITE_DATA_DIR: dataDir });
      const { code } = await service.exited(60_000);
      expect(code).toBe(1);
      expect(service.stderr().trim()).toMatch(
        new RegExp(
          `^Start-up failed: HTTP port 127\\.0\\.0\\.1:${port} cannot be opened: .*EADDRINUSE[^\\n]*$`,
        ),
      );
      expect(service.stdout()).not.toMatch(/Table \S+ (is running|registered)|Nest application/);
      // Node's own start only (a full start on the embedded database takes several seconds).
      expect(Date.now() - began).toBeLessThan(10_000);
    } finally {
      blocker.close();
    }
  });
});
