import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTableDefinitions, parseTableDefinitions } from './tables-config';

const TABLE = { id: 't-1', name: 'Table 1', game: 'pok-deng', currency: 'THB' };

describe('loadTableDefinitions', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tables-config-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file an editor saved with a byte-order mark (Notepad’s UTF-8)', () => {
    const file = join(dir, 'tables.json');
    writeFileSync(file, `\uFEFF${JSON.stringify([TABLE])}`);
    expect(loadTableDefinitions(file).map((t) => t.id)).toEqual(['t-1']);
  });
});

describe('parseTableDefinitions', () => {
  it('refuses a known setting spelt in another case, which would silently keep the default', () => {
    expect(() => parseTableDefinitions([{ ...TABLE, bettingWindowMS: 20_000 }], 'F')).toThrow(
      'F table #1 ("t-1"): "bettingWindowMS" is not a setting: did you mean "bettingWindowMs"?',
    );
    expect(() => parseTableDefinitions([{ ...TABLE, Limits: {} }], 'F')).toThrow(
      /"Limits" is not a setting: did you mean "limits"\?/,
    );
  });

  it('keeps settings of its own that look like no known one', () => {
    const [table] = parseTableDefinitions([{ ...TABLE, studioCamera: 'cam-3' }], 'F');
    expect(table.studioCamera).toBe('cam-3');
  });
});
