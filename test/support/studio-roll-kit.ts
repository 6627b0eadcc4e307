import { writeTablesFile } from './studio-harness';
import type { ServiceProcess } from './service-process';

/** Twelve tables, Pok Deng and Infinite Blackjack alternately. */
export const ROLL_TABLES = Array.from({ length: 12 }, (_, i) =>
  i % 2 === 0
    ? { id: `roll-pd-${i}`, game: 'pok-deng' as const, currency: 'THB' }
    : { id: `roll-ibj-${i}`, game: 'infinite-blackjack' as const, currency: 'EUR' },
);

export interface RollInstance {
  id: string;
  service: ServiceProcess;
  url: string;
  token: string;
}

/** What GET /tables says of a table, as far as the dealers of the test need it. */
export interface RollTableView {
  tableId: string;
  driven: boolean;
  expectedCard: { slot: string } | null;
  paused: unknown;
  shoe: { number: number; cardsDrawn: number; lastRoundNumber: number | null } | null;
  round: { phase: string } | null;
}

/** Cards of an 8-deck shoe after which the dealer draws the cut card, as a real dealer would. */
export const CUT_CARD_AT = Math.floor(8 * 52 * 0.7);

export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** The tables file: every table reads its shoe over TCP from the device server on `port(id)`. */
export function rollTablesFile(port: (tableId: string) => number): string {
  return writeTablesFile(
    ROLL_TABLES.map((t) => ({
      id: t.id,
      name: t.id,
      game: t.game,
      currency: t.currency,
      bettingWindowMs: 1_500,
      decisionWindowMs: 1_500,
      roundIntervalMs: 300,
      scanner: { wireFormat: 'studio-framed-v1', path: `tcp://127.0.0.1:${port(t.id)}` },
    })) as never,
  );
}

/** A supervisor's token on the instance at `url` (demo users). */
export async function supervisorToken(url: string): Promise<string> {
  const login = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'supervisor', password: 'supervisor-demo' }),
  });
  return ((await login.json()) as { token: string }).token;
}

/** GET /tables from the first running instance that answers (one may be stopping). */
export async function tableViews(instances: Iterable<RollInstance>): Promise<RollTableView[]> {
  for (const instance of instances) {
    try {
      const response = await fetch(`${instance.url}/tables`, {
        headers: { authorization: `Bearer ${instance.token}` },
      });
      if (response.ok) return (await response.json()) as RollTableView[];
    } catch {
      // that instance is stopping: ask the next
    }
  }
  return [];
}

/** The reasons of a pause at a takeover without a handover (what a graceful roll must not cause). */
export const TAKEOVER_PAUSES = [
  'The service restarted while a card was expected%',
  'The previous owner stopped driving this table without handing it over%',
  '%sent while no instance drove the table%',
  'The first frame read after the takeover%',
];
