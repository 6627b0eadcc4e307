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
