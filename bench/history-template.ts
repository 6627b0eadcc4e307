/**
 * The history bench's templates: real rounds played by the real service (one table per game, a
 * virtual shoe each, simulated players betting and deciding over the platform HTTP API), on the
 * bench's own database. The generator (history-generate.ts) replicates them with new ids, times
 * and recomputed chain hashes, so every generated row has the shape and size the service writes.
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStudio } from '../src/bootstrap';
import { SystemClock } from '../src/clock/clock';
import { loadStudioConfig } from '../src/config/studio-config';
import { DemoPlayers, httpPlatformPost } from '../src/demo/demo-players';
import { TableRuntimeRegistry } from '../src/tables/table-runtime.registry';

export const GAMES = [
  'pok-deng',
  'infinite-blackjack',
  'blackjack-lux',
  'european-blackjack-practice',
] as const;
export type Game = (typeof GAMES)[number];

const CURRENCY: Record<Game, string> = {
  'pok-deng': 'THB',
  'infinite-blackjack': 'EUR',
  'blackjack-lux': 'EUR',
  'european-blackjack-practice': 'XPT',
};

export const templateTableId = (game: Game) => `tpl-${game}`;

/** Plays rounds on one template table per game for `seconds`, then stops the service. */
export async function playTemplateRounds(url: string, seconds: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'history-bench-'));
  const tables = GAMES.map((game, i) => ({
    id: templateTableId(game),
    name: `Template ${game}`,
    game,
    currency: CURRENCY[game],
    bettingWindowMs: 8_000,
    decisionWindowMs: 5_000,
    roundIntervalMs: 200,
    ...(game === 'european-blackjack-practice'
      ? {}
      : {
          scanner: {
            wireFormat: 'studio-framed-v1',
            virtualShoe: { seed: 700 + i, misreadRate: 0.03 },
          },
        }),
  }));
  const tablesFile = join(dir, 'tables.json');
  writeFileSync(tablesFile, JSON.stringify(tables));
  const key = 'history-bench-platform-key';
  const config = loadStudioConfig({
    DATABASE_URL: url,
    PORT: '0',
    LOG_LEVEL: 'error',
    TABLES_FILE: tablesFile,
    PLATFORM_API_KEYS: key,
  });
  const studio = await startStudio(config);
  const demo = new DemoPlayers(
    config.tables,
    httpPlatformPost('127.0.0.1', () => studio.app.getHttpServer(), key),
    new SystemClock(),
  );
  studio.app.get(TableRuntimeRegistry).onTransition((t, o) => demo.onTransition(t, o));
  try {
    await new Promise((r) => setTimeout(r, seconds * 1000));
  } finally {
    demo.stop();
    await studio.close();
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(
    `templates: ${seconds} s of play, demo players sent ${demo.stats.sent} commands (${demo.stats.accepted} accepted)\n`,
  );
}

/** Rows of one table as COPY text lines (all columns, in the table's order), UTC times. */
export function copyOut(url: string, select: string): string[] {
  const text = execFileSync('psql', [url, '-X', '-q', '-c', `COPY (${select}) TO STDOUT`], {
    env: { ...process.env, PGTZ: 'UTC' },
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  return text.length === 0 ? [] : text.replace(/\n$/, '').split('\n');
}
