import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { STUDIO_FUNCTION_FILES, studioFunctionFiles } from '../../migrations/functions';
import { readFunctionFile } from './schema-functions';

describe('function files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'function-file-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, text: string) => {
    const path = join(dir, `${name}.sql`);
    writeFileSync(path, text);
    return path;
  };

  it('reads the body between the $fn$ quotes and a checksum of the whole file', () => {
    const text = `-- why\nCREATE OR REPLACE FUNCTION f_one() RETURNS int\nLANGUAGE plpgsql AS $fn$\nBEGIN\n  RETURN 1;\nEND\n$fn$;\n`;
    const read = readFunctionFile(file('f_one', text));
    expect(read.name).toBe('f_one');
    expect(read.body).toBe('\nBEGIN\n  RETURN 1;\nEND\n');
    expect(read.text).toBe(text);
    const edited = readFunctionFile(file('f_one', text.replace('-- why', '-- why not')));
    expect(edited.body).toBe(read.body);
    expect(edited.checksum).not.toBe(read.checksum);
  });

  it.each([
    [
      'names another function than its file',
      'CREATE OR REPLACE FUNCTION f_other() RETURNS int\nLANGUAGE plpgsql AS $fn$ BEGIN RETURN 1; END $fn$;',
      'exactly one',
    ],
    [
      'creates two functions',
      'CREATE OR REPLACE FUNCTION f_bad() RETURNS int\nLANGUAGE sql AS $fn$ SELECT 1 $fn$;\nCREATE OR REPLACE FUNCTION f_bad(x int) RETURNS int\nLANGUAGE sql AS $fn$ SELECT 1 $fn$;',
      'exactly one',
    ],
    [
      'is a plain CREATE',
      'CREATE FUNCTION f_bad() RETURNS int\nLANGUAGE plpgsql AS $fn$ BEGIN RETURN 1; END $fn$;',
      'exactly one',
    ],
    [
      'quotes its body otherwise',
      'CREATE OR REPLACE FUNCTION f_bad() RETURNS int\nLANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;',
      'quoted',
    ],
    [
      'has more after the body',
      'CREATE OR REPLACE FUNCTION f_bad() RETURNS int\nLANGUAGE plpgsql AS $fn$ BEGIN RETURN 1; END $fn$;\nGRANT ALL ON FUNCTION f_bad() TO x;',
      'nothing but',
    ],
  ])('refuses a file that %s', (_, text, message) => {
    expect(() => readFunctionFile(file('f_bad', text))).toThrow(message);
  });

  it('lists every .sql file of the service, and each follows the convention', () => {
    const root = resolve(__dirname, '..', '..');
    const onDisk = ['src', 'libs'].flatMap((top) =>
      readdirSync(join(root, top), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.sql'))
        .map((f) => join(root, top, f)),
    );
    expect([...STUDIO_FUNCTION_FILES].sort()).toEqual(onDisk.sort());
    const names = studioFunctionFiles().map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
