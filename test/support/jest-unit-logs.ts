/**
 * Unit tests' setup (jest `setupFilesAfterEnv`): what the code under test logs through Nest's
 * logger goes to test-artifacts/logs/unit/<spec path>.log instead of the runner's stdout, so a
 * passing `npm test` shows jest's lines only (a spec that provokes a fault on purpose would
 * otherwise print an ERROR line that is no alarm). Specs that spy on the logger still see every
 * call.
 */
import { rmSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { logNestTo } from './nest-file-logger';

const ROOT = resolve(__dirname, '..', '..');
const LOG_DIR = resolve(ROOT, 'test-artifacts', 'logs', 'unit');

function unitLogFile(testPath: string): string {
  const name = relative(ROOT, testPath)
    .replace(/\.spec\.ts$/, '')
    .replace(/[\\/]/g, '__');
  return resolve(LOG_DIR, `${name}.log`);
}

const file = unitLogFile(expect.getState().testPath ?? 'unknown');
rmSync(file, { force: true });
logNestTo(file);
