import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { pokDengTotal } from '../../src/consoles/console-hands';
import { ConsoleStreamHub } from '../../src/consoles/console-stream.hub';
import { PtyPair } from '@studio/virtual-shoe';
import { ConsoleBrowserKit, contrastRatio, TestShoe } from '../support/console-browser';
import {
  addTwoPlatforms,
  dealerPageText,
  expectRefundsOfThreePlatforms,
  expectTimelineOfThreePlatforms,
  placeBetsOfThreePlatforms,
  TWO_CURRENCIES,
} from '../support/console-platforms';
import { signIn, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(240_000);

const PLATFORM_KEY = 'consoles-platform-key';

/**
 * The four acceptance scenarios of the consoles in a real browser (Debian's chromium driven by
 * playwright-core) against the real service on the real PostgreSQL, with the tables' scanners
 * fed over real pseudo-terminals.
 */
describe('dealer, supervisor and auditor consoles in the browser', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let ptyDir: string;
  let dealerShoe: TestShoe;
  let floorShoe: TestShoe;
  let platformKeys: Record<string, string>;
  const kit = new ConsoleBrowserKit();
  const { pageErrors } = kit;

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    studio.database.dataSource.query(sql, params);
  const tableApi = (tableId: string) => kit.tableApi(tableId);
  const dealCard = kit.dealCard.bind(kit);
  const waitUntilCardExpected = (tableId: string) => kit.waitUntilCardExpected(tableId);
  const dealUntilRound = kit.dealUntilRound.bind(kit);
  const signedIn = kit.signedIn.bind(kit);
  const screenshot = kit.screenshot.bind(kit);

  beforeAll(async () => {
    ptyDir = mkdtempSync(join(tmpdir(), 'studio-consoles-'));
    dealerShoe = new TestShoe(
      await PtyPair.start(ptyDir, { shoe: 'dealer.shoe', reader: 'dealer.reader' }),
      41,
      0.45,
    );
    floorShoe = new TestShoe(
      await PtyPair.start(ptyDir, { shoe: 'floor.shoe', reader: 'floor.reader' }),
      42,
      0,
    );
    // The dealer's table waits 5 s between rounds, so the revealed round stays on screen a while.
    const table = (
      id: string,
      name: string,
      reader: string,
      roundIntervalMs: number,
      currencies?: typeof TWO_CURRENCIES,
    ) =>
      ({
        id,
        name,
        game: 'pok-deng',
        currency: 'THB',
        ...(currencies ? { currencies } : {}),
        bettingWindowMs: 300_000,
        roundIntervalMs,
        rescan: { maxFailedAttempts: 5, escalateAfterMs: 600_000 },
        scanner: { wireFormat: 'line', path: reader },
      }) as unknown as TableDefinition;
    db = await createTestDatabase('consoles');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: [
        table('pd-dealer', 'Pok Deng Dealer', dealerShoe.pty.readerPath, 5_000),
        // The floor table takes THB and EUR, and bets of three platforms (console-platforms.ts).
        table('pd-floor', 'Pok Deng Floor', floorShoe.pty.readerPath, 300, TWO_CURRENCIES),
      ],
      env: { DEMO_USERS: 'true', PLATFORM_API_KEYS: PLATFORM_KEY },
    });
    platformKeys = { ...(await addTwoPlatforms(studio)), default: PLATFORM_KEY };
    await kit.start(studio.url, await signIn(studio.url, 'supervisor', 'supervisor-demo'));
  });

  afterAll(async () => {
    await kit.close();
    await studio?.close();
    await dealerShoe?.close().catch(() => undefined);
    await floorShoe?.close().catch(() => undefined);
    if (ptyDir) rmSync(ptyDir, { recursive: true, force: true });
    await db?.drop();
  });

  afterEach(() => {
    // A script error or a Content-Security-Policy violation shows up as a console error.
    expect(pageErrors.splice(0)).toEqual([]);
  });

  it('shows the dealer an unmistakable RESCAN with the attempt count when the shoe misreads, and clears it when the card is read', async () => {
    const page = await signedIn('dealer', 'dealer-demo');
    await page.getByRole('link', { name: /Pok Deng Dealer/ }).click();
    await page.waitForURL(/dealer\.html\?table=pd-dealer/);
    await page.locator('#connection').getByText('live', { exact: true }).waitFor();
    await page
      .locator('#expected')
      .getByText('New shoe: draw the first card and show it')
      .waitFor();
    expect(await page.locator('#expected').getAttribute('data-slot')).toBe('shoe-burn/shown');
    await page
      .locator('#fact-scanner')
      .getByText(/^connected since/)
      .waitFor();

    const rescan = page.locator('#rescan');
    let misreads = 0;
    let verifiedInRound = 0;
    const roundCards: Array<{ slot: string; card: string }> = [];
    /** Sends the shoe's next emission and checks the dealer's screen after it. */
    async function feedOne(): Promise<void> {
      const view = await waitUntilCardExpected('pd-dealer');
      const emission = dealerShoe.next();
      if (emission.kind === 'misread') {
        misreads += 1;
        await dealerShoe.write(emission);
        // The prompt names the failed attempt and the limit, and says what to do.
        await page
          .locator('#rescan-attempts')
          .getByText(`Attempt ${misreads} of 5 failed`, { exact: true })
          .waitFor();
        expect(await rescan.isVisible()).toBe(true);
        expect(await rescan.textContent()).toContain('RESCAN');
        expect(await rescan.textContent()).toContain('scan the same card again');
        expect(await page.locator('#expected').getAttribute('data-slot')).toBe(
          view.expectedCard!.slot,
        );
        if (view.round && verifiedInRound === 0) await screenshot(page, 'dealer-rescan');
      } else {
        await dealCard(dealerShoe, 'pd-dealer', emission);
        if (view.round) roundCards.push({ slot: view.expectedCard!.slot, card: emission.card! });
        if (misreads > 0) {
          await rescan.waitFor({ state: 'hidden' });
          expect(await page.locator('#rescan-attempts').count()).toBe(0);
          if (view.round) verifiedInRound += 1;
          misreads = 0;
        }
      }
    }
    for (let i = 0; i < 60 && !(verifiedInRound > 0 && roundCards.length >= 4); i += 1) {
      await feedOne();
    }
    expect(verifiedInRound).toBeGreaterThan(0);

    // The cards of the round are face down at the table: the dealer's screen shows backs only, and
    // none of the cards the shoe produced reaches the page.
    await page.locator('#cards-title').getByText('Cards this round').waitFor();
    await page
      .locator('#cards .card.back')
      .nth(roundCards.length - 1)
      .waitFor();
    expect(await page.locator('#cards .card.back').count()).toBe(roundCards.length);
    expect(await page.locator('#cards [data-card]').count()).toBe(0);
    const html = await page.content();
    for (const { card } of roundCards) expect(html).not.toContain(`data-card="${card}"`);
    // Grouped by hand, named as the game names them (no slot codes), face down without a total.
    const felt = page.locator('#cards');
    expect(await felt.locator('.hand .card.back').count()).toBe(roundCards.length);
    for (const name of await felt.locator('.hand-name').allTextContents()) {
      expect(name).toMatch(/^(Burn|Player [1-5]|Banker)$/);
    }
    expect(await felt.textContent()).not.toMatch(/player-\d|banker\/|burn\//);
    expect(await felt.locator('.hand').count()).toBeGreaterThanOrEqual(4);
    expect(await felt.locator('.hand-total').count()).toBe(0);
    await kit.atBothSizes(page, 'dealer-dealing', async () => {
      expect((await kit.belowTheFold(page)).below).toEqual([]);
    });

    // The rest of the round, then the dealer closes betting (Pok Deng deals while betting is open):
    // the hands are revealed and the screen turns exactly the revealed cards face up.
    for (let i = 0; i < 60; i += 1) {
      const view = await tableApi('pd-dealer');
      if (view.round && !view.expectedCard) break;
      await feedOne();
    }
    const roundId = (await tableApi('pd-dealer')).round!.id;
    expect(await page.locator('#close-betting').isEnabled()).toBe(true);
    const look = ['background-color', 'border-top-style', 'color'];
    const enabled = await kit.styleOf(page, '#close-betting', look);
    await page.locator('#close-betting').click();
    await page.locator('#cards-title').getByText('Last round (ended)').waitFor();
    const stored = await q<{ slot: string; card: string; shown: boolean }>(
      `SELECT slot, card, (NOT face_down OR revealed_at IS NOT NULL) AS shown FROM round_cards
        WHERE round_id = $1 AND corrected_by_id IS NULL ORDER BY id`,
      [roundId],
    );
    expect(stored.map((c) => c.card)).toEqual(roundCards.map((c) => c.card));
    expect(stored.filter((c) => c.shown).length).toBeGreaterThan(0);
    // (In hand order on the page: Player 1's two cards, then Player 2's...)
    expect(
      (
        await page
          .locator('#cards [data-card]')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-card')))
      ).sort(),
    ).toEqual(
      stored
        .filter((c) => c.shown)
        .map((c) => c.card)
        .sort(),
    );
    expect(await page.locator('#cards .card.back').count()).toBe(
      stored.filter((c) => !c.shown).length,
    );
    // Every revealed hand carries its total in Pok Deng's words, computed from its cards.
    const byHand = new Map<string, Array<{ slot: string; hidden: boolean; card: string }>>();
    for (const c of stored.filter((r) => /^(player-\d|banker)\//.test(r.slot))) {
      const hand = c.slot.split('/')[0];
      byHand.set(hand, [
        ...(byHand.get(hand) ?? []),
        { slot: c.slot, hidden: false, card: c.card },
      ]);
    }
    expect(byHand.size).toBe(6);
    for (const [hand, cards] of byHand) {
      const total = await page
        .locator(`#cards .hand[data-hand="${hand}"] .hand-total`)
        .textContent();
      expect(total).toMatch(/^(pok [89]|\d points?|7\.[1-5] [a-zA-Z -]+)( · 2 deng)?$/);
      expect(total).toBe(pokDengTotal(cards).total);
    }
    // Betting is closed: the button cannot be used, and looks it (no fill, dashed, dim), and
    // the dealer reads why.
    expect(await page.locator('#close-betting').isDisabled()).toBe(true);
    const disabled = await kit.styleOf(page, '#close-betting', look);
    expect(enabled['border-top-style']).toBe('solid');
    // Its white on blue, like the header's current page, reads at arm's length (WCAG AA 4.5:1).
    expect(contrastRatio(enabled.color, enabled['background-color'])).toBeGreaterThanOrEqual(4.5);
    const here = await kit.styleOf(page, 'nav a[aria-current="page"]', look);
    expect(contrastRatio(here.color, here['background-color'])).toBeGreaterThanOrEqual(4.5);
    expect(disabled['border-top-style']).toBe('dashed');
    expect(disabled['background-color']).toBe('rgba(0, 0, 0, 0)');
    expect(disabled.color).not.toBe(enabled.color);
    expect(await page.locator('#controls-why').textContent()).toContain(
      'Close betting: betting is not open now.',
    );
    await kit.atBothSizes(page, 'dealer-round-revealed', async () => {
      expect(await kit.belowTheFold(page)).toEqual({ below: [], scrolls: false });
    });
    await page.context().close();
  });

  it('lets a supervisor pause and void a round, and shows the refunds of two platforms in their currencies', async () => {
    const round = await dealUntilRound(floorShoe, 'pd-floor');
    for (const answer of await placeBetsOfThreePlatforms(studio.url, 'pd-floor', platformKeys)) {
      expect(answer).toMatchObject({ status: 200, body: { accepted: true } });
    }
    // The round's burn card and three player cards, then the table waits for the next card.
    for (let i = 0; i < 4; i += 1) {
      await waitUntilCardExpected('pd-floor');
      await dealCard(floorShoe, 'pd-floor', floorShoe.next());
    }
    const roundId = round.round!.id;

    // The table-side screen names the table's currencies and, as before, no player of any platform.
    const dealer = await dealerPageText(kit, studio.url, 'pd-floor', {
      cards: 4,
      view: 'dealer-two-platforms',
    });
    expect(dealer.title).toBe('Pok Deng Floor · THB, EUR');
    for (const shown of ['alice', 'bob', 'casino-']) expect(dealer.text).not.toContain(shown);
    expect(dealer.below).toEqual([]);

    const page = await signedIn('supervisor', 'supervisor-demo');
    expect(page.url()).toMatch(/supervisor\.html$/);
    const tile = page.locator('.tile[data-table="pd-floor"]');
    await tile.getByText('Scanner connected').waitFor();
    await page.locator('.tile[data-table="pd-dealer"]').waitFor();
    await page
      .locator('#outbox')
      .getByText('Kafka off (events kept in the outbox)', { exact: true })
      .waitFor();
    await page.locator('#action-log .hint, #action-log table').first().waitFor();
    // Nothing selected, nothing to say: the action log follows the tiles at the grid's gap.
    await kit.atBothSizes(page, 'supervisor-overview', async () => {
      const gap = await kit.gapBetween(page, '#tables', 'section[aria-labelledby="log-title"]');
      expect(gap).toBeLessThanOrEqual(19);
    });
    await tile.click();
    await page.locator('#detail-title').getByText('Pok Deng Floor').waitFor();
    // Supervisors see the face-down cards (to correct a mis-scan), marked as face down.
    await page.locator('#detail .card.face.hidden-to-table').nth(3).waitFor();

    await page.locator('#pause').click();
    await page.getByLabel('Reason').fill('Card fell on the floor');
    await page.locator('#ask-confirm').click();
    await tile.locator('.tile-phase').getByText('Paused').waitFor();
    await page
      .locator('#detail-state')
      .getByText(/paused by supervisor: Card fell on the floor/)
      .waitFor();
    await screenshot(page, 'supervisor-paused');

    await page.locator('#void').click();
    await page.getByLabel('Reason').fill('Card exposed, round cannot continue');
    // The confirmation is required: without the tick the dialog refuses and says why.
    await page.locator('#ask-confirm').click();
    await page
      .getByRole('alert')
      .getByText(/Tick “I confirm/)
      .waitFor();
    await page.getByLabel('I confirm: void this round and refund every bet').check();
    await page.locator('#ask-confirm').click();
    await page
      .locator('#flash')
      .getByText(/voided: every bet refunded/)
      .waitFor();

    // Each refund in its own bet's currency, each player with its platform apart, as stored.
    await expectRefundsOfThreePlatforms(page, q, roundId);
    const log = page.locator('#action-log');
    await log
      .locator('tr[data-action="void"]')
      .getByText('Card exposed, round cannot continue')
      .waitFor();
    await log.locator('tr[data-action="pause"]').getByText('Card fell on the floor').waitFor();
    await kit.atBothSizes(page, 'supervisor', async () => {
      expect(await log.locator('tr.refunds').isVisible()).toBe(true);
    });
    // On a phone the page scrolls down, never sideways: the log's table scrolls in its panel.
    expect(await kit.sidewaysAt(page, 390)).toBe(0);
    expect((await q(`SELECT status FROM rounds WHERE id = $1`, [roundId]))[0]).toEqual({
      status: 'voided',
    });
    await page.context().close();
  });

  it('lets an auditor find the voided round and open its timeline with the cards drawn', async () => {
    const [voided] = await q<{ id: string }>(
      `SELECT id FROM rounds WHERE table_id = 'pd-floor' AND status = 'voided'`,
    );
    expect(voided).toBeDefined();
    const cards = await q<{ slot: string; card: string }>(
      `SELECT slot, card FROM round_cards WHERE round_id = $1 ORDER BY id`,
      [voided.id],
    );
    expect(cards).toHaveLength(4);

    const page = await signedIn('auditor', 'auditor-demo');
    expect(page.url()).toMatch(/auditor\.html$/);
    // The list opens on completed rounds (the dealer's table finished one).
    expect(await page.getByLabel('Status').inputValue()).toBe('completed');
    const rows = page.locator('#round-results tbody tr');
    await rows.first().waitFor();
    const statuses = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['completed']));
    await kit.atBothSizes(page, 'auditor-list', async () => {
      expect(await rows.first().isVisible()).toBe(true);
    });
    // (Rounds still being played are marked: consoles-blackjack.e2e-spec.ts.)

    await page.getByLabel('Table').selectOption('pd-floor');
    await page.getByLabel('Status').selectOption('voided');
    // A player is (platform, playerId): alice of a platform that never bet here has no round.
    await page.getByLabel('Platform').fill('casino-c');
    await page.getByLabel('Player').fill('alice');
    await page.locator('#search').click();
    await page.locator('#results').getByText('No round matches').waitFor();
    await page.getByLabel('Platform').fill('casino-b');
    await page.locator('#search').click();
    const row = page.locator(`#round-results tr[data-round="${voided.id}"]`);
    await row.waitFor();
    expect(await page.locator('#round-results tbody tr').count()).toBe(1);
    expect(await row.textContent()).toContain('Voided: Card exposed, round cannot continue');
    await row.getByRole('button', { name: 'Open timeline' }).click();

    await page.locator('#fact-round-status').getByText('Voided: Card exposed').waitFor();
    // A void is verified too: every bet refunded its stake, as its chained events say.
    await page
      .locator('#fact-replay')
      .getByText(/^match/)
      .waitFor();
    const drawn = page.locator('#round-cards .card.face');
    await drawn.nth(cards.length - 1).waitFor();
    expect(await drawn.evaluateAll((els) => els.map((e) => e.getAttribute('data-card')))).toEqual(
      cards.map((c) => c.card),
    );
    const timeline = page.locator('#timeline');
    await timeline
      .locator('li[data-kind="supervisor-action"]')
      .getByText(/Void by supervisor: Card exposed/)
      .waitFor();
    expect(await timeline.locator('li[data-kind="supervisor-action"]').count()).toBe(2);
    const settlements = await timeline.locator('li[data-kind="settlement"]').allTextContents();
    expect(settlements).toHaveLength(3);
    expect(settlements[0]).toContain('returned 2,468.00 THB');
    expect(settlements[0]).toContain('refunded: the round was voided');
    expect(settlements[0]).not.toContain('void-refund');
    // Each bet and settlement in its own currency, each player with its platform apart.
    await expectTimelineOfThreePlatforms(page);
    // The table is named as in the filter, not by its id; times are local with UTC on hover.
    expect(await page.locator('#round-title').textContent()).toContain('Pok Deng Floor');
    expect(await timeline.locator('li time').first().getAttribute('title')).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/,
    );
    // Opening the timeline takes the reader to it.
    await page.waitForFunction(() => {
      const doc = (globalThis as unknown as { document: { activeElement: { id: string } | null } })
        .document;
      return doc.activeElement?.id === 'round-title';
    });
    expect(await page.locator('#round-title').isVisible()).toBe(true);
    const titleBox = await page.locator('#round-title').boundingBox();
    expect(titleBox!.y).toBeLessThan(800);
    expect(titleBox!.y).toBeGreaterThanOrEqual(0);
    expect(await timeline.locator('li[data-kind="bet"]').first().textContent()).toContain(
      '1,234.00 THB',
    );
    // Slots in words: "Burn card", "Player 1, card 1".
    const captions = await page.locator('#round-cards figcaption').allTextContents();
    expect(captions[0]).toMatch(/^Burn card/);
    expect(captions[1]).toMatch(/^Player 1, card 1/);
    for (const caption of captions) expect(caption).not.toMatch(/player-\d|\//);
    await kit.atBothSizes(page, 'auditor', async () => {
      expect(await page.locator('#round-title').isVisible()).toBe(true);
    });
    expect(await kit.sidewaysAt(page, 390)).toBe(0);
    await page.context().close();
    // Every console of this file is closed: the service has dropped all their streams.
    const hub = studio.app.get(ConsoleStreamHub);
    await waitFor('the closed consoles’ streams to be dropped', async () => hub.connections === 0);
  });
});
