import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';

describe('lockDataDir', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('refuses a folder that is locked, naming the process that holds it, until it is released', async () => {
    const first = await lockDataDir(root);
    const second = lockDataDir(root);
    await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(second).rejects.toThrow(`pid ${process.pid}`);
    await first.release();
    const again = await lockDataDir(root);
    await again.release();
  });

  it('knows the folder by its real path, not by the path it was given', async () => {
    const link = join(mkdtempSync(join(tmpdir(), 'data-dir-link-')), 'data');
    symlinkSync(root, link);
    const held = await lockDataDir(root);
    try {
      await expect(lockDataDir(link)).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await held.release();
      rmSync(join(link, '..'), { recursive: true, force: true });
    }
  });

  it('lets different folders be locked side by side', async () => {
    const other = mkdtempSync(join(tmpdir(), 'data-dir-lock-other-'));
    const a = await lockDataDir(root);
    const b = await lockDataDir(other);
    await Promise.all([a.release(), b.release()]);
    rmSync(other, { recursive: true, force: true });
  });
});
