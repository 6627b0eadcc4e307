import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from './environment';
import { serviceLogFile } from './service-log-file';

export const MAIN_JS = resolve(REPO_ROOT, 'dist/src/main.js');

export interface ServiceProcess {
  child: ChildProcess;
  /** Sends the signal to the service and every process it started (socat pty pairs). */
  killGroup(signal: NodeJS.Signals): void;
  stdout(): string;
  stderr(): string;
  /** Resolves with the URL from the "listening on" log line. */
  listening(timeoutMs?: number): Promise<string>;
  exited(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function processLog(pid: number | undefined) {
  const testPath = (globalThis as { expect?: jest.Expect }).expect?.getState().testPath;
  if (!testPath || pid === undefined) return undefined;
  const file = serviceLogFile(testPath).replace(/\.log$/, `.${pid}.log`);
  mkdirSync(resolve(file, '..'), { recursive: true });
  return createWriteStream(file).on('error', () => undefined);
}

/**
 * Runs the built service (`npm start` runs the same file) as a child process with exactly the
 * environment given, plus PATH so node can be found. Not the developer's `.env` either: the
 * service reads one from its folder, so a `DATABASE_URL` kept there made a test's service (on the
 * embedded default, say) join the developer's own database; a test that means one names ENV_FILE.
 */
export function spawnService(env: Record<string, string>, cwd = REPO_ROOT): ServiceProcess {
  if (!existsSync(MAIN_JS)) {
    throw new Error(`${MAIN_JS} is missing: run \`npm run build\` first (npm test does)`);
  }
  const child = spawn(process.execPath, [MAIN_JS], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ENV_FILE: '/dev/null', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so killGroup() also ends the socat children it started.
    detached: true,
  });
  let out = '';
  let err = '';
  // Kept after the run too (test-artifacts/logs/<test file>.<pid>.log): a passing test that took
  // long, or a failure the test's own message does not explain, is read from there.
  const log = processLog(child.pid);
  child.stdout!.on('data', (d) => {
    out += d.toString();
    log?.write(d);
  });
  child.stderr!.on('data', (d) => {
    err += d.toString();
    log?.write(d);
  });
  child.once('close', () => log?.end());
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  const killGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      child.kill(signal);
    }
  };
  return {
    child,
    killGroup,
    stdout: () => out,
    stderr: () => err,
    // Generous: a first start on a new embedded folder creates and migrates the database, and CI
    // runs these files beside the unit tests and the quality gates on two cores.
    async listening(timeoutMs = 180_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const match = out.match(/listening on (http:\/\/[^\s"]+)/);
        if (match) return match[1];
        if (child.exitCode !== null) {
          throw new Error(`service exited with ${child.exitCode}: ${err || out}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      // Not left running: it would hold its ports and data folder against the next start.
      killGroup('SIGKILL');
      throw new Error(`service did not start in ${timeoutMs} ms: ${err || out}`);
    },
    async exited(timeoutMs = 90_000) {
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          exit,
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`service did not exit in ${timeoutMs} ms`)),
              timeoutMs,
            );
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
