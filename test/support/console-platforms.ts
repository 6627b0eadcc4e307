import type { Page } from 'playwright-core';
import type { RunningStudio } from '../../src/bootstrap';
import { RandomUuidGenerator, SystemClock } from '../../src/clock/clock';
import { formatAmount } from '../../src/consoles/public/format.js';
import { runPlatformAdmin } from '../../src/platforms/platform-admin';
import { PlatformsRepository } from '../../src/platforms/platforms.repository';
import type { ConsoleBrowserKit } from './console-browser';
import { postJson } from './studio-harness';

/**
 * A Pok Deng table of two currencies with bets of three platforms, for the consoles' browser
 * tests: alice of casino-a bets in THB (the table's default), another alice, of casino-b, in EUR,
 * and bob of the `default` platform in THB. The consoles must keep the two alices, the platforms
 * and the currencies apart.
 */
export const TWO_CURRENCIES = {
  THB: { player: { min: 1_000, max: 2_000_000 } },
  EUR: { player: { min: 100, max: 50_000 } },
};

const PLATFORMS = { 'casino-a': 'THB', 'casino-b': 'EUR' } as const;

export const BETS_OF_THREE_PLATFORMS = [
  { platform: 'casino-a', playerId: 'alice', spot: '1', amount: 123_400, currency: 'THB' },
  { platform: 'casino-b', playerId: 'alice', spot: '2', amount: 5_000, currency: 'EUR' },
  { platform: 'default', playerId: 'bob', spot: '3', amount: 5_000, currency: 'THB' },
] as const;

/** Registers casino-a (THB) and casino-b (EUR); answers each one's platform key. */
export async function addTwoPlatforms(studio: RunningStudio): Promise<Record<string, string>> {
  const deps = {
    repository: new PlatformsRepository(studio.database.dataSource),
    clock: new SystemClock(),
    ids: new RandomUuidGenerator(),
  };
  const keys: Record<string, string> = {};
  for (const [platform, currency] of Object.entries(PLATFORMS)) {
    await runPlatformAdmin(['add', platform, currency, platform], deps);
    keys[platform] = (await runPlatformAdmin(['key:create', platform], deps)).split('\n')[1];
  }
  return keys;
}

/** Places BETS_OF_THREE_PLATFORMS on the table's open round, each with its platform's key. */
export async function placeBetsOfThreePlatforms(
  url: string,
  tableId: string,
  keys: Record<string, string>,
): Promise<Array<{ status: number; body: Record<string, unknown> }>> {
  const answers = [];
  for (const [i, { platform, ...bet }] of BETS_OF_THREE_PLATFORMS.entries()) {
    answers.push(
      await postJson(
        url,
        `/platform/tables/${tableId}/bets`,
        { ...bet, commandId: `${tableId}-bet-${i + 1}`, betType: 'player' },
        { 'x-platform-key': keys[platform] },
      ),
    );
  }
  return answers;
}

/**
 * What the dealer's page of the table shows in words once its round has `cards` cards: the
 * table-side screen, which names no player of any platform. Screenshots at both sizes as `view`.
 */
export async function dealerPageText(
  kit: ConsoleBrowserKit,
  url: string,
  tableId: string,
  { cards, view }: { cards: number; view: string },
): Promise<{ title: string; text: string; below: string[] }> {
  const dealer = await kit.signedIn('dealer', 'dealer-demo');
  await dealer.goto(`${url}/console/dealer.html?table=${tableId}`);
  await dealer.locator('#connection').getByText('live', { exact: true }).waitFor();
  await dealer
    .locator('#cards .card')
    .nth(cards - 1)
    .waitFor();
  const below: string[] = [];
  await kit.atBothSizes(dealer, view, async () => {
    below.push(...(await kit.belowTheFold(dealer)).below);
  });
  const title = (await dealer.locator('#table-name').textContent()) ?? '';
  const text = (await dealer.locator('main').textContent()) ?? '';
  await dealer.context().close();
  return { title, text, below };
}

type Query = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

/**
 * The supervisor's action log after the round of BETS_OF_THREE_PLATFORMS was voided: each refund
 * names its player and platform apart and is in its own bet's currency, as the settlements rows
 * store it, and the round's total is one figure per currency.
 */
