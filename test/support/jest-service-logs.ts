/**
 * Integration tests' setup (jest `setupFilesAfterEnv`): services started in-process write their
 * logs to test-artifacts/logs/<test file>.log instead of the runner's stdout, so `npm test` shows
 * jest's own lines only. A test that sets LOG_FILE itself keeps its own choice. Parts a test
 * drives without a studio (a table runtime, a publisher) log through Nest's logger into the same
 * file. Services spawned as child processes keep logging to their piped stdout, which the tests
 * read and never echo.
 */
import { rmSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type * as StudioConfigModule from '../../src/config/studio-config';
import { logNestTo } from './nest-file-logger';

const LOG_DIR = resolve(__dirname, '..', '..', 'test-artifacts', 'logs');

export function serviceLogFile(testPath: string): string {
  return resolve(LOG_DIR, `${basename(testPath).replace(/\.e2e-spec\.ts$/, '')}.log`);
}

// Each run of a test file starts its log afresh.
rmSync(serviceLogFile(expect.getState().testPath ?? 'unknown'), { force: true });
logNestTo(serviceLogFile(expect.getState().testPath ?? 'unknown'));

jest.mock('../../src/config/studio-config', () => {
  const actual = jest.requireActual<typeof StudioConfigModule>('../../src/config/studio-config');
  return {
    ...actual,
    loadStudioConfig: (env: Record<string, string | undefined>, options?: { terminal?: boolean }) =>
      actual.loadStudioConfig(
        { LOG_FILE: serviceLogFile(expect.getState().testPath ?? 'unknown'), ...env },
        options,
      ),
  };
});
