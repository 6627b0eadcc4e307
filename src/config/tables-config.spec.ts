import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POK_DENG_RULES } from '@studio/games/pok-deng';
import { loadTableDefinitions, parseTableDefinitions } from './tables-config';

const POK_DENG_PAYOUTS = POK_DENG_RULES.payouts;

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
    expect(() => parseTableDefinitions([{ ...TABLE, rules: { deckCount: 17 } }], 'F')).toThrow(
      'F table #1 ("t-1"): "rules.deckCount" must be a whole number from 1 to 16 (got 17)',
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

  it('refuses rules the game cannot play, naming the rule, before any round meets them', () => {
    const refused = (rules: Record<string, unknown>, game: Record<string, unknown> = TABLE) => {
      try {
        parseTableDefinitions([{ ...game, rules }], 'F');
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    // Before: the service started and the table's first round failed for good at betting's end
    // ("Cannot read properties of undefined (reading 'a')"): the payouts replace the defaults whole.
    expect(refused({ payouts: { pair: { a: 15, b: 1 } } })).toBe(
      'F table #1 ("t-1"): "rules.payouts" must give every part of it, as its default {"playerWin":{"a":1,"b":1},"playerWinSpecialPattern":{"a":2,"b":1},"bankerWin":{"a":1,"b":1},"bankerWinSpecialPattern":{"a":2,"b":1},"pair":{"a":11,"b":1}} does: "playerWin" is missing',
    );
    expect(refused({ deck: 6 })).toMatch(
      /^F table #1 \("t-1"\): "rules.deck" is not a rule of this game \(rules: deckCount, burnValues, /,
    );
    expect(refused({ blackjackPays: { a: 'x', b: 0 } }, IBJ)).toBe(
      'F table #1 ("ibj-1"): "rules.blackjackPays.a" must be a number of at least 0, as its default 3 (got "x")',
    );
    expect(refused({ blackjackPays: { a: 6, b: 0 } }, IBJ)).toBe(
      'F table #1 ("ibj-1"): "rules.blackjackPays.b" must not be 0: it divides the payout (got {"a":6,"b":0})',
    );
    expect(refused({ variant: 'lux' }, IBJ)).toMatch(/"rules.variant" is not a rule of this game/);
    expect(refused({ peek: 'yes' }, IBJ)).toBe(
      'F table #1 ("ibj-1"): "rules.peek" must be a boolean, as its default true (got "yes")',
    );
    // What the games take stays accepted.
    expect(refused({ blackjackPays: { a: 6, b: 5 }, decks: 6 }, IBJ)).toBe('accepted');
    expect(
      refused(
        { maxSeatsPerPlayer: 3 },
        { id: 'lux-1', name: 'Lux', game: 'blackjack-lux', currency: 'EUR' },
      ),
    ).toBe('accepted');
    expect(
      refused(
        { bots: [{ seat: 1, level: 'hard' }] },
        { id: 'p-1', name: 'P', game: 'european-blackjack-practice', currency: 'XPT' },
      ),
    ).toBe('accepted');
    expect(
      refused({ depositMultiple: 5, payouts: { ...POK_DENG_PAYOUTS, pair: { a: 15, b: 1 } } }),
    ).toBe('accepted');
  });

  it('refuses two tables fed by one reader (a copied entry), naming both', () => {
    const reading = (id: string, scanner: Record<string, unknown>) => ({ ...TABLE, id, scanner });
    expect(() =>
      parseTableDefinitions(
        [
          reading('t-1', { wireFormat: 'line', path: '/dev/ttyUSB0' }),
          reading('t-2', { wireFormat: 'line', path: '/dev/ttyUSB1' }),
          reading('t-3', { wireFormat: 'line', path: '/dev/ttyUSB0' }),
        ],
        'F',
      ),
    ).toThrow(
      'F table #3 ("t-3"): "scanner.path" is also table "t-1"\'s: one reader feeds one table',
    );
    // Over TCP both tables read every card of the one shoe and dealt it twice.
    expect(() =>
      parseTableDefinitions(
        [
          reading('t-1', { wireFormat: 'line', path: 'tcp://10.0.4.21:4001' }),
          reading('t-2', { wireFormat: 'line', path: 'TCP://10.0.4.21:4001' }),
        ],
        'F',
      ),
    ).toThrow(/"scanner.path" is also table "t-1"'s/);
    expect(() =>
      parseTableDefinitions(
        [
          reading('t-1', { wireFormat: 'line', virtualShoe: { tcpPort: 4555 } }),
          reading('t-2', { wireFormat: 'line', virtualShoe: { tcpPort: 4555 } }),
        ],
        'F',
      ),
    ).toThrow(/"scanner.virtualShoe.tcpPort" is also table "t-1"'s/);
    // Any free port (0) and virtual shoes on pty pairs are each their own.
    expect(
      parseTableDefinitions(
        [
          reading('t-1', { wireFormat: 'line', virtualShoe: { tcpPort: 0 } }),
          reading('t-2', { wireFormat: 'line', virtualShoe: { tcpPort: 0 } }),
          reading('t-3', { wireFormat: 'line' }),
          reading('t-4', { wireFormat: 'line' }),
        ],
        'F',
      ),
    ).toHaveLength(4);
  });
});
