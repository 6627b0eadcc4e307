import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../support/environment';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { spawnService } from '../support/service-process';

jest.setTimeout(180_000);

/**
 * The built service started the way an unlucky operator starts it: each mistake is answered with
 * one line on stderr naming what to do, and a non-zero exit, never a stack trace.
 */
describe('the service process, started by mistake', () => {
  let empty: TestDatabase;

  beforeAll(async () => {
    empty = await createTestDatabase('operator_mistakes', { empty: true });
  });

  afterAll(async () => {
    await empty?.drop();
  });

  async function failure(env: Record<string, string>) {
    const service = spawnService({ PORT: '0', LOG_FORMAT: 'json', ...env });
    const { code } = await service.exited(60_000);
    const stderr = service.stderr().trim();
    // Nest's own lines (its start-up chatter, a stack trace) are neither JSON nor one line.
    const foreign = service
      .stdout()
      .split('\n')
      .filter((line) => line && !line.startsWith('{'));
    return { code, stderr, lines: stderr.split('\n'), foreign };
  }

  it('refuses a database that was never migrated when DATABASE_RUN_MIGRATIONS=false', async () => {
    const { code, stderr, lines, foreign } = await failure({
      DATABASE_URL: empty.url,
      DATABASE_RUN_MIGRATIONS: 'false',
    });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(stderr).toMatch(
      /^Start-up failed: the database schema is not migrated \(DATABASE_RUN_MIGRATIONS=false\): run `npm run migration:run` first \(.*shared_secrets.*\)$/,
    );
    expect(foreign).toEqual([]);
  });

  it.each([
    ['a folder', (dir: string) => dir, (dir: string) => `LOG_FILE: ${dir} is a folder, not a file`],
    [
      'a folder that cannot be created',
      () => '/proc/nope/studio.log',
      () => 'LOG_FILE: cannot create the folder /proc/nope: ENOENT',
    ],
  ])(
    'refuses a LOG_FILE that is %s with the settings (exit 78), before it opens the database',
    async (_what, logFile, reason) => {
      const dir = mkdtempSync(join(tmpdir(), 'studio-log-file-'));
      try {
        // A database nobody answers on: a LOG_FILE found only once the logger opens it (after the
        // database and the migrations) would fail the start there instead, with exit 1.
        const { code, lines, foreign } = await failure({
          DATABASE_URL: 'postgres://postgres@127.0.0.1:1/studio',
          DATABASE_CONNECT_TIMEOUT_MS: '2000',
          LOG_FILE: logFile(dir),
        });
        expect({ code, lines }).toEqual({
          code: 78,
          lines: [`Configuration error: ${reason(dir)}`],
        });
        expect(foreign).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.each([
    ['npm run migration:run', 'dist/src/database/migrate.js', ['run']],
    ['npm run user:add', 'dist/src/auth/add-user.js', ['ops', 'supervisor']],
    ['npm run platform', 'dist/src/platforms/platforms.cli.js', ['list']],
  ])(
    '%s refuses an ENV_FILE it cannot read, as the service does, instead of using the embedded database',
    (_command, script, args) => {
      // A mistyped ENV_FILE: the tools used to pass over it and work on a new embedded database
      // in the current folder (`migration:run` said "Applied: …" and exited 0).
      const cwd = mkdtempSync(join(tmpdir(), 'studio-env-file-'));
      try {
        const run = spawnSync(process.execPath, [resolve(REPO_ROOT, script), ...args], {
          cwd,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            ENV_FILE: join(cwd, 'studio.env.typo'),
            TABLES_FILE: resolve(REPO_ROOT, 'config/tables.json'),
            STUDIO_USER_PASSWORD: 'a long enough password for the ops',
          },
          encoding: 'utf8',
          timeout: 120_000,
        });
        expect({ code: run.status, stderr: run.stderr.trim() }).toEqual({
          code: 1,
          stderr: expect.stringMatching(
            new RegExp(
              `ENV_FILE ${join(cwd, 'studio.env.typo')} cannot be read \\(no such file\\)$`,
            ),
          ),
        });
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
        expect(existsSync(join(cwd, '.data'))).toBe(false);
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    },
  );

  it("npm run platform:kafka reads the env file the service reads, so the topics it plans are the service's", () => {
    const cwd = mkdtempSync(join(tmpdir(), 'studio-env-file-'));
    try {
      writeFileSync(
        join(cwd, 'studio.env'),
        'KAFKA_BROKERS=127.0.0.1:9\nKAFKA_TOPIC_PREFIX=prod.\n',
      );
      const run = spawnSync(
        process.execPath,
        [resolve(REPO_ROOT, 'dist/src/platforms-kafka/main.js'), 'setup', 'casino-a', '--print'],
        {
          cwd,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            ENV_FILE: join(cwd, 'studio.env'),
            TABLES_FILE: resolve(REPO_ROOT, 'config/tables.json'),
          },
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect({ code: run.status, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      // Before, the env file went unread: "KAFKA_BROKERS is not set", or with the brokers set in
      // the shell, topics without the prefix the service publishes and reads under.
      expect(run.stdout).toContain('prod.studio.platform.casino-a.commands.v2');
      expect(run.stdout).not.toMatch(/[\s=]studio\.platform\.casino-a/);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it.each([
    [
      'a HOST that is not an address of this machine',
      { HOST: '10.9.9.9', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/studio' },
      /^Configuration error: HOST "10\.9\.9\.9" is not an address of this machine: .*EADDRNOTAVAIL/,
    ],
    [
      'a HOST that does not resolve',
      { HOST: 'no-such-host.invalid', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/studio' },
      /^Configuration error: HOST "no-such-host\.invalid" is not a name this machine can resolve: .*ENOTFOUND/,
    ],
    [
      'a PGLITE_DATA_DIR that is a file',
      { PGLITE_DATA_DIR: '/etc/hostname' },
      /^Configuration error: PGLITE_DATA_DIR: \/etc\/hostname is not a folder/,
    ],
  ])(
    'refuses %s as a wrong setting: one line, exit 78 (no restart loop under systemd)',
    async (_what, env, line) => {
      // Before: HOST exited 1 ("Start-up failed: HTTP port … cannot be opened"), so systemd
      // restarted it every 2 s for good; PGLITE_DATA_DIR said "Start-up failed" with exit 78.
      const { code, lines, foreign } = await failure(env);
      expect({ code, lines }).toEqual({ code: 78, lines: [expect.stringMatching(line)] });
      expect(foreign).toEqual([]);
    },
  );
});
