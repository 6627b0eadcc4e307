import { Client } from 'pg';
import { MIGRATION_LOCK } from '../../src/database/schema-migrations';
import { TEST_ADMIN_DATABASE_URL } from '../support/environment';
import { ServiceProcess, spawnService } from '../support/service-process';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait-for';

jest.setTimeout(180_000);

/** The default stop budget (SHUTDOWN_TIMEOUT_MS), as an operator leaves it. */
const BUDGET_MS = 10_000;

/**
 * A stop asked while the service is still starting, stuck on its database: PostgreSQL accepting
 * connections but never answering (a black-holing proxy), or another instance holding the
 * migration lock. The stop has the same budget as a stop of a running service (SHUTDOWN_TIMEOUT_MS):
 * it exits within it with one line naming the step it was stopped in, exit 0 when it went no
 * further and closed what it had opened, exit 1 when the budget cut it short. A start-up stuck with
 * no stop asked gives up after STARTUP_TIMEOUT_MS, saying what it waits for while it waits.
 */
describe('a start-up stuck on the database', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let proxyPort: number;
  let holder: Client | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('startstop');
    const target = new URL(TEST_ADMIN_DATABASE_URL);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    proxyPort = await proxy.start();
  });

  afterEach(async () => {
    proxy.restore();
    await holder?.end().catch(() => undefined);
    holder = undefined;
  });

  afterAll(async () => {
    await proxy?.stop();
    await db?.drop();
  });

  function viaProxy(): string {
    const url = new URL(db.url);
    url.host = `127.0.0.1:${proxyPort}`;
    return url.toString();
  }

  /** Holds the migration lock on the test database, as another instance migrating would. */
  async function holdMigrationLock(): Promise<void> {
    holder = new Client({ connectionString: db.url, application_name: 'start-stop test' });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  }

  /** Waits for the start-up's log line (JSON) saying it entered `step`; the stdout line. */
  function entered(service: ServiceProcess, step: RegExp): Promise<string> {
    return waitFor(
      `the start-up to say "${step.source}"`,
      () => {
        if (service.child.exitCode !== null) {
          throw new Error(`exited ${service.child.exitCode}: ${service.stderr()}`);
        }
        return service
          .stdout()
          .split('\n')
          .find((line) => step.test(line));
      },
      60_000,
    );
  }

  async function stopNow(service: ServiceProcess) {
    const began = Date.now();
    service.child.kill('SIGTERM');
    const exit = await service.exited(60_000);
    const took = Date.now() - began;
    const stderr = service.stderr().trim();
    console.log(`stop while starting: exit ${exit.code} in ${took} ms: ${stderr}`);
    return { exit, took, stderr, lines: stderr.split('\n') };
  }

  async function ending(service: ServiceProcess, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } finally {
      if (service.child.exitCode === null && service.child.signalCode === null) {
        service.killGroup('SIGKILL');
        await service.exited();
      }
    }
  }

  it('stops within SHUTDOWN_TIMEOUT_MS, exit 0, while connecting to a database that never answers', async () => {
    proxy.hang();
    const service = spawnService({
      PORT: '0',
      DATABASE_URL: viaProxy(),
      LOG_FORMAT: 'json',
      SHUTDOWN_TIMEOUT_MS: String(BUDGET_MS),
      // Longer than the budget: the stop must not wait for the connection to give up.
      DATABASE_CONNECT_TIMEOUT_MS: '60000',
    });
    await ending(service, async () => {
      await entered(service, /"msg":"Starting: connecting to the database/);
      const { exit, took, stderr, lines } = await stopNow(service);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(took).toBeLessThan(BUDGET_MS);
      expect(lines).toHaveLength(1);
      expect(stderr).toMatch(
        /^Stopped on SIGTERM while starting, in step: connecting to the database \(gives up after DATABASE_CONNECT_TIMEOUT_MS=60000\), under way for \d+\.\d s; the start-up went no further and closed what it had opened \(\d+\.\d s\); exiting 0$/,
      );
    });
  });

  it('stops within SHUTDOWN_TIMEOUT_MS, exit 0, while waiting for another instance’s migration lock, and takes no table', async () => {
    await holdMigrationLock();
    const service = spawnService({
      PORT: '0',
      DATABASE_URL: db.url,
      LOG_FORMAT: 'json',
      SHUTDOWN_TIMEOUT_MS: String(BUDGET_MS),
      STUDIO_INSTANCE_ID: 'start-stop-lock',
    });
    await ending(service, async () => {
      const waiting = await entered(
        service,
        /"msg":"Starting: waiting for the migration lock held by another instance/,
      );
      // Who holds it, so that the operator knows which instance to look at.
      expect(waiting).toMatch(/\(\\"start-stop test\\", backend pid \d+\)/);
      const { exit, took, stderr, lines } = await stopNow(service);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(took).toBeLessThan(BUDGET_MS);
      expect(lines).toHaveLength(1);
      expect(stderr).toMatch(
        /^Stopped on SIGTERM while starting, in step: waiting for the migration lock held by another instance \("start-stop test", backend pid \d+\), under way for \d+\.\d s; the start-up went no further .*; exiting 0$/,
      );
    });
    // Once the lock is free, the stopped start-up does not come back to migrate or take a table.
    await holder!.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    const pool = db.pool(1);
    const leases = await pool.query('SELECT table_id, owner FROM table_leases');
    expect(leases.rows).toEqual([]);
    const sessions = await pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'studio:start-stop-lock'`,
    );
    expect(sessions.rows[0].n).toBe(0);
  });

  it('stops within SHUTDOWN_TIMEOUT_MS when the database also hangs during the lock wait, its line matching its exit code', async () => {
    await holdMigrationLock();
    const budget = 4_000;
    const service = spawnService({
      PORT: '0',
      DATABASE_URL: viaProxy(),
      LOG_FORMAT: 'json',
      SHUTDOWN_TIMEOUT_MS: String(budget),
    });
    await ending(service, async () => {
      await entered(service, /"msg":"Starting: waiting for the migration lock/);
      proxy.hang();
      const { exit, took, stderr, lines } = await stopNow(service);
      expect(took).toBeLessThan(budget);
      expect(lines).toHaveLength(1);
      expect(stderr).toMatch(
        /^Stopped on SIGTERM while starting, in step: waiting for the migration lock held by another instance \("start-stop test", backend pid \d+\), under way for \d+\.\d s; /,
      );
      // Closing the abandoned wait's connection may wait for a server that never answers: then
      // the budget cuts it short, and the line says so.
      if (exit.code === 0) expect(stderr).toMatch(/; the start-up went no further .*; exiting 0$/);
      else {
        expect(exit).toEqual({ code: 1, signal: null });
        expect(stderr).toMatch(
          /; the stop was cut short after \d+\.\d s \(SHUTDOWN_TIMEOUT_MS=4000\); not finished: close the database pool \(under way for \d+\.\d s\); exiting 1$/,
        );
      }
    });
  });

  it('gives up after STARTUP_TIMEOUT_MS with no stop asked, saying what it waits for meanwhile', async () => {
    await holdMigrationLock();
    const limit = 12_000;
    const service = spawnService({
      PORT: '0',
      DATABASE_URL: db.url,
      LOG_FORMAT: 'json',
      STARTUP_TIMEOUT_MS: String(limit),
    });
    await ending(service, async () => {
      await entered(service, /"msg":"Starting: waiting for the migration lock/);
      const began = Date.now();
      const exit = await service.exited(60_000);
      const stderr = service.stderr().trim();
      console.log(`start-up timeout: exit ${exit.code} ${Date.now() - began} ms later: ${stderr}`);
      expect(exit).toEqual({ code: 1, signal: null });
      expect(stderr.split('\n')).toHaveLength(1);
      expect(stderr).toMatch(
        /^Start-up failed: not started within STARTUP_TIMEOUT_MS=12000 \(12\.0 s\); still waiting for the migration lock held by another instance \("start-stop test", backend pid \d+\), under way for \d+\.\d s; exiting 1$/,
      );
      expect(service.stdout()).toMatch(
        /"msg":"Still starting after 10\.\d s: waiting for the migration lock held by another instance/,
      );
    });
  });
});
