import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../common/config-error';
import { ensureDatabaseFolder } from './embedded-data-dir';
import { EmbeddedPostgres } from './embedded-postgres';

describe('ensureDatabaseFolder', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'embedded-dir-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('takes an empty folder, or one that holds a database', () => {
    expect(() => ensureDatabaseFolder(dir)).not.toThrow();
    writeFileSync(join(dir, 'PG_VERSION'), '17');
    mkdirSync(join(dir, 'base'));
    expect(() => ensureDatabaseFolder(dir)).not.toThrow();
  });

  it('takes a new volume’s lost+found and hidden files (.gitkeep)', () => {
    mkdirSync(join(dir, 'lost+found'));
    writeFileSync(join(dir, '.gitkeep'), '');
    expect(() => ensureDatabaseFolder(dir)).not.toThrow();
  });

  it('refuses a folder of other files, naming them, before PGlite writes a database among them', () => {
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    mkdirSync(join(dir, 'db'));
    let error: unknown;
    try {
      ensureDatabaseFolder(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `PGLITE_DATA_DIR: ${dir} holds other files (db, notes.txt) and no database (no PG_VERSION): give it an empty or new folder`,
    );
  });

  it('is checked by the embedded database before PGlite opens the folder', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    await expect(new EmbeddedPostgres(dir, 0, 1).start()).rejects.toThrow(
      /holds other files \(notes\.txt\) and no database/,
    );
  });
});
