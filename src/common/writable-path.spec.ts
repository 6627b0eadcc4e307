import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config-error';
import { ensureWritableFile, ensureWritableFolder } from './writable-path';

describe('ensureWritableFolder / ensureWritableFile', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'writable-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const refusal = (run: () => void) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('not refused');
  };

  it('creates the missing folders, level by level', () => {
    ensureWritableFolder('PGLITE_DATA_DIR', join(dir, 'a', 'b', 'c'));
    expect(statSync(join(dir, 'a', 'b', 'c')).isDirectory()).toBe(true);
    ensureWritableFile('LOG_FILE', join(dir, 'logs', 'service.log'));
    expect(statSync(join(dir, 'logs')).isDirectory()).toBe(true);
  });

  it('names the variable when the path cannot be a folder or a file', () => {
    writeFileSync(join(dir, 'file'), 'x');
    expect(refusal(() => ensureWritableFolder('PGLITE_DATA_DIR', join(dir, 'file', 'pg')))).toBe(
      `PGLITE_DATA_DIR: ${join(dir, 'file')} is not a folder (in ${join(dir, 'file', 'pg')})`,
    );
    expect(refusal(() => ensureWritableFile('LOG_FILE', dir))).toBe(
      `LOG_FILE: ${dir} is a folder, not a file`,
    );
  });

  it('refuses a folder it cannot create at once (Node recursive mkdir spins under /proc)', () => {
    expect(refusal(() => ensureWritableFile('LOG_FILE', '/proc/nope/service.log'))).toBe(
      'LOG_FILE: cannot create the folder /proc/nope: ENOENT',
    );
  });
});
