import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const FIXTURES = resolve(ROOT, 'test/fixtures/boundaries');

function cruise(cwd: string, target: string): { code: number; output: string } {
  try {
    const output = execFileSync(
      resolve(ROOT, 'node_modules/.bin/depcruise'),
      ['--config', resolve(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err', target],
      { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return { code: 0, output };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, output: `${e.stdout}${e.stderr}` };
  }
}

describe('dependency rule: rules and protocol libraries import no framework code', () => {
  it('rejects a rules library that imports @nestjs/*', () => {
    const { code, output } = cruise(FIXTURES, 'libs/games');
    expect(code).not.toBe(0);
    expect(output).toContain('pure-libs-import-no-framework');
    expect(output).toContain('@nestjs/common');
  });

  it('rejects a protocol library that imports serialport or does file I/O', () => {
    const { code, output } = cruise(FIXTURES, 'libs/scanner-protocol');
    expect(code).not.toBe(0);
    expect(output).toContain('pure-libs-import-no-framework');
    expect(output).toContain('pure-libs-do-no-io');
  });

  it('accepts a clean library', () => {
    expect(cruise(FIXTURES, 'libs/cards').code).toBe(0);
  });
});

describe('dependency rule: the table core and the games are pure', () => {
  it('rejects a table-core file that imports @nestjs/* or does file I/O', () => {
    const { code, output } = cruise(FIXTURES, 'src/table-core/imports-nest-and-fs.ts');
    expect(code).not.toBe(0);
    expect(output).toContain('table-core-and-games-import-no-framework');
    expect(output).toContain('@nestjs/common');
    expect(output).toContain('table-core-and-games-do-no-io');
  });

  it('rejects a game that imports a broker or service code outside the core', () => {
    const { code, output } = cruise(FIXTURES, 'src/games/pok-deng/reaches-into-tables.ts');
    expect(code).not.toBe(0);
    expect(output).toContain('table-core-and-games-import-no-framework');
    expect(output).toContain('kafkajs');
    expect(output).toMatch(
      /table-core-and-games-import-only-the-core: .*src\/tables\/table-settings/,
    );
  });

  it('accepts a core file that uses src/common and the games', () => {
    const { code, output } = cruise(FIXTURES, 'src/table-core/clean.ts');
    expect(output).not.toContain('error');
    expect(code).toBe(0);
  });
});

describe('dependency rule: SQL only behind the history, database, outbox and auth', () => {
  it('rejects a use case that imports typeorm', () => {
    const { code, output } = cruise(FIXTURES, 'src/use-cases');
    expect(code).not.toBe(0);
    expect(output).toContain('use-cases-import-no-database');
    expect(output).toContain('database-only-in-history-database-outbox-auth');
  });

  it('rejects pg in service code outside those folders', () => {
    const { code, output } = cruise(FIXTURES, 'src/consoles');
    expect(code).not.toBe(0);
    expect(output).toMatch(
      /database-only-in-history-database-outbox-auth: src\/consoles\/imports-pg/,
    );
  });

  it('accepts typeorm in the history', () => {
    expect(cruise(FIXTURES, 'src/history').code).toBe(0);
  });
});
