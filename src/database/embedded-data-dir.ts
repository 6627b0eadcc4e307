import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../common/config-error';

/** What a folder may hold besides a database: a new volume's lost+found, hidden files. */
const IGNORED = (name: string) => name === 'lost+found' || name.startsWith('.');

/**
 * PGLITE_DATA_DIR must be empty (a first start creates the database there) or hold a database
 * (PG_VERSION). A folder of other files (a home folder, the parent of the database folder) is
 * refused: PGlite would write a database among them, or fail with a bare file-system error
 * ("ErrnoError") after loading for several seconds.
 */
export function ensureDatabaseFolder(dataDir: string): void {
  const path = resolve(dataDir);
  const entries = readdirSync(path).filter((name) => !IGNORED(name));
  if (entries.length === 0 || entries.includes('PG_VERSION')) return;
  const shown = entries.sort().slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
  throw new ConfigError(
    `PGLITE_DATA_DIR: ${path} holds other files (${shown}) and no database (no PG_VERSION): give it an empty or new folder`,
  );
}
