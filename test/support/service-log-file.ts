import { basename, resolve } from 'node:path';

const LOG_DIR = resolve(__dirname, '..', '..', 'test-artifacts', 'logs');

/** Where a test file's services log: test-artifacts/logs/<test file>.log. */
export function serviceLogFile(testPath: string): string {
  return resolve(LOG_DIR, `${basename(testPath).replace(/\.e2e-spec\.ts$/, '')}.log`);
}
