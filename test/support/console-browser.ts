import type { CardCode } from '@studio/cards';
import { wireFormat } from '@studio/scanner-protocol';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { SerialPortSink } from '@studio/virtual-shoe';
import { Emission, VirtualShoe } from '@studio/virtual-shoe';
import { PtyPair } from '@studio/virtual-shoe';
import { waitFor } from './studio-harness';

/** What the browser tests of the consoles share: the test shoe, chromium, sign-in, screenshots. */

export const SCREENSHOTS = resolve(__dirname, '..', '..', 'test-artifacts', 'screenshots');

/** The screens the consoles are made for: a desktop, and a 1024×600 table-side screen. */
export const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 600 },
] as const;

/**
 * A virtual shoe whose reader bytes the test writes, one emission at a time, into a real socat
 * pseudo-terminal that the service reads as the table's serial scanner: the test decides when the
 * shoe misreads and when the card is finally read, and watches the consoles in between.
 */
export class TestShoe {
  private shoe: VirtualShoe;
  private readonly sink: SerialPortSink;
  private pending: Emission[] = [];

  constructor(
    readonly pty: PtyPair,
    seed: number,
    misreadRate: number,
    maxMisreadsPerCard = 3,
  ) {
    this.shoe = new VirtualShoe({
      seed,
      decks: 8,
      encoder: wireFormat('line')!.createEncoder!(),
      misreadRate,
      maxMisreadsPerCard,
    });
    this.sink = new SerialPortSink({ path: pty.shoePath, baudRate: 9600 });
  }

  /**
   * From now on the shoe deals `pattern` again and again (suits rotated each time, see
   * stackedShoe) with no misreads: a stacked shoe, e.g. one that makes the players win.
   */
  stack(pattern: readonly CardCode[]): void {
    this.pending = [];
    this.shoe = new VirtualShoe({
      seed: 1,
      decks: 8,
      encoder: wireFormat('line')!.createEncoder!(),
      stacked: pattern,
    });
  }

  /** The next thing the reader sends: a misread of the card in hand, or the card itself. */
  next(): Emission {
    if (this.pending.length === 0) this.pending = this.shoe.drawNext();
    return this.pending.shift()!;
  }

  /**
   * The next emission that is not a misread: the card in hand read cleanly. Skipping frames is
   * harmless here because the line format carries no sequence numbers.
   */
  nextClean(): Emission {
    for (;;) {
      const emission = this.next();
      if (emission.kind !== 'misread') return emission;
    }
  }

  write(emission: Emission): Promise<void> {
    return this.sink.write(emission.bytes);
  }

  async close(): Promise<void> {
    await this.sink.close();
    await this.pty.stop();
  }
}

export interface TableApiView {
  round: { id: string; number: number; phase: string; bettingOpen: boolean } | null;
  shoe: { number: number; roundNumber: number; cardsDrawn: number; phase: string } | null;
  expectedCard: { slot: string; label: string } | null;
  rescan: { attempts: number; escalated: boolean } | null;
  paused: { kind: string; reason: string; by: string } | null;
}

/**
 * The WCAG contrast ratio of two computed colours (`rgb(…)`/`rgba(…)`, opaque): 4.5 is the least
 * for text of normal size (AA), 3 for large text.
 */
