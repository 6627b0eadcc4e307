import type { CardCode } from '@studio/cards';
import { PtyPair } from '@studio/virtual-shoe';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { ConsoleStreamHub } from '../../src/consoles/console-stream.hub';
import { ConsoleBrowserKit, TestShoe } from '../support/console-browser';
import { postJson, signIn, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(240_000);

const PLATFORM_KEY = 'hold-platform-key';
/** Enough rounds for a Pok Deng band to narrow to ±25 points: (2.5758 × 0.7115 / 0.25)² = 53.7. */
const ROUNDS = 55;
/** Looked at early: the band is still far too wide to judge. */
const EARLY = 10;
/** Rounds per table shoe before the cut card: the stacked cards stay within 8 of each. */
const ROUNDS_PER_SHOE = 12;

/**
 * One Pok Deng round dealt burn, P1..P5, Banker, P1..P5, Banker: every player gets pok 9 with a
 * flush (A-8, 2-7, 3-6, 4-5, 9-K of one suit), paid 2:1, against a banker 5 (T-5). No rank but
 * the 5 comes twice, so the stacked shoe repeats it 16 times (suits rotated) before a card
 * would appear a ninth time. Stacked like this, a table's players win every round.
 */
const PLAYERS_WIN: CardCode[] = [
  'QC',
  'AS',
  '2H',
  '3D',
  '4C',
  '9S',
  'TH',
  '8S',
  '7H',
  '6D',
  '5C',
  'KS',
  '5D',
];

/**
 * Live hold monitoring and the console fixes of a pit, in the browser against the real service:
 * a Pok Deng table fed by a stacked virtual shoe leaves its return band and the page raises the
 * alert; the dealer's view fits a 1024×600 table screen; the practice table (no scanner by
 * design) and Kafka being off read as normal states.
 */
describe('hold monitoring and the pit consoles in the browser', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let ptyDir: string;
  let shoe: TestShoe;
  let token: string;
  const kit = new ConsoleBrowserKit();

  beforeAll(async () => {
    ptyDir = mkdtempSync(join(tmpdir(), 'studio-hold-'));
    shoe = new TestShoe(
      await PtyPair.start(ptyDir, { shoe: 'hold.shoe', reader: 'hold.reader' }),
      77,
      0,
    );
    db = await createTestDatabase('consoles_hold');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: [
        {
          id: 'pd-stacked',
          name: 'Pok Deng Stacked',
          game: 'pok-deng',
          currency: 'THB',
          bettingWindowMs: 300_000,
          roundIntervalMs: 200,
          scanner: { wireFormat: 'line', path: shoe.pty.readerPath },
        } as unknown as TableDefinition,
        {
          id: 'practice-1',
          name: 'Practice 1',
          game: 'european-blackjack-practice',
          currency: 'XPT',
        },
      ],
      env: { DEMO_USERS: 'true', PLATFORM_API_KEYS: PLATFORM_KEY },
    });
    token = await signIn(studio.url, 'supervisor', 'supervisor-demo');
    await kit.start(studio.url, token);
  });

  afterAll(async () => {
    await kit.close();
    await studio?.close();
    await shoe?.close().catch(() => undefined);
    if (ptyDir) rmSync(ptyDir, { recursive: true, force: true });
    await db?.drop();
  });

  afterEach(() => {
    expect(kit.pageErrors.splice(0)).toEqual([]);
  });

  let stackedShoe = 0;
  /**
   * A round with a bet on player spot 1, all 13 cards from the stacked shoe at once, betting
   * closed: settled. A new table shoe (its burn from whatever comes) restarts the stacked order,
   * and the cut card ends each table shoe after ROUNDS_PER_SHOE rounds.
   */
  async function playStackedRound(index: number): Promise<void> {
    const view = await kit.dealUntilRound(shoe, 'pd-stacked');
    if (view.shoe!.number !== stackedShoe) {
      stackedShoe = view.shoe!.number;
      shoe.stack(PLAYERS_WIN);
      // The reader ignores a card read twice within 300 ms (debounce): the burn's last card may
      // be the stacked order's first.
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    const bet = await postJson(
      studio.url,
      '/platform/tables/pd-stacked/bets',
      {
        commandId: `hold-${index}`,
        playerId: `player-${index}`,
        betType: 'player',
        spot: '1',
        amount: 10_000,
        currency: 'THB',
      },
      { 'x-platform-key': PLATFORM_KEY },
    );
    expect(bet).toMatchObject({ status: 200, body: { accepted: true } });
    const staff = { authorization: `Bearer ${token}` };
    if (view.shoe!.roundNumber === ROUNDS_PER_SHOE) {
      const cut = await postJson(studio.url, '/tables/pd-stacked/cut-card', {}, staff);
      expect(cut.status).toBeLessThan(300);
    }
    await kit.dealBurst(shoe, 'pd-stacked', PLAYERS_WIN.length);
    const closed = await postJson(studio.url, '/tables/pd-stacked/close-betting', {}, staff);
    expect(closed.status).toBeLessThan(300);
    await waitFor(`round ${view.round!.number} to be settled`, async () => {
      const rows = await studio.database.dataSource.query(
        `SELECT status FROM rounds WHERE id = $1`,
        [view.round!.id],
      );
      return rows[0]?.status === 'completed';
    });
  }

  /** Nothing on a supervisor's page that only a developer could read. */
  const noRepositoryPaths = async (page: Page) =>
    expect(await page.locator('main').textContent()).not.toMatch(
      /docs\/|apps\/|src\/|\.md\b|\.ts\b|pok-deng-par/,
    );

  it('says "too few rounds to judge" while the band is wide, and never draws it below 0%', async () => {
    for (let i = 0; i < EARLY; i += 1) await playStackedRound(i);
    const page = await kit.signedIn('supervisor', 'supervisor-demo');
    await page.getByRole('link', { name: 'Hold monitoring' }).click();
    await page.waitForURL(/hold\.html$/);
    const card = page.locator('article[data-table="pd-stacked"]');
    await card.locator('.uplot canvas').first().waitFor();
    expect(await card.getAttribute('data-verdict')).toBe('too-few-rounds');
    // 200% is as much as a Player bet can return; after 10 rounds the band would still be ±58
    // points (41% to 157%): far too wide to say anything.
    expect(await card.locator('[data-fact="observed"]').textContent()).toBe(
      '200.00% · too few rounds to judge',
    );
    expect(await card.locator('[data-fact="band"]').textContent()).toBe(
      `too few rounds to judge (${EARLY} of about 54)`,
    );
    expect(await page.locator('#hold-alerts li[data-table="pd-stacked"]').count()).toBe(0);
    // The plot's axis starts at 0% (a return below it cannot happen), and draws no band yet.
    expect(await card.locator('.plot[role="img"]').first().getAttribute('aria-label')).toBe(
      `Return to players after each of ${EARLY} rounds: observed 200.00%, expected 98.75%, ` +
        'no band yet (too few rounds); axis from 0% to 225%',
    );
    const report = (await (
      await fetch(`${studio.url}/console/api/hold`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { tables: Array<{ tableId: string; series: Array<{ low: number | null }> }> };
    const stacked = report.tables.find((t) => t.tableId === 'pd-stacked')!;
    expect(stacked.series.every((p) => p.low === null)).toBe(true);
    // Words for supervisors: where the figure comes from, what a virtual shoe has no need of.
    const practice = page.locator('article[data-table="practice-1"]');
    expect(await practice.locator('[data-fact="outages"]').textContent()).toBe(
      'Virtual shoe: no scanner to lose',
    );
    expect(await card.locator('[data-fact="outages"]').textContent()).toBe('none in 24 hours');
    expect(await page.locator('#games-table tr[data-game="pok-deng"]').textContent()).toContain(
      'exact: every possible deal of the 8-deck shoe counted',
    );
    await kit.atBothSizes(page, 'hold-too-few-rounds', async () => {
      await noRepositoryPaths(page);
      expect(await card.isVisible()).toBe(true);
    });
    expect(await kit.sidewaysAt(page, 390)).toBe(0); // a phone scrolls it down, not sideways
    await page.context().close();
  });

  it('raises the alert once the band is narrow and a stacked shoe keeps the return above it', async () => {
    for (let i = EARLY; i < ROUNDS; i += 1) await playStackedRound(i);
    const settled = await studio.database.dataSource.query(
      `SELECT s.outcome, s.stake::int, s.net::int FROM settlements s
         JOIN rounds r ON r.id = s.round_id WHERE r.table_id = 'pd-stacked' ORDER BY s.id`,
    );
    expect(settled).toHaveLength(ROUNDS);
    // Every round a pok 9 flush against a banker 5: the player wins twice the bet; the stake
    // recorded is what was deducted, the bet and its deposit.
    for (const s of settled) expect(s).toMatchObject({ stake: 20_000, net: 20_000 });

    const page = await kit.signedIn('supervisor', 'supervisor-demo');
    await page.goto(`${studio.url}/console/hold.html`);
    const alert = page.locator(
      '#hold-alerts li[data-table="pd-stacked"][data-alert="return-above"]',
    );
    await alert.waitFor();
    // The band, ±24.9 points around 98.75%, lies within what can happen (0% to 200%).
    expect(await alert.textContent()).toMatch(
      new RegExp(
        `^Pok Deng Stacked: Players' return 200\\.00% over the last ${ROUNDS} rounds is above the 99% band 7\\d\\.\\d\\d%–12\\d\\.\\d\\d% around the expected 98\\.75%`,
      ),
    );
    const card = page.locator('article[data-table="pd-stacked"]');
    expect(await card.getAttribute('data-verdict')).toBe('above');
    expect(await card.locator('[data-fact="band"]').textContent()).toMatch(
      /^7\d\.\d\d% – 12\d\.\d\d%$/,
    );
    // The plots are uPlot's canvases, drawn from the API's series; the band from round 54.
    await card.locator('.uplot canvas').nth(1).waitFor();
    expect(await card.locator('.u-title').allTextContents()).toEqual([
      'Return to players after each round (%)',
      'Rounds per hour (last 24 hours)',
    ]);
    expect(await card.locator('.plot[role="img"]').first().getAttribute('aria-label')).toBe(
      `Return to players after each of ${ROUNDS} rounds: observed 200.00%, expected 98.75%, ` +
        '99% band from round 54; axis from 0% to 225%',
    );
    const practice = page.locator('article[data-table="practice-1"]');
    expect(await practice.textContent()).toContain('Virtual shoe: no scanner needed');
    expect(await page.locator('#hold-alerts li[data-table="practice-1"]').count()).toBe(0);
    expect(await page.locator('#games-table tr[data-game="pok-deng"]').textContent()).toContain(
      'Pok Deng',
    );
    await kit.atBothSizes(page, 'hold-monitoring', async () => {
      await noRepositoryPaths(page);
      expect(await alert.isVisible()).toBe(true);
    });

    // The API itself: supervisors only, and bad parameters get a clear 400.
    const answer = await fetch(`${studio.url}/console/api/hold?rounds=3`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      error: 'bad-request',
      message: 'rounds must be a whole number from 5 to 5000 (got "3")',
    });
    const dealerToken = await signIn(studio.url, 'dealer', 'dealer-demo');
    const refused = await fetch(`${studio.url}/console/api/hold`, {
      headers: { authorization: `Bearer ${dealerToken}` },
    });
    expect(refused.status).toBe(403);
    await page.context().close();
  });

  it('shows the supervisor a neutral virtual-shoe state and "Kafka off" instead of alarms', async () => {
    const page = await kit.signedIn('supervisor', 'supervisor-demo');
    const practice = page.locator('.tile[data-table="practice-1"]');
    await practice.getByText('Virtual shoe · no scanner needed').waitFor();
    expect(await practice.getAttribute('class')).not.toContain('alert');
    expect(await practice.locator('.badge.bad').count()).toBe(0);
    await page
      .locator('#outbox')
      .getByText('Kafka off (events kept in the outbox)', { exact: true })
      .waitFor();
    expect(await page.locator('#outbox').getAttribute('class')).not.toContain('warn');
    // Proper game names, each table named once.
    expect(await page.locator('.tile[data-table="pd-stacked"] strong').textContent()).toBe(
      'Pok Deng Stacked',
    );
    expect(await practice.locator('strong').textContent()).toBe(
      'Practice 1 · European Blackjack (practice)',
    );
    await kit.atBothSizes(page, 'supervisor-virtual-shoe', async () => {
      expect(await practice.isVisible()).toBe(true);
    });
    await page.context().close();
  });

  it('gives the dealer a chooser of even buttons, and says so when a table does not exist', async () => {
    const page = await kit.signedIn('dealer', 'dealer-demo');
    // As wide (and as tall) as each other, whatever the length of the names.
    await kit.atBothSizes(page, 'dealer-table-picker', async () => {
      const boxes = await page
        .locator('.table-picker .button')
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()));
      expect(boxes).toHaveLength(2);
      expect(Math.abs(boxes[0].width - boxes[1].width)).toBeLessThanOrEqual(1);
      expect(Math.abs(boxes[0].height - boxes[1].height)).toBeLessThanOrEqual(1);
    });
    // Nothing but the chooser when no table was asked for.
    expect(await page.locator('#unknown-table').count()).toBe(0);
    expect((await page.locator('main').textContent())!.trim()).toMatch(/^Choose your table/);
    expect(await page.locator('.table-picker .button').allTextContents()).toEqual([
      'Pok Deng Stacked',
      'Practice 1 · European Blackjack (practice)',
    ]);

    await page.goto(`${studio.url}/console/dealer.html?table=no-such-table`);
    const unknown = page.locator('#unknown-table');
    await unknown.getByText('There is no table “no-such-table”').waitFor();
    await kit.atBothSizes(page, 'dealer-unknown-table', async () => {
      expect(await unknown.isVisible()).toBe(true);
      // No empty layout waiting forever: no connection pill, no felt, the chooser instead.
      expect(await page.locator('#connection').count()).toBe(0);
      expect(await page.locator('#cards').count()).toBe(0);
      expect(await page.locator('.table-picker .button').count()).toBe(2);
    });
    await page.getByRole('link', { name: /Pok Deng Stacked/ }).click();
    await page.locator('#table-name').getByText('Pok Deng Stacked').waitFor();
    await page.context().close();
  });

  it('fits the dealer view on a 1024×600 table screen with every card and button in sight', async () => {
    const page = await kit.signedIn('dealer', 'dealer-demo');
    await kit.resized(page, 1024, 600);
    await page.goto(`${studio.url}/console/dealer.html?table=pd-stacked`);
    await page.locator('#connection').getByText('live', { exact: true }).waitFor();
    // The next round has started: the empty felt says what it is waiting for.
    await kit.dealUntilRound(shoe, 'pd-stacked');
    await page
      .locator('#cards')
      .getByText(/^Waiting for the first card: /)
      .waitFor();
    await kit.screenshot(page, 'dealer-1024x600-waiting');
    expect(await kit.belowTheFold(page)).toEqual({ below: [], scrolls: false });

    // Every card of the round dealt (13 backs): the fullest the screen gets.
    await kit.dealRestOfRound(shoe, 'pd-stacked');
    await page.locator('#cards .card').nth(12).waitFor();
    await kit.screenshot(page, 'dealer-1024x600');
    expect(await kit.belowTheFold(page)).toEqual({ below: [], scrolls: false });
    // The scanner tile's time is one short local clock time, the UTC time on hover.
    const scanner = page.locator('#fact-scanner');
    expect(await scanner.textContent()).toMatch(/^connected since \d\d:\d\d:\d\d$/);
    expect(await scanner.getAttribute('title')).toMatch(/ UTC$/);
    expect((await scanner.boundingBox())!.height).toBeLessThan(40);
    expect(await page.locator('#close-betting').isEnabled()).toBe(true);
    await kit.screenshot(page, 'dealer-1024x600');
    await page.context().close();
  });

  it('keeps a dealer away from the supervisor actions', async () => {
    const page = await kit.signedIn('dealer', 'dealer-demo');
    await page.goto(`${studio.url}/console/dealer.html?table=pd-stacked`);
    await page.locator('#table-name').getByText('Pok Deng Stacked').waitFor();
    expect(await page.locator('#close-betting').count()).toBe(1);
    for (const action of ['#pause', '#resume', '#void', '#correct', '#end-shoe']) {
      expect(await page.locator(action).count()).toBe(0);
    }
    expect(await page.getByRole('button', { name: /pause|void|correct/i }).count()).toBe(0);

    await page.goto(`${studio.url}/console/supervisor.html`);
    const denied = page.locator('#access-denied');
    await denied.getByText('The supervisor view needs the supervisor role').waitFor();
    expect(await denied.textContent()).toContain('You are signed in as Demo Dealer (dealer)');
    expect(await page.locator('#tables').count()).toBe(0);
    expect(await page.locator('#void').count()).toBe(0);
    await kit.screenshot(page, 'supervisor-denied');

    // Even a hand-made request from the dealer's signed-in page is refused by the service.
    const answers = await page.evaluate(async () => {
      const storage = (
        globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }
      ).sessionStorage;
      const authorization = `Bearer ${storage.getItem('studio.console.token')}`;
      const post = (path: string) =>
        fetch(path, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ reason: 'dealer tries' }),
        }).then((r) => r.status);
      return {
        pause: await post('/tables/pd-stacked/pause'),
        void: await post('/tables/pd-stacked/void'),
        overview: await fetch('/console/api/tables/stream', { headers: { authorization } }).then(
          (r) => r.status,
        ),
        actions: await fetch('/console/api/actions', { headers: { authorization } }).then(
          (r) => r.status,
        ),
      };
    });
    expect(answers).toEqual({ pause: 403, void: 403, overview: 403, actions: 403 });
    // The browser logs each refused request; those four are the ones this test asked for.
    const refused = kit.pageErrors.filter((e) => e.includes('status of 403 (Forbidden)'));
    expect(refused).toHaveLength(4);
    kit.pageErrors.splice(
      0,
      kit.pageErrors.length,
      ...kit.pageErrors.filter((e) => !refused.includes(e)),
    );
    await page.context().close();

    // The sign-in page, for the record.
    const context = await kit.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const login = kit.watch(await context.newPage(), 'anonymous');
    await login.goto(`${studio.url}/console/supervisor.html`);
    await login.waitForURL(/\/console\/\?next=/);
    await login.getByLabel('Password').waitFor();
    await kit.screenshot(login, 'login');
    await context.close();
  });

  it('says a void of a round nobody bet on refunded nothing, stops the dealer while the scanner is down, and brings a dealer whose session ended back to the table', async () => {
    // The round the last test dealt (nobody bet on it), or the next one.
    const round =
      (await kit.tableApi('pd-stacked')).round ??
      (await kit.dealUntilRound(shoe, 'pd-stacked')).round;
    const voided = await postJson(
      studio.url,
      '/tables/pd-stacked/void',
      { reason: 'Shoe dropped before any bet', roundId: round!.id },
      { authorization: `Bearer ${token}` },
    );
    expect(voided.status).toBe(200);
    const supervisor = await kit.signedIn('supervisor', 'supervisor-demo');
    const applied = supervisor
      .locator('#action-log tr[data-action="void"][data-status="applied"]')
      .filter({ hasText: 'Shoe dropped before any bet' });
    await applied.waitFor();
    // The line under it says so in words, not "0 refunds · returned" with no amount.
    expect(await applied.locator('xpath=following-sibling::tr[1]').textContent()).toBe(
      'No bet in the round: nothing to refund',
    );
    await supervisor.context().close();

    // The reader goes (a cable pulled, the reader switched off): a card dealt now would not be
    // read, so the dealer's screen asks for none, in the words and colour of an outage.
    const dealer = await kit.signedIn('dealer', 'dealer-demo');
    await dealer.goto(`${studio.url}/console/dealer.html?table=pd-stacked`);
    await dealer.locator('#connection').getByText('live', { exact: true }).waitFor();
    const expected = dealer.locator('#expected');
    await expected.getByText(/^Burn/).waitFor();
    await shoe.pty.stop();
    await dealer
      .locator('#fact-scanner')
      .getByText(/^disconnected/)
      .waitFor();
    await expected.getByText('SCANNER DISCONNECTED: do not deal · call the supervisor').waitFor();
    expect(await expected.getAttribute('class')).toContain('offline');
    await kit.atBothSizes(dealer, 'dealer-scanner-disconnected', async () => {
      expect(await kit.belowTheFold(dealer)).toEqual({ below: [], scrolls: false });
    });

    // The dealer's session ends (revoked here; an expired one reads the same): the page asks to
    // sign in again and, signed in, brings the dealer back to the same table, not the chooser.
    await kit.revokeSession(dealer);
    await dealer.waitForURL(/\/console\/\?expired=1&next=/);
    await dealer.locator('#flash').getByText('Your session ended; sign in again.').waitFor();
    await kit.signInHere(dealer, 'dealer', 'dealer-demo');
    await dealer.waitForURL(/\/console\/dealer\.html\?table=pd-stacked$/);
    await dealer.locator('#table-name').getByText('Pok Deng Stacked').waitFor();
    // The refused stream (401) is the browser's to log; nothing else went wrong.
    kit.forgive('status of 401 (Unauthorized)');
    await dealer.context().close();

    // Every console of this file is closed: the service has dropped all their streams.
    const hub = studio.app.get(ConsoleStreamHub);
    await waitFor('the closed consoles’ streams to be dropped', async () => hub.connections === 0);
  });
});