export async function expectRefundsOfThreePlatforms(
  page: Page,
  q: Query,
  roundId: string,
): Promise<void> {
  const refunds = await q<{
    player_id: string;
    platform_id: string;
    returned: string;
    currency: string;
    outcome: string;
  }>(
    `SELECT player_id, platform_id, returned, currency, outcome FROM settlements
        WHERE round_id = $1 ORDER BY id`,
    [roundId],
  );
  expect(refunds.map((r) => [r.player_id, r.platform_id, r.currency, r.outcome])).toEqual([
    ['casino-a:alice', 'casino-a', 'THB', 'void-refund'],
    ['casino-b:alice', 'casino-b', 'EUR', 'void-refund'],
    ['bob', 'default', 'THB', 'void-refund'],
  ]);
  // A Pok Deng player bet deducts twice its amount (games.md), and a void returns all of it.
  expect(refunds.map((r) => Number(r.returned))).toEqual([246_800, 10_000, 10_000]);
  const list = page.locator('tr.refunds .refund-list');
  const refundOf = (platform: string, player: string) =>
    list.locator(`li[data-platform="${platform}"][data-player="${player}"]`);
  await refundOf('casino-b', 'alice').getByText('refunded 100.00 EUR').waitFor();
  // The same playerId at two platforms is two players, each shown with its platform apart and
  // refunded in its own bet's currency (a stake says what it includes: the bet and its deposit).
  expect(await refundOf('casino-a', 'alice').textContent()).toBe(
    'alice casino-a · Player 1 · bet 1,234.00 THB + deposit 1,234.00 THB = stake 2,468.00 THB · refunded 2,468.00 THB',
  );
  expect(await refundOf('casino-b', 'alice').textContent()).toBe(
    'alice casino-b · Player 2 · bet 50.00 EUR + deposit 50.00 EUR = stake 100.00 EUR · refunded 100.00 EUR',
  );
  expect(await refundOf('default', 'bob').textContent()).toBe(
    'bob default · Player 3 · bet 50.00 THB + deposit 50.00 THB = stake 100.00 THB · refunded 100.00 THB',
  );
  expect(await refundOf('casino-b', 'alice').locator('.platform').getAttribute('title')).toBe(
    'Platform casino-b',
  );
  for (const r of refunds) {
    const refund = refundOf(r.platform_id, r.player_id.replace(`${r.platform_id}:`, ''));
    expect(await refund.getAttribute('data-currency')).toBe(r.currency);
    expect(await refund.textContent()).toContain(
      `refunded ${formatAmount(Number(r.returned), r.currency)}`,
    );
  }
  // The round's total per currency, never one figure across THB and EUR.
  expect(await page.locator('tr.refunds .refund-totals').textContent()).toBe(
    ' · returned 2,568.00 THB, 100.00 EUR',
  );
  // No player key glued out of platform and player reaches the page.
  expect(await page.locator('main').textContent()).not.toContain('casino-a:alice');
  expect(await page.locator('#detail-title').textContent()).toContain('THB, EUR');
}

/** The auditor's timeline of that round: bets and settlements of two platforms, two currencies. */
export async function expectTimelineOfThreePlatforms(page: Page): Promise<void> {
  const timeline = page.locator('#timeline');
  const lineOf = (kind: string, platform: string) =>
    timeline.locator(`li[data-kind="${kind}"]`).filter({
      has: page.locator(`.player[data-platform="${platform}"]`),
    });
  expect(await lineOf('settlement', 'casino-a').textContent()).toContain(
    'alice casino-a · Player 1 · stake 2,468.00 THB · returned 2,468.00 THB · net 0.00 THB',
  );
  expect(await lineOf('settlement', 'casino-b').textContent()).toContain(
    'alice casino-b · Player 2 · stake 100.00 EUR · returned 100.00 EUR · net 0.00 EUR',
  );
  expect(await lineOf('settlement', 'default').textContent()).toContain(
    'bob default · Player 3 · stake 100.00 THB · returned 100.00 THB',
  );
  expect(await lineOf('bet', 'casino-b').textContent()).toContain(
    'alice casino-b · Player 2 · 50.00 EUR (deducted 100.00 EUR)',
  );
  expect(await lineOf('bet', 'casino-a').locator('.player-id').textContent()).toBe('alice');
  expect(await page.locator('#round').textContent()).not.toMatch(/casino-[ab]:alice/);
}
