import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The files the consoles consist of, and only these are served (no path ever reaches the disk). */
export const CONSOLE_FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'dealer.html': 'text/html; charset=utf-8',
  'supervisor.html': 'text/html; charset=utf-8',
  'auditor.html': 'text/html; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'cards.js': 'text/javascript; charset=utf-8',
  'format.js': 'text/javascript; charset=utf-8',
  'login.js': 'text/javascript; charset=utf-8',
  'dealer.js': 'text/javascript; charset=utf-8',
  'supervisor.js': 'text/javascript; charset=utf-8',
  'auditor.js': 'text/javascript; charset=utf-8',
  'hold.html': 'text/html; charset=utf-8',
  'hold.js': 'text/javascript; charset=utf-8',
  'names.js': 'text/javascript; charset=utf-8',
  'alerts.js': 'text/javascript; charset=utf-8',
  'action-log.js': 'text/javascript; charset=utf-8',
  'round-view.js': 'text/javascript; charset=utf-8',
  'supervisor-dialogs.js': 'text/javascript; charset=utf-8',
  'timeline.js': 'text/javascript; charset=utf-8',
  'timeline-words.js': 'text/javascript; charset=utf-8',
  'players.js': 'text/javascript; charset=utf-8',
  'player-label.js': 'text/javascript; charset=utf-8',
  'uPlot.esm.js': 'text/javascript; charset=utf-8',
  'uPlot.min.css': 'text/css; charset=utf-8',
};

/**
 * The charting library's files, served from the installed package (the CSP allows no CDN): the
 * hold-monitoring page imports uPlot as an ES module.
 */
export const VENDOR_FILES: Readonly<Record<string, () => string>> = {
  'uPlot.esm.js': () => require.resolve('uplot/dist/uPlot.esm.js'),
  'uPlot.min.css': () => require.resolve('uplot/dist/uPlot.min.css'),
};

/**
 * No inline script or style, nothing from elsewhere: a page can only run the service's own modules
 * and talk to the service. Downloads (exports) are made from blob: URLs.
 */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

/**
 * The pages live in src/consoles/public, next to this file in the source tree. The compiled service
 * runs from dist/src/consoles, so the folder is found by walking up to the repository root (the
 * folder that has package.json and the pages) rather than relative to __dirname; a build placed
 * outside the repository finds them from the working directory instead.
 */
export function findConsoleAssets(start = __dirname, cwd = process.cwd()): string {
  const found = walkUp(start) ?? walkUp(cwd);
  if (!found) {
    throw new Error(
      `The console pages (src/consoles/public) were not found above ${start} or ${cwd}`,
    );
  }
  return found;
}

function walkUp(start: string): string | undefined {
  let dir = start;
  for (;;) {
    const candidate = join(dir, 'src', 'consoles', 'public');
    if (existsSync(join(dir, 'package.json')) && existsSync(join(candidate, 'index.html'))) {
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Reads each console file once; the files are small and do not change while the service runs. */
export class ConsoleAssets {
  private readonly cache = new Map<string, Promise<Buffer>>();
  private folder?: string;

  constructor(private readonly locate: () => string = findConsoleAssets) {}

  /** The file and its content type, or undefined when the name is not one of the console files. */
  async get(name: string): Promise<{ body: Buffer; contentType: string } | undefined> {
    const contentType = CONSOLE_FILES[name];
    if (!contentType || !Object.prototype.hasOwnProperty.call(CONSOLE_FILES, name)) {
      return undefined;
    }
    this.folder ??= this.locate();
    let body = this.cache.get(name);
    if (!body) {
      const vendor = Object.prototype.hasOwnProperty.call(VENDOR_FILES, name)
        ? VENDOR_FILES[name]
        : undefined;
      body = readFile(vendor ? vendor() : join(this.folder, name));
      this.cache.set(name, body);
      body.catch(() => this.cache.delete(name));
    }
    return { body: await body, contentType };
  }
}
