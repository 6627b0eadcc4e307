/**
 * Integration tests' setup (jest `setupFilesAfterEnv`): services started in-process write their
 * logs to test-artifacts/logs/<test file>.log instead of the runner's stdout, so `npm test` shows
 * jest's own lines only. A test that sets LOG_FILE itself keeps its own choice. Parts a test
 * drives without a studio (a table runtime, a publisher) log through Nest's logger into the same
 * file. Services spawned as child processes log to their piped stdout, which the tests read and
 * never echo; a copy goes to test-artifacts/logs/<test file>.<pid>.log (test/support/service-process).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type * as StudioConfigModule from '../../src/config/studio-config';
import { logNestTo } from './nest-file-logger';
import { serviceLogFile } from './service-log-file';

// Each run of a test file starts its logs afresh (its own, and its spawned services' <pid> copies).
const ownLog = serviceLogFile(expect.getState().testPath ?? 'unknown');
mkdirSync(dirname(ownLog), { recursive: true });
const spawnedLog = new RegExp(`^${basename(ownLog, '.log')}\\.\\d+\\.log$`);
for (const name of readdirSync(dirname(ownLog), { withFileTypes: true })) {
  if (name.isFile() && spawnedLog.test(name.name)) rmSync(resolve(dirname(ownLog), name.name));
}
rmSync(ownLog, { force: true });
logNestTo(ownLog);

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