export function contrastRatio(color: string, background: string): number {
  const luminance = (css: string) => {
    const [r, g, b] = css
      .match(/[\d.]+/g)!
      .map(Number)
      .map((v) => v / 255);
    const linear = (v: number) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const [light, dark] = [luminance(color), luminance(background)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * One chromium (Debian's, driven by playwright-core) for a test file, with the table and page
 * helpers the console tests use. Script errors and console errors of every page opened through it
 * collect in `pageErrors` (a test file checks it after each test); screenshots are listed in
 * `screenshots` and printed by `close()`.
 */
export class ConsoleBrowserKit {
  readonly pageErrors: string[] = [];
  readonly screenshots: string[] = [];
  private browserOrNothing?: Browser;
  private urlOrNothing?: string;
  private tokenOrNothing?: string;

  /** Launches chromium for a running service; `token` is a supervisor's, for the table API. */
  async start(url: string, token: string): Promise<void> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    this.urlOrNothing = url;
    this.tokenOrNothing = token;
    this.browserOrNothing = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }

  get browser(): Browser {
    if (!this.browserOrNothing) throw new Error('ConsoleBrowserKit.start() was not called');
    return this.browserOrNothing;
  }

  get url(): string {
    if (!this.urlOrNothing) throw new Error('ConsoleBrowserKit.start() was not called');
    return this.urlOrNothing;
  }

  async close(): Promise<void> {
    await this.browserOrNothing?.close().catch(() => undefined);
    if (this.screenshots.length) {
      console.log(`Console screenshots:\n${this.screenshots.join('\n')}`);
    }
  }

  async tableApi(tableId: string): Promise<TableApiView> {
    const response = await fetch(`${this.url}/tables/${tableId}`, {
      headers: { authorization: `Bearer ${this.tokenOrNothing}` },
    });
    return (await response.json()) as TableApiView;
  }

  /** Writes one card (not a misread) and waits until the table has taken it. */
  async dealCard(shoe: TestShoe, tableId: string, emission: Emission): Promise<void> {
    const before = (await this.tableApi(tableId)).shoe?.cardsDrawn ?? 0;
    await shoe.write(emission);
    await waitFor(
      `${tableId} to take card #${emission.sequence}`,
      async () => ((await this.tableApi(tableId)).shoe?.cardsDrawn ?? 0) > before,
    );
  }

  async waitUntilCardExpected(tableId: string): Promise<TableApiView> {
    return waitFor(`${tableId} to expect a card`, async () => {
      const view = await this.tableApi(tableId);
      return view.expectedCard ? view : undefined;
    });
  }

  /** Feeds clean cards until the table's round is in progress and expects its next card. */
  async dealUntilRound(shoe: TestShoe, tableId: string): Promise<TableApiView> {
    for (let i = 0; i < 40; i += 1) {
      const view = await this.waitUntilCardExpected(tableId);
      if (view.round) return view;
      const emission = shoe.nextClean();
      if (emission.kind === 'card') await this.dealCard(shoe, tableId, emission);
      else await shoe.write(emission);
    }
    throw new Error(`${tableId} never started a round`);
  }

  /**
   * Writes a whole run of cards at once (the reader takes them one after the other) and waits
   * until the table has taken every one: a round of a stacked shoe in well under a second.
   */
  async dealBurst(shoe: TestShoe, tableId: string, count: number): Promise<void> {
    const before = (await this.tableApi(tableId)).shoe?.cardsDrawn ?? 0;
    for (let i = 0; i < count; i += 1) await shoe.write(shoe.nextClean());
    await waitFor(
      `${tableId} to take ${count} cards`,
      async () => ((await this.tableApi(tableId)).shoe?.cardsDrawn ?? 0) >= before + count,
    );
  }

  /**
   * Deals each card as the table asks for it (waiting while players decide), until the round in
   * progress ends or `cards` are dealt.
   */
  async dealAsAsked(
    shoe: TestShoe,
    tableId: string,
    roundId: string,
    cards: number,
  ): Promise<void> {
    for (let i = 0; i < cards; i += 1) {
      const view = await waitFor(`${tableId} to ask for card ${i + 1} of its round`, async () => {
        const v = await this.tableApi(tableId);
        return v.round?.id !== roundId || v.expectedCard ? v : undefined;
      });
      if (view.round?.id !== roundId) return;
      await this.dealCard(shoe, tableId, shoe.nextClean());
    }
  }

  /** Deals clean cards until the round in progress expects none (every hand has its cards). */
  async dealRestOfRound(shoe: TestShoe, tableId: string): Promise<void> {
    for (let i = 0; i < 60; i += 1) {
      const view = await this.tableApi(tableId);
      if (!view.round) throw new Error(`${tableId} has no round in progress`);
      if (!view.expectedCard) return;
      await this.dealCard(shoe, tableId, shoe.nextClean());
    }
    throw new Error(`${tableId} kept expecting cards`);
  }

  /** Records the page's script errors and console errors (a CSP violation is one) in pageErrors. */
  watch(page: Page, role: string): Page {
    page.on('pageerror', (error) => this.pageErrors.push(`${role}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') this.pageErrors.push(`${role}: ${message.text()}`);
    });
    return page;
  }

  /** Takes the page errors containing `text` out of pageErrors: ones a test caused on purpose. */
  forgive(text: string): string[] {
    const forgiven = this.pageErrors.filter((e) => e.includes(text));
    this.pageErrors.splice(
      0,
      this.pageErrors.length,
      ...this.pageErrors.filter((e) => !forgiven.includes(e)),
    );
    return forgiven;
  }

  /** The bearer token a signed-in page holds (in its sessionStorage). */
  async tokenOf(page: Page): Promise<string> {
    return page.evaluate(
      () =>
        (
          globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }
        ).sessionStorage.getItem('studio.console.token') ?? '',
    );
  }

  /** Ends a page's session behind its back (revoked, as a sign-out elsewhere or an expiry). */
  async revokeSession(page: Page): Promise<void> {
    const response = await fetch(`${this.url}/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await this.tokenOf(page)}` },
    });
    if (response.status !== 204) throw new Error(`sign-out answered ${response.status}`);
  }

  /** Signs in on the sign-in page the page is on (sent there when its session ended). */
  async signInHere(page: Page, username: string, password: string): Promise<void> {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** A new browser context (its own sessionStorage) signed in through the sign-in page. */
  async signedIn(username: string, password: string): Promise<Page> {
    const context = await this.browser.newContext({
      viewport: SIZES[0],
      acceptDownloads: true,
    });
    const page = this.watch(await context.newPage(), username);
    await page.goto(`${this.url}/console/`);
    await this.signInHere(page, username, password);
    await page.waitForURL(/\/console\/(dealer|supervisor|auditor)\.html/);
    return page;
  }

  /** A signed-in page at another screen size (a 1024×600 table screen, say). */
  async resized(page: Page, width: number, height: number): Promise<Page> {
    await page.setViewportSize({ width, height });
    return page;
  }

  /**
   * What lies (partly) below the viewport: every control, link and card that a user would have
   * to scroll to, described for the failure message; and whether the page scrolls at all.
   */
  async belowTheFold(page: Page): Promise<{ below: string[]; scrolls: boolean }> {
    return page.evaluate(() => {
      interface Box {
        width: number;
        height: number;
        bottom: number;
        right: number;
      }
      interface Node {
        tagName: string;
        id: string;
        className: string;
        getBoundingClientRect(): Box;
      }
      const doc = (
        globalThis as unknown as {
          document: {
            querySelectorAll(selector: string): Node[];
            scrollingElement: { scrollHeight: number } | null;
            documentElement: { scrollHeight: number };
          };
        }
      ).document;
      const win = globalThis as unknown as { innerHeight: number; innerWidth: number };
      const below: string[] = [];
      for (const node of doc.querySelectorAll('button, a, input, select, .card, #expected')) {
        const box = node.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (box.bottom > win.innerHeight || box.right > win.innerWidth) {
          below.push(
            `${node.tagName.toLowerCase()}#${node.id}.${node.className} bottom ${Math.round(box.bottom)}`,
          );
        }
      }
      const root = doc.scrollingElement ?? doc.documentElement;
      return { below, scrolls: root.scrollHeight > win.innerHeight + 1 };
    });
  }

  async screenshot(page: Page, view: string): Promise<void> {
    const path = join(SCREENSHOTS, `${view}.png`);
    await page.screenshot({ path, fullPage: true });
    this.screenshots.push(path);
  }

  /**
   * Runs `check` with the page at each screen size the consoles are made for, a desktop and a
   * 1024×600 table screen, and saves a screenshot of each as `<view>-<width>x<height>.png`
   * (taken before the check, once the page has settled into the size).
   */
  async atBothSizes(
    page: Page,
    view: string,
    check: (size: { width: number; height: number }) => Promise<void>,
  ): Promise<void> {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      // The pages redraw what depends on the width (the hold plots) a moment after a resize.
      await page.waitForTimeout(400);
      // Saved first: a check that fails leaves the picture of what it saw.
      await this.screenshot(page, `${view}-${size.width}x${size.height}`);
      await check(size);
    }
    await page.setViewportSize(SIZES[0]);
  }

  /**
   * How many pixels the page scrolls sideways at `width` (0: none), say on a phone, with a
   * screenshot `<page>-<width>.png` of it; the page is put back to the desktop size.
   */
  async sidewaysAt(page: Page, width: number): Promise<number> {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(400);
    await this.screenshot(page, `${new URL(page.url()).pathname.split('/').pop()}-${width}`);
    const overflow = await page.evaluate(() => {
      const doc = (
        globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }
      ).document;
      return (
        doc.documentElement.scrollWidth -
        (globalThis as unknown as { innerWidth: number }).innerWidth
      );
    });
    await page.setViewportSize(SIZES[0]);
    return overflow;
  }

  /** Computed style properties of the first element matching `selector`. */
  async styleOf(
    page: Page,
    selector: string,
    properties: string[],
  ): Promise<Record<string, string>> {
    return page
      .locator(selector)
      .first()
      .evaluate((node, names) => {
        const style = (
          globalThis as unknown as {
            getComputedStyle(n: unknown): { getPropertyValue(p: string): string };
          }
        ).getComputedStyle(node);
        return Object.fromEntries(names.map((n) => [n, style.getPropertyValue(n)]));
      }, properties);
  }

  /** The vertical gap in pixels between the bottom of one element and the top of the next. */
  async gapBetween(page: Page, above: string, below: string): Promise<number> {
    const a = (await page.locator(above).first().boundingBox())!;
    const b = (await page.locator(below).first().boundingBox())!;
    return Math.round(b.y - (a.y + a.height));
  }
}
