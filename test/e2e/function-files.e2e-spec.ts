import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource, QueryRunner } from 'typeorm';
import { studioFunctionFiles } from '../../migrations/functions';
import {
  applyChangedFunctionFiles,
  changedFunctionFiles,
  FunctionFile,
  readFunctionFile,
} from '../../src/database/schema-functions';
import { migrationsCheck } from '../../src/database/database-readiness';
import { migrateSchema, revertLastMigration } from '../../src/database/schema-migrations';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

/**
 * What a function's definition is once its file is applied: the file created in a scratch schema
 * (rolled back), as pg_get_functiondef prints it, with the scratch schema's name as `public`.
 */
async function definitionOf(runner: QueryRunner, file: FunctionFile): Promise<string> {
  await runner.startTransaction();
  try {
    await runner.query(`CREATE SCHEMA function_file_scratch`);
    await runner.query(`SET LOCAL search_path = function_file_scratch`);
    // A LANGUAGE sql body is checked against tables at creation; the scratch schema has none.
    await runner.query(`SET LOCAL check_function_bodies = off`);
    await runner.query(file.text);
    const [row] = await runner.query(
      `SELECT pg_get_functiondef(p.oid) AS def FROM pg_proc p
        WHERE p.proname = $1 AND p.pronamespace = 'function_file_scratch'::regnamespace`,
      [file.name],
    );
    return (row.def as string).replace(/function_file_scratch\./g, 'public.');
  } finally {
    await runner.rollbackTransaction();
  }
}

/** Every function of the file's name the database holds: definition, source, recorded checksum. */
async function held(ds: DataSource, file: FunctionFile) {
  const rows: Array<{ def: string; src: string }> = await ds.query(
    `SELECT pg_get_functiondef(p.oid) AS def, p.prosrc AS src FROM pg_proc p
      WHERE p.proname = $1 AND p.pronamespace = 'public'::regnamespace`,
    [file.name],
  );
  const [recorded] = await ds.query(`SELECT checksum FROM schema_functions WHERE name = $1`, [
    file.name,
  ]);
  return { rows, checksum: recorded?.checksum as string | undefined };
}

/** Fails, naming the function, unless the database holds exactly the file's function. */
async function expectHeldAsFile(ds: DataSource, file: FunctionFile): Promise<void> {
  const runner = ds.createQueryRunner();
  try {
    const { rows, checksum } = await held(ds, file);
    expect({ name: file.name, count: rows.length }).toEqual({ name: file.name, count: 1 });
    expect({ name: file.name, source: rows[0].src }).toEqual({
      name: file.name,
      source: file.body,
    });
    expect(rows[0].def).toBe(await definitionOf(runner, file));
    expect({ name: file.name, checksum }).toEqual({ name: file.name, checksum: file.checksum });
  } finally {
    await runner.release();
  }
}

/** The body a database migrated before the fence took key-share locks still holds. */
const beforeKeyShare = (body: string) => body.replace(/FOR KEY SHARE;/g, 'FOR SHARE;');

/**
 * Server-side functions as source files on the real PostgreSQL: what the database holds is each
 * file as it is, whether the database is new or was migrated long ago, and a file edited since it
 * was applied is found and applied again.
 */
describe('function files', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const files = studioFunctionFiles();

  beforeAll(async () => {
    db = await createTestDatabase('function_files');
    ds = await db.migrated();
  });

  afterAll(() => db.drop());

  it('a new database holds every function exactly as its file has it', async () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) await expectHeldAsFile(ds, file);
    const runner = ds.createQueryRunner();
    try {
      expect(await changedFunctionFiles(runner, files)).toEqual([]);
    } finally {
      await runner.release();
    }
  });

  it('finds a file edited but not applied, and applies it (and only it) on the next run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'function-files-'));
    const runner = ds.createQueryRunner();
    try {
      const original = files.find((f) => f.name === 'studio_refuse_reference_change')!;
      const path = join(dir, `${original.name}.sql`);
      writeFileSync(path, original.text.replace('BEGIN\n', 'BEGIN\n  -- edited\n'));
      const edited = readFunctionFile(path);
      expect(edited.body).not.toBe(original.body);

      // The comparison fails for the edited file while the database still holds the original.
      await expect(expectHeldAsFile(ds, edited)).rejects.toThrow();
      expect(await changedFunctionFiles(runner, [edited])).toEqual([edited]);

      const release = files.map((f) => (f.name === edited.name ? edited : f));
      expect(await applyChangedFunctionFiles(runner, release)).toEqual([edited.name]);
      await expectHeldAsFile(ds, edited);
      // And back: the repository's file is now the one not applied.
      expect((await migrateSchema(ds)).functions).toEqual([original.name]);
      await expectHeldAsFile(ds, original);
    } finally {
      await runner.release();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('replaces a body changed behind its record (same checksum, other source)', async () => {
    const fence = files.find((f) => f.name === 'studio_commit_transitions')!;
    await ds.query(fence.text.replace(fence.body, () => beforeKeyShare(fence.body)));
    await expect(expectHeldAsFile(ds, fence)).rejects.toThrow();
    // The service's readiness says so until the next run applies the file again.
    expect(await migrationsCheck(ds).check()).toMatchObject({ status: 'error' });
    expect((await migrateSchema(ds)).functions).toEqual([fence.name]);
    await expectHeldAsFile(ds, fence);
    expect(await migrationsCheck(ds).check()).toEqual({ status: 'ok' });
  });

  it('a database migrated long ago ends with the files’ bodies too', async () => {
    // As it was before this release: LeaseFenceKeyShare not yet run, the transition functions
    // locking FOR SHARE, no function recorded.
    const reverted: string[] = [];
    while (!reverted.includes('LeaseFenceKeyShare1764870000000')) {
      reverted.unshift((await revertLastMigration(ds))!);
    }
    for (const name of ['studio_commit_transition', 'studio_commit_transitions']) {
      const file = files.find((f) => f.name === name)!;
      expect(file.body).toContain('FOR KEY SHARE;');
      await ds.query(file.text.replace(file.body, () => beforeKeyShare(file.body)));
    }
    await ds.query(`DROP TABLE schema_functions`);

    const run = await migrateSchema(ds);
    expect(run.migrations).toEqual(reverted);
    // RoundStakes, ScannerReadingHours and RoundHours, among the migrations run again, apply their
    // triggers' functions themselves (a trigger needs its function); the repeatable step applies
    // the rest.
    const byMigration = [
      'studio_sum_round_stakes',
      'studio_count_scanner_readings',
      'studio_count_round_hours',
    ];
    expect(run.functions).toEqual(
      files.map((f) => f.name).filter((name) => !byMigration.includes(name)),
    );
    for (const file of files) await expectHeldAsFile(ds, file);
  });
});
