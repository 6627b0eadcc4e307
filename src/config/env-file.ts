import { existsSync, statSync } from 'node:fs';
import { ConfigError } from '../common/config-error';
import { oneLine } from '../common/one-line';

/**
 * The env file (never overrides variables already set): `.env` if there is one, or ENV_FILE, which
 * must then be readable. The service and the command-line tools (migrations, users, platforms)
 * read it the same way: the tools used to pass over an ENV_FILE they could not find, so a mistyped
 * one ran `npm run migration:run` on a new embedded database in the current folder (exit 0,
 * "Applied: …") instead of the PostgreSQL the file names.
 */
export function loadEnvFile(named: string | undefined): void {
  const file = named ?? '.env';
  if (!named && !existsSync(file)) return;
  try {
    process.loadEnvFile(file);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const why = !existsSync(file)
      ? 'no such file'
      : statSync(file).isDirectory()
        ? 'it is a folder'
        : e.code === 'ENOENT'
          ? 'permission denied' // Node says ENOENT for a file it may not read
          : (e.code ?? oneLine(e));
    throw new ConfigError(`ENV_FILE ${file} cannot be read (${why})`);
  }
}
