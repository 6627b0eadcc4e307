import { FunctionFile, readFunctionFile } from '../src/database/schema-functions';
import { HISTORY_FUNCTION_FILES } from '../src/history/sql';
import { OUTBOX_FUNCTION_FILES } from '../src/outbox/sql';

/**
 * The schema's server-side functions: each lives in one `.sql` file under the module that owns it
 * (its body exactly as it runs) and is *repeatable*, not versioned: after the versioned
 * migrations, under the same lock, every file the database does not hold as it is (checksum in
 * `schema_functions`, source in `pg_proc`) is applied with CREATE OR REPLACE. No migration patches
 * a body.
 *
 * The migrations that once created these functions with the body of their day now apply the
 * file's current version. A fresh database so has each function from the migration that
 * introduced it on (the triggers of StatementRoundChecks need theirs to exist), already in its
 * current form: PL/pgSQL resolves the tables and functions it names when called, not when created,
 * so a body written later is valid at that point of the history. A database migrated long ago
 * holds the bodies those migrations gave it, and the repeatable step replaces them with the files'.
 * Either way it ends with the files' bodies, which the function-files integration test checks.
 *
 * Changing a function's arguments or return type (CREATE OR REPLACE cannot) takes a versioned
 * migration that drops the old one (`DROP FUNCTION IF EXISTS name(old argument types)`, a no-op on
 * a fresh database); the repeatable step then creates the new one.
 */
export const STUDIO_FUNCTION_FILES: readonly string[] = [
  ...OUTBOX_FUNCTION_FILES,
  ...HISTORY_FUNCTION_FILES,
];

/** Every function file, read and checked. */
export function studioFunctionFiles(): FunctionFile[] {
  return STUDIO_FUNCTION_FILES.map(readFunctionFile);
}

/** The one file of the function `name`, for a migration that applies it. */
export function functionFile(name: string): FunctionFile {
  const file = studioFunctionFiles().find((f) => f.name === name);
  if (!file) throw new Error(`No function file for ${name} in STUDIO_FUNCTION_FILES`);
  return file;
}
