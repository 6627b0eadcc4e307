import type { CardCode } from '@studio/cards';
import { PtyPair } from '@studio/virtual-shoe';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { ConsoleBrowserKit, TestShoe } from '../support/console-browser';
import { postJson, signIn, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(300_000);

const PLATFORM_KEY = 'consoles-blackjack-key';
const PLAYERS = 120;

/**
 * Blackjack Lux, seats 1–3, dealt seat 1, 2, 3, dealer up, seat 1, 2, 3, hole: seat 1 A-6 (soft
 * 17, stands), seat 2 A-K (blackjack), seat 3 T-6 hits a 9 (bust 25); the dealer 6-T draws a K
 * (bust 26).
 */
const LUX_ROUND: CardCode[] = ['AS', 'AH', 'TD', '6C', '6H', 'KC', '6D', 'TC', '9S', 'KD'];

/**
 * Infinite Blackjack, dealt player, dealer up, player, hole: the player hand 7-5 (12) against a
 * ten; common draws 4 (16 for those who hit) and 9 (bust for those who hit again); the dealer
 * 10-6 draws a K (bust 26).
 */
const INFINITE_ROUND: CardCode[] = ['7S', 'TC', '5H', '6D', '4C', '9D', 'KH'];

/**
 * The consoles at blackjack tables, in the browser against the real service, each table's scanner
 * a real pseudo-terminal fed a stacked shoe: the dealer sees the hands with their totals as a
 * dealer calls them (soft 17, blackjack, bust, "showing" while the hole card is down, which never
 * reaches the page), the auditor reads a 120-player Infinite Blackjack round on a screen or two
 * with its player groups named as the game names them, and rounds still being played are marked.
 */
describe('blackjack hands and long rounds in the consoles', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let ptyDir: string;
  let luxShoe: TestShoe;
  let infiniteShoe: TestShoe;
  let token: string;
  const kit = new ConsoleBrowserKit();
  const platform = { 'x-platform-key': PLATFORM_KEY };
  const ids: { lux?: string; infinite?: string } = {};

  beforeAll(async () => {
    ptyDir = mkdtempSync(join(tmpdir(), 'studio-bj-consoles-'));
    luxShoe = new TestShoe(
      await PtyPair.start(ptyDir, { shoe: 'lux.shoe', reader: 'lux.reader' }),
      61,
      0,
    );
    infiniteShoe = new TestShoe(
      await PtyPair.start(ptyDir, { shoe: 'ibj.shoe', reader: 'ibj.reader' }),
      62,
      0,
    );
    db = await createTestDatabase('consoles_blackjack');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: [
        {
          id: 'lux-c',
          name: 'Blackjack Lux C',
          game: 'blackjack-lux',
          currency: 'EUR',
          bettingWindowMs: 300_000,
          decisionWindowMs: 60_000,
          // The ended round stays on the dealer's screen a while (the first round waits as long).
          roundIntervalMs: 15_000,
          scanner: { wireFormat: 'line', path: luxShoe.pty.readerPath },
        },
        {
          id: 'ibj-c',
          name: 'Infinite Blackjack C',
          game: 'infinite-blackjack',
          currency: 'EUR',
          bettingWindowMs: 300_000,
          decisionWindowMs: 15_000,
          roundIntervalMs: 8_000,
          scanner: { wireFormat: 'line', path: infiniteShoe.pty.readerPath },
        },
      ] as unknown as TableDefinition[],
      env: { DEMO_USERS: 'true', PLATFORM_API_KEYS: PLATFORM_KEY },
    });
    token = await signIn(studio.url, 'supervisor', 'supervisor-demo');
    await kit.start(studio.url, token);
  });

  afterAll(async () => {
    await kit.close();
    await studio?.close();
    await luxShoe?.close().catch(() => undefined);
    await infiniteShoe?.close().catch(() => undefined);
    if (ptyDir) rmSync(ptyDir, { recursive: true, force: true });
    await db?.drop();
  });

  afterEach(() => {
    expect(kit.pageErrors.splice(0)).toEqual([]);
  });

  const post = (path: string, body: unknown) => postJson(studio.url, path, body, platform);
  const closeBetting = async (tableId: string) => {
    const closed = await postJson(
      studio.url,
      `/tables/${tableId}/close-betting`,
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(closed.status).toBeLessThan(300);
  };

  /** Burns the new shoe with shuffled cards, until the table's first round takes bets. */
  async function untilBetting(shoe: TestShoe, tableId: string): Promise<string> {
    for (let i = 0; i < 40; i += 1) {
      const view = await waitFor(`${tableId} to burn or take bets`, async () => {
        const v = await kit.tableApi(tableId);
        return v.round?.bettingOpen || v.expectedCard ? v : undefined;
      });
      if (view.round?.bettingOpen) return view.round.id;
      await kit.dealCard(shoe, tableId, shoe.nextClean());
    }
    throw new Error(`${tableId} never opened betting`);
  }

  /** The hands on a console page as [name, total] pairs, in the order shown. */
  const handsOn = (page: Page, scope: string) =>
    page
      .locator(`${scope} .hand`)
      .evaluateAll((els) =>
        els.map((e) => [
          e.querySelector('.hand-name')?.textContent ?? '',
          e.querySelector('.hand-total')?.textContent ?? '',
        ]),
      );

  it('shows a Lux dealer every hand with its total: soft 17, blackjack, bust, the hole card down', async () => {
    const roundId = await untilBetting(luxShoe, 'lux-c');
    ids.lux = roundId;
    for (const [seat, playerId] of [
      ['1', 'alice'],
      ['2', 'bob'],
      ['3', 'carol'],
    ]) {
      const bet = await post('/platform/tables/lux-c/bets', {
        commandId: `lux-${seat}`,
        playerId,
        betType: 'main',
        spot: seat,
        amount: 1_000,
        currency: 'EUR',
      });
      expect(bet).toMatchObject({ status: 200, body: { accepted: true } });
    }
    // Decided before their turn: alice stands on her soft 17, carol hits her 16.
    for (const [playerId, action] of [
      ['alice', 'pre:stand'],
      ['carol', 'pre:hit'],
    ]) {
      expect(
        (await post('/platform/tables/lux-c/decisions', { playerId, action })).body,
      ).toMatchObject({ accepted: true });
    }
    const page = await kit.signedIn('dealer', 'dealer-demo');
    await page.goto(`${studio.url}/console/dealer.html?table=lux-c`);
    await page.locator('#connection').getByText('live', { exact: true }).waitFor();
    await closeBetting('lux-c');
    luxShoe.stack(LUX_ROUND);
    await new Promise((resolve) => setTimeout(resolve, 400));
    // The first deal, then carol's hit is asked for: the hole card is still face down.
    await kit.dealAsAsked(luxShoe, 'lux-c', roundId, 8);
    await page.locator('#cards .hand[data-hand="seat-3/1"] .hand-total').getByText('16').waitFor();
    expect(await handsOn(page, '#cards')).toEqual([
      ['Dealer', 'showing 6'],
      ['Seat 1', 'soft 17'],
      ['Seat 2', 'blackjack'],
      ['Seat 3', '16'],
    ]);
    // The hole card (TC) is a back: its value is nowhere in the page.
    expect(await page.locator('#cards [data-slot="dealer-hole"]').getAttribute('data-face')).toBe(
      'down',
    );
    expect(await page.content()).not.toContain('"TC"');
    expect(await page.locator('[data-card="TC"]').count()).toBe(0);
    await kit.atBothSizes(page, 'dealer-lux-dealing', async () => {
      expect((await kit.belowTheFold(page)).below).toEqual([]);
    });

    // The supervisor's view of the same table: the same hands, the hole card's value included
    // and marked (a supervisor corrects mis-scans), the dealer's total saying so.
    const supervisor = await kit.signedIn('supervisor', 'supervisor-demo');
    await supervisor.locator('.tile[data-table="lux-c"]').click();
    await supervisor.locator('#detail-title').getByText('Blackjack Lux C').waitFor();
    await supervisor.locator('#detail-cards .hand').nth(3).waitFor();
    expect(await handsOn(supervisor, '#detail-cards')).toEqual([
      ['Dealer', '16 (with face-down cards)'],
      ['Seat 1', 'soft 17'],
      ['Seat 2', 'blackjack'],
      ['Seat 3', '16'],
    ]);
    const hole = supervisor.locator('#detail-cards [data-slot="dealer-hole"]');
    expect(await hole.getAttribute('data-card')).toBe('TC');
    expect(await hole.getAttribute('class')).toContain('hidden-to-table');
    await kit.atBothSizes(supervisor, 'supervisor-lux-dealing', async () => {
      expect(await supervisor.locator('#detail-cards').isVisible()).toBe(true);
    });
    await supervisor.context().close();

    await kit.dealAsAsked(luxShoe, 'lux-c', roundId, 2);
    await page.locator('#cards-title').getByText('Last round (ended)').waitFor();
    await page
      .locator('#cards .hand[data-hand="dealer"] .hand-total')
      .getByText('bust 26')
      .waitFor();
    expect(await handsOn(page, '#cards')).toEqual([
      ['Dealer', 'bust 26'],
      ['Seat 1', 'soft 17'],
      ['Seat 2', 'blackjack'],
      ['Seat 3', 'bust 25'],
    ]);
    expect(await page.locator('#cards .hand.total-bust').count()).toBe(2);
    expect(await page.locator('#cards .hand.total-blackjack').count()).toBe(1);
    expect(await page.locator('#cards').textContent()).not.toMatch(/seat-\d|dealer-(up|hole)/);
    await kit.atBothSizes(page, 'dealer-lux-ended', async () => {
      expect(await kit.belowTheFold(page)).toEqual({ below: [], scrolls: false });
    });
    await page.context().close();
  });

  it('shows an Infinite Blackjack dealer the player hand, the common draws and the dealer', async () => {
    const roundId = await untilBetting(infiniteShoe, 'ibj-c');
    ids.infinite = roundId;
    const players = Array.from({ length: PLAYERS }, (_, i) => `player-${i + 1}`);
    for (let i = 0; i < players.length; i += 20) {
      const answers = await Promise.all(
        players.slice(i, i + 20).map((playerId, k) =>
          post('/platform/tables/ibj-c/bets', {
            commandId: `ibj-${i + k}`,
            playerId,
            betType: 'main',
            amount: 1_000,
            currency: 'EUR',
          }),
        ),
      );
      for (const a of answers) expect(a).toMatchObject({ status: 200, body: { accepted: true } });
    }
    const page = await kit.signedIn('dealer', 'dealer-demo');
    await page.goto(`${studio.url}/console/dealer.html?table=ibj-c`);
    await page.locator('#connection').getByText('live', { exact: true }).waitFor();
    await closeBetting('ibj-c');
    infiniteShoe.stack(INFINITE_ROUND);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await kit.dealAsAsked(infiniteShoe, 'ibj-c', roundId, 4);

    // Window 1: a third stands, a third hits, a third sends nothing (played automatically:
    // a 12 stands).
    const decide = async (who: string[], action: string) => {
      const answers = await Promise.all(
        who.map((playerId) => post('/platform/tables/ibj-c/decisions', { playerId, action })),
      );
      for (const a of answers) expect(a.body).toMatchObject({ accepted: true });
    };
    /** The number of the decision window that opens after window `after`. */
    const nextWindow = (after: number) =>
      waitFor(`a decision window after ${after}`, async () => {
        const view = (await kit.tableApi('ibj-c')) as unknown as {
          round: { phase: string; view: { window: number } } | null;
        };
        const open = view.round?.phase === 'deciding' ? view.round.view.window : 0;
        return open > after ? open : undefined;
      });
    const first = await nextWindow(0);
    await Promise.all([
      decide(players.slice(0, 40), 'stand'),
      decide(players.slice(40, 80), 'hit'),
    ]);
    // The window is open (15 s): the dealer sees the hand everybody plays, the hole card down.
    await page.locator('#cards .hand[data-hand="player"] .hand-total').getByText('12').waitFor();
    expect(await handsOn(page, '#cards')).toEqual([
      ['Dealer', 'showing 10'],
      ['Player hand', '12'],
    ]);
    expect(await page.content()).not.toContain('"6D"');
    await kit.atBothSizes(page, 'dealer-infinite-deciding', async () => {
      expect(await kit.belowTheFold(page)).toEqual({ below: [], scrolls: false });
    });
    await kit.dealAsAsked(infiniteShoe, 'ibj-c', roundId, 1);
    await nextWindow(first);
    await decide(players.slice(40, 60), 'hit');
    await kit.dealAsAsked(infiniteShoe, 'ibj-c', roundId, 3);
    await page.locator('#cards-title').getByText('Last round (ended)').waitFor();
    await page
      .locator('#cards .hand[data-hand="dealer"] .hand-total')
      .getByText('bust 26')
      .waitFor();
    expect(await handsOn(page, '#cards')).toEqual([
      ['Dealer', 'bust 26'],
      ['Player hand', '12'],
      ['Common draws', ''],
    ]);
    expect(
      await page
        .locator('#cards .hand[data-hand="common"] [data-card]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-card'))),
    ).toEqual(['4C', '9D']);
    await kit.atBothSizes(page, 'dealer-infinite-ended', async () => {
      expect(await kit.belowTheFold(page)).toEqual({ below: [], scrolls: false });
    });
    await page.context().close();
  });

  it('lets an auditor read a 120-player Infinite Blackjack round on a screen or two', async () => {
    expect(ids.infinite).toBeDefined();
    const page = await kit.signedIn('auditor', 'auditor-demo');
    const row = page.locator(`#round-results tr[data-round="${ids.infinite}"]`);
    await row.waitFor();
    await row.getByRole('button', { name: 'Open timeline' }).click();
    await page
      .locator('#fact-replay')
      .getByText(/^match/)
      .waitFor();

    // Player groups named as the game names them: the player hand, who decided what.
    const hands = await page.locator('#round-hands .hand-name').allTextContents();
    expect(hands).toEqual(
      expect.arrayContaining([
        'Dealer: ',
        'Player hand · 80 players who stood: ',
        'Player hand · 20 players who hit, then stood: ',
        'Player hand · 20 players who hit, then hit: ',
      ]),
    );
    expect(await page.locator('#round-hands').textContent()).not.toMatch(/node-\d/);
    // Long runs summarised: one line for the bets, one per decision window, one for the
    // settlements, each opening on its single entries.
    const timeline = page.locator('#timeline');
    const bets = timeline.locator('li.grouped[data-kind="bet"]');
    expect(await bets.getAttribute('data-count')).toBe(String(PLAYERS));
    expect(await bets.textContent()).toContain('120 bets, 1,200.00 EUR');
    const decisions = await timeline
      .locator('li.grouped[data-kind="decision"]')
      .evaluateAll((els) => els.map((e) => e.textContent));
    expect(decisions).toHaveLength(2);
    // Automatic plays are not decisions a player sent: 40 stood, 40 hit; then 20 hit again.
    expect(decisions[0]).toMatch(/80 decisions in window \d+: hit ×40 · stand ×40$/);
    expect(decisions[1]).toMatch(/20 decisions in window \d+: hit ×20$/);
    const settlements = timeline.locator('li.grouped[data-kind="settlement"]');
    expect(await settlements.textContent()).toMatch(
      /120 settlements, staked 1,200.00 EUR, returned 2,000.00 EUR, net 800.00 EUR: Main: win ×100 \(net 1,000.00 EUR\) · Main: bust ×20 \(net -200.00 EUR\)$/,
    );
    expect(await timeline.locator(':scope > li:not(.grouped)[data-kind="bet"]').count()).toBe(0);
    const box = page.locator('#round');
    // The whole round (facts, cards, hands, timeline) within two screens, at either size.
    const screens: string[] = [];
    await kit.atBothSizes(page, 'auditor-infinite', async (size) => {
      const height = (await box.boundingBox())!.height;
      screens.push(`${size.width}x${size.height}: ${(height / size.height).toFixed(3)} screens`);
    });
    console.log(`The 120-player round's timeline: ${screens.join(', ')}`);
    for (const s of screens)
      expect(Number(/: ([\d.]+) screens/.exec(s)![1])).toBeLessThanOrEqual(2);
    // A summary opens on its entries.
    await bets.locator('summary').click();
    await bets
      .locator('li[data-kind="bet"]')
      .nth(PLAYERS - 1)
      .waitFor();
    await page.context().close();
  });

  it('marks the rounds still being played in the auditor’s list', async () => {
    // The Infinite Blackjack table has started its next round by now.
    await waitFor('the next Infinite Blackjack round', async () => {
      const view = await kit.tableApi('ibj-c');
      return view.round && view.round.id !== ids.infinite ? true : undefined;
    });
    const page = await kit.signedIn('auditor', 'auditor-demo');
    await page.locator('#round-results tbody tr').first().waitFor();
    expect(await page.locator('#round-results tr.unfinished').count()).toBe(0);
    await page.getByLabel('Status').selectOption('');
    await page.locator('#search').click();
    const unfinished = page.locator('#round-results tr.unfinished');
    await unfinished.first().waitFor();
    expect(await unfinished.first().textContent()).toContain('In progress: not finished yet');
    await unfinished.first().getByRole('button', { name: 'Open timeline' }).click();
    await page.locator('#round-unfinished').waitFor();
    expect(await page.locator('#fact-replay').textContent()).toBe(
      'not yet: a round is replayed once it has ended',
    );
    await kit.atBothSizes(page, 'auditor-unfinished', async () => {
      expect(await page.locator('#round-unfinished').isVisible()).toBe(true);
    });
    await page.context().close();
  });
});
