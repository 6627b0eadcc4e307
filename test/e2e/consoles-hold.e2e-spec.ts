import type { CardCode } from '@studio/cards';
import { PtyPair } from '@studio/virtual-shoe';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { ConsoleBrowserKit, TestShoe } from '../support/console-browser';
import { postJson, signIn, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(240_000);

const PLATFORM_KEY = 'hold-platform-key';
const ROUNDS = 5;

/**
 * One Pok Deng round dealt burn, P1..P5, Banker, P1..P5, Banker: every player gets a 4 and a 5
 * (or a 3 and a 6) of one suit — pok 9 with a flush, paid 2:1 — against a banker 5. Stacked like
 * this, a table's players win every round.
 */
const PLAYERS_WIN: CardCode[] = [
  'KC',
  '4S',
  '4H',
  '4D',
  '4C',
  '3S',
  '2D',
  '5S',
  '5H',
  '5D',
  '5C',
  '6S',
  '3C',
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

  /** A round with a bet on player spot 1, every card from the shoe, betting closed: settled. */
  async function playStackedRound(index: number): Promise<void> {
    const view = await kit.dealUntilRound(shoe, 'pd-stacked');
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
    if (index === 0) {
      shoe.stack(PLAYERS_WIN);
      // The reader ignores a card read twice within 300 ms (debounce): the shuffled shoe's last
      // card may be the stacked shoe's first.
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    await kit.dealRestOfRound(shoe, 'pd-stacked');
    const closed = await postJson(
      studio.url,
      '/tables/pd-stacked/close-betting',
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(closed.status).toBeLessThan(300);
    await waitFor(`round ${view.round!.number} to be settled`, async () => {
      const rows = await studio.database.dataSource.query(
        `SELECT status FROM rounds WHERE id = $1`,
        [view.round!.id],
      );
      return rows[0]?.status === 'completed';
    });
  }

  it('raises the alert when a stacked shoe pushes a table’s return out of its band', async () => {
    for (let i = 0; i < ROUNDS; i += 1) await playStackedRound(i);
    const settled = await studio.database.dataSource.query(
      `SELECT outcome, stake::int, net::int FROM settlements ORDER BY id`,
    );
    expect(settled).toHaveLength(ROUNDS);
    // Every round a pok 9 flush against a banker 5: the player wins twice the bet; the stake
    // recorded is what was deducted, the bet and its deposit.
    for (const s of settled) expect(s).toMatchObject({ stake: 20_000, net: 20_000 });

    const page = await kit.signedIn('supervisor', 'supervisor-demo');
    await page.getByRole('link', { name: 'Hold monitoring' }).click();
    await page.waitForURL(/hold\.html$/);
    const alert = page.locator(
      '#hold-alerts li[data-table="pd-stacked"][data-alert="return-above"]',
    );
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(
      /^Pok Deng Stacked: Players' return 200\.00% over the last 5 rounds is above the 99% band/,
    );
    const card = page.locator('article[data-table="pd-stacked"]');
    expect(await card.getAttribute('data-verdict')).toBe('above');
    // The plots are uPlot's canvases, drawn from the API's series.
    await card.locator('.uplot canvas').nth(1).waitFor();
    expect(await card.locator('.u-title').allTextContents()).toEqual([
      'Return to players after each round (%)',
      'Rounds per hour (last 24 hours)',
    ]);
    const practice = page.locator('article[data-table="practice-1"]');
    expect(await practice.textContent()).toContain('Virtual shoe: no scanner needed');
    expect(await practice.getAttribute('data-verdict')).toBe('too-few-rounds');
    expect(await page.locator('#hold-alerts li[data-table="practice-1"]').count()).toBe(0);
    expect(await page.locator('#games-table tr[data-game="pok-deng"]').textContent()).toContain(
      'Pok Deng',
    );
    await kit.screenshot(page, 'hold-monitoring');

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
    await kit.screenshot(page, 'supervisor-1280');
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
});
