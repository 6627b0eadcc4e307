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

  const IBJ = { id: 'ibj-1', name: 'IBJ', game: 'infinite-blackjack', currency: 'EUR' };

  it('refuses rules that give the game a shoe it cannot deal, naming the table and the rule', () => {
    // Before: the service started, and the table failed to start every few seconds for good.
    expect(() => parseTableDefinitions([{ ...IBJ, rules: { decks: 0 } }], 'F')).toThrow(
      'F table #1 ("ibj-1"): "rules.decks" must be a whole number from 1 to 16 (got 0)',
    );
    expect(() => parseTableDefinitions([{ ...TABLE, rules: { deckCount: 'x' } }], 'F')).toThrow(
      'F table #1 ("t-1"): "rules.deckCount" must be a whole number from 1 to 16 (got "x")',
    );
  });

  it('deals the virtual shoe with the decks of the game, and refuses a shoe of another size', () => {
    const framed = { wireFormat: 'studio-framed-v1', virtualShoe: { seed: 1 } };
    const [lux] = parseTableDefinitions(
      [
        { id: 'lux-1', name: 'Lux', game: 'blackjack-lux', currency: 'EUR', rules: { decks: 6 } },
      ].map((t) => ({ ...t, scanner: framed })),
      'F',
    );
    // An 8-deck virtual shoe in a 6-deck game dealt a 7th copy of a card, refused every time.
    expect(lux.scanner).toMatchObject({ decks: 6, virtualShoe: { decks: 6 } });
    expect(() =>
      parseTableDefinitions(
        [{ ...TABLE, scanner: { wireFormat: 'line', virtualShoe: { seed: 1, decks: 16 } } }],
        'F',
      ),
    ).toThrow(
      'F table #1 ("t-1"): "scanner.virtualShoe.decks" must be the game\'s 8 decks, or be left out (the table\'s "rules" set the shoe\'s size) (got 16)',
    );
    expect(() =>
      parseTableDefinitions(
        [{ ...TABLE, scanner: { wireFormat: 'line', path: '/dev/ttyUSB0', decks: 6 } }],
        'F',
      ),
    ).toThrow(/"scanner.decks" must be the game's 8 decks/);
    const [matching] = parseTableDefinitions(
      [{ ...TABLE, rules: { deckCount: 1 }, scanner: { wireFormat: 'line', decks: 1 } }],
      'F',
    );
    expect(matching.scanner).toMatchObject({ decks: 1, virtualShoe: { decks: 1 } });
  });

  it('refuses rescan rules written in "scanner", where the table never read them', () => {
    expect(() =>
      parseTableDefinitions(
        [{ ...TABLE, scanner: { wireFormat: 'line', path: '/dev/ttyUSB0', maxFailedAttempts: 3 } }],
        'F',
      ),
    ).toThrow(
      'F table #1 ("t-1"): "scanner.maxFailedAttempts" is a rescan rule of the table: set "rescan.maxFailedAttempts" beside "scanner" (got 3)',
    );
  });
});
