import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { QueryRunner } from 'typeorm';

/**
 * A server-side function's one source file (`<module>/sql/<name>.sql`): a single
 * `CREATE OR REPLACE FUNCTION <name>(...)` whose body is quoted `$fn$ ... $fn$`. The body is what
 * PostgreSQL keeps as the function's source (`pg_proc.prosrc`), so what the database holds can be
 * compared with the file.
 */
export interface FunctionFile {
  name: string;
  path: string;
  /** The whole file, executed as it is. */
  text: string;
  /** Between the $fn$ quotes. */
  body: string;
  /** sha256 of the text: a file edited in any way (its header too) is applied again. */
  checksum: string;
}

const CREATE = /^CREATE OR REPLACE FUNCTION ([a-z_][a-z0-9_]*)\(/gm;
const QUOTE = '$fn$';

/** Reads and checks a function file; a file that breaks the convention fails with what it broke. */
export function readFunctionFile(path: string): FunctionFile {
  const text = readFileSync(path, 'utf8');
  const name = basename(path, '.sql');
  const fail = (what: string) => new Error(`Function file ${path}: ${what}`);
  const created = [...text.matchAll(CREATE)].map((m) => m[1]);
  if (created.length !== 1 || created[0] !== name) {
    throw fail(
      `must hold exactly one "CREATE OR REPLACE FUNCTION ${name}(" (found: ${created.join(', ') || 'none'})`,
    );
  }
  const open = text.indexOf(QUOTE);
  const close = text.lastIndexOf(QUOTE);
  if (open < 0 || close === open || text.indexOf(QUOTE, open + 1) !== close) {
    throw fail(`the body must be quoted ${QUOTE} ... ${QUOTE}, once`);
  }
  if (text.slice(close + QUOTE.length).trim() !== ';') {
    throw fail(`nothing but ";" may follow the body's closing ${QUOTE}`);
  }
  return {
    name,
    path,
    text,
    body: text.slice(open + QUOTE.length, close),
    checksum: createHash('sha256').update(text).digest('hex'),
  };
}

/**
 * Which function file was applied last, by checksum: the repeatable part of the schema, as
 * `schema_migrations` is the versioned part. Created by the migration code itself, like
 * `schema_migrations`.
 */
const RECORD_TABLE = `
  CREATE TABLE IF NOT EXISTS schema_functions (
    name text PRIMARY KEY,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL
  )`;

const RECORD = `
  INSERT INTO schema_functions (name, checksum, applied_at) VALUES ($1, $2, now())
  ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = EXCLUDED.applied_at`;

/** Per file name, the source of each function of that name the schema holds. */
const HELD = `
  SELECT f.name,
         ARRAY(SELECT p.prosrc FROM pg_proc p
                WHERE p.proname = f.name AND p.pronamespace = current_schema()::regnamespace) AS sources
    FROM unnest($1::text[]) AS f(name)`;

/** The checksums recorded, none before the first function file was applied. */
async function recordedChecksums(runner: QueryRunner): Promise<Map<string, string>> {
  const [{ exists }] = await runner.query(
    `SELECT to_regclass('schema_functions') IS NOT NULL AS exists`,
  );
  if (!exists) return new Map();
  const rows: Array<{ name: string; checksum: string }> = await runner.query(
    `SELECT name, checksum FROM schema_functions`,
  );
  return new Map(rows.map((r) => [r.name, r.checksum]));
}

/**
 * Creates (or replaces) the file's function and records its checksum, in the caller's
 * transaction: a versioned migration whose DDL needs the function (a trigger) applies it so.
 */
export async function applyFunctionFile(runner: QueryRunner, file: FunctionFile): Promise<void> {
  await runner.query(RECORD_TABLE);
  await runner.query(file.text);
  await runner.query(RECORD, [file.name, file.checksum]);
}

/**
 * The files the database does not hold as they are: never applied, edited since (checksum), or
 * whose function's source differs from the file's body or is missing (a migration's down dropped
 * it, someone replaced it by hand), or is held more than once (an overload left behind by a
 * signature change: the versioned migration that changes a signature drops the old one).
 */
export async function changedFunctionFiles(
  runner: QueryRunner,
  files: readonly FunctionFile[],
): Promise<FunctionFile[]> {
  const recorded = await recordedChecksums(runner);
  const rows: Array<{ name: string; sources: string[] }> = await runner.query(HELD, [
    files.map((f) => f.name),
  ]);
  const held = new Map(rows.map((r) => [r.name, r.sources]));
  return files.filter((file) => {
    const sources = held.get(file.name) ?? [];
    return (
      recorded.get(file.name) !== file.checksum || sources.length !== 1 || sources[0] !== file.body
    );
  });
}

/**
 * Applies every changed file, in the list's order, in one transaction: all functions of a release
 * replace the previous ones together. Returns the names applied. Runs after the versioned
 * migrations, under their lock.
 */
export async function applyChangedFunctionFiles(
  runner: QueryRunner,
  files: readonly FunctionFile[],
): Promise<string[]> {
  await runner.startTransaction();
  try {
    const changed = await changedFunctionFiles(runner, files);
    for (const file of changed) await applyFunctionFile(runner, file);
    await runner.commitTransaction();
    return changed.map((f) => f.name);
  } catch (error) {
    await runner.rollbackTransaction();
    throw error;
  }
}
