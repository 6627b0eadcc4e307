import { ChildProcess, execFile, spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../support/environment';
import { Fatal, waitFor } from '../support/wait-for';

jest.setTimeout(600_000);

const run = promisify(execFile);

/** The release as docs/operations.md ships it: the paths listed in deploy/release-files.txt. */
function releaseFiles(): string[] {
  return readFileSync(join(REPO_ROOT, 'deploy/release-files.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

/** Every package the compiled service code requires (not the dev tools under dist/apps, bench). */
function requiredPackages(root: string): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.js')) {
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/require(?:\.resolve)?\(\s*["']([^"']+)["']\s*\)/g)) {
          const spec = m[1];
          if (spec.startsWith('.') || spec.startsWith('node:') || builtinModules.includes(spec)) {
            continue;
          }
          names.add(spec);
        }
      }
    }
  };
  for (const folder of ['src', 'libs', 'migrations']) walk(join(root, 'dist', folder));
  return names;
}

/**
 * The production start an operator runs: the built service copied on its own into a fresh folder,
 * `npm ci --omit=dev` (no compiler, no test tools) and `npm run start:prod`, which builds nothing.
 */
describe('the production start', () => {
  let folder: string;
  let service: ChildProcess | undefined;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'studio-release-'));
    for (const path of releaseFiles()) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      cpSync(join(REPO_ROOT, path), join(folder, path), { recursive: true });
    }
  });

  afterAll(async () => {
    if (service && service.exitCode === null && service.signalCode === null) {
      process.kill(-service.pid!, 'SIGKILL');
      await new Promise((r) => service!.once('exit', r));
    }
    rmSync(folder, { recursive: true, force: true });
  });

  it('installs production dependencies only and runs the build to ready', async () => {
    await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: folder,
      env: { ...process.env, NODE_ENV: 'production' },
      maxBuffer: 16 * 1024 * 1024,
    });
    // No compiler, no jest: the start cannot lean on a dev dependency.
    for (const dev of ['typescript', '@swc/core', 'jest', '@nestjs/testing']) {
      expect(() => require.resolve(dev, { paths: [folder] })).toThrow();
    }
    // Every package the compiled code requires, also the ones loaded lazily (pino-pretty for a
    // terminal, PGlite for the embedded database), is installed.
    const unresolved = [...requiredPackages(folder)].filter((spec) => {
      try {
        require.resolve(spec, { paths: [folder] });
        return false;
      } catch {
        return true;
      }
    });
    expect(unresolved).toEqual([]);

    const dataDir = join(folder, 'pglite');
    let out = '';
    let err = '';
    service = spawn('npm', ['run', '--silent', 'start:prod'], {
      cwd: folder,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? folder,
        NODE_ENV: 'production',
        PORT: '0',
        HOST: '127.0.0.1',
        PGLITE_DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    service.stdout!.on('data', (d) => (out += d.toString()));
    service.stderr!.on('data', (d) => (err += d.toString()));
    const url = await waitFor(
      'the "listening on" line',
      () => {
        if (service!.exitCode !== null) {
          throw new Fatal(new Error(`exited ${service!.exitCode}: ${err}`));
        }
        return out.match(/listening on (http:\/\/[^\s"]+)/)?.[1];
      },
      300_000,
    );
    // Each readiness check has a short deadline of its own, so a service just started on a
    // loaded machine may answer 503 for a moment: ready means 200 within a minute.
    const ready = await waitFor(
      'readiness 200',
      async () => {
        const answer = await fetch(`${url}/health/ready`);
        return answer.status === 200 ? answer : undefined;
      },
      60_000,
    );
    expect(await ready.json()).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'ok' } },
    });
    // Files read at run time (console pages) come from the release, not the repository.
    expect((await fetch(`${url}/console/`)).status).toBe(200);
    // The service ran from the release folder, not from a build step.
    expect(out).not.toMatch(/built \d+ files into dist/);
    expect(out).toContain(dataDir);

    // SIGTERM to the group, as a terminal's Ctrl-C reaches npm and the service together: npm
    // ends at once by the signal, the service drains and logs its stop.
    process.kill(-service.pid!, 'SIGTERM');
    await waitFor(
      `the "stopped" line (${out.slice(-400)} ${err})`,
      () => /Studio service stopped/.test(out),
      30_000,
    );
    expect(err).not.toMatch(/Shutdown .* failed|longer than/);
  });

  it('ships a systemd unit that systemd-analyze verifies without a warning', async () => {
    const unitDir = join(folder, 'unit');
    mkdirSync(unitDir);
    let unit = readFileSync(join(REPO_ROOT, 'deploy/systemd/live-dealer-studio.service'), 'utf8');
    // The unit names Debian's /usr/bin/node; verify checks that ExecStart exists, so a machine
    // with node elsewhere checks its own node.
    unit = unit.replace('/usr/bin/node', process.execPath);
    const path = join(unitDir, 'live-dealer-studio.service');
    writeFileSync(path, unit);
    const result = await run('systemd-analyze', ['verify', path]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    // Unknown keys and bad values are only warnings (exit 0): none may mention the unit.
    const warnings = result.stderr
      .split('\n')
      .filter((line) => line.includes('live-dealer-studio'));
    expect(warnings).toEqual([]);
    expect('code' in result ? result.code : 0).toBe(0);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^EnvironmentFile=/m);
    // systemd waits longer than the service's own drain deadline (SHUTDOWN_TIMEOUT_MS, 10 s).
    expect(Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1])).toBeGreaterThan(10);
  });
});
