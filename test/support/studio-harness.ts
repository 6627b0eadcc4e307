import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningStudio, startStudio } from '../../src/bootstrap';
import { loadStudioConfig } from '../../src/config/studio-config';
import type { TableDefinition } from '../../src/config/tables-config';
import { recordStudioOutbox } from './conformance-recorder';

export interface TestStudioOptions {
  databaseUrl: string;
  kafkaBrokers?: string;
  topicPrefix?: string;
  tables?: TableDefinition[];
  env?: Record<string, string>;
}

export const DEMO_TABLES: TableDefinition[] = [
  { id: 'ibj-1', name: 'Infinite Blackjack 1', game: 'infinite-blackjack', currency: 'EUR' },
  { id: 'lux-1', name: 'Blackjack Lux 1', game: 'blackjack-lux', currency: 'EUR' },
  { id: 'pokdeng-1', name: 'Pok Deng 1', game: 'pok-deng', currency: 'THB' },
];

export function uniqueTopicPrefix(label: string): string {
  return `test.${label}.${randomBytes(3).toString('hex')}.`;
}

export function writeTablesFile(tables: TableDefinition[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'studio-tables-'));
  const file = join(dir, 'tables.json');
  writeFileSync(file, JSON.stringify(tables, null, 2));
  return file;
}

/**
 * A virtual shoe that deals only when the test (or the virtual dealer) asks: no timed dealing
 * within an hour, no misreads, a heartbeat quiet enough not to matter.
 */
export function shoeDealtByTheTest(seed: number) {
  return { seed, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 };
}

/** Boots the real service in-process on an ephemeral port, configured as an operator would. */
export async function startTestStudio(options: TestStudioOptions): Promise<RunningStudio> {
  const env: Record<string, string> = {
    PORT: '0',
    LOG_LEVEL: 'warn',
    DATABASE_URL: options.databaseUrl,
    DATABASE_POOL_SIZE: '5',
    OUTBOX_POLL_INTERVAL_MS: '50',
    OUTBOX_MAX_BACKOFF_MS: '1000',
    TABLES_FILE: writeTablesFile(options.tables ?? DEMO_TABLES),
    ...(options.kafkaBrokers ? { KAFKA_BROKERS: options.kafkaBrokers } : {}),
    // The file's own consumer group too, so test files running side by side never share one.
    ...(options.topicPrefix
      ? {
          KAFKA_TOPIC_PREFIX: options.topicPrefix,
          KAFKA_COMMAND_GROUP_ID: `${options.topicPrefix}commands`,
        }
      : {}),
    ...options.env,
  };
  const studio = await startStudio(loadStudioConfig(env));
  const close = studio.close.bind(studio);
  // The conformance check at the end of the suite validates every event this studio committed,
  // read once the studio has stopped: the stop itself starts at once (readiness turns 503 first).
  studio.close = async (why?: string) => {
    try {
      await close(why);
    } finally {
      await recordStudioOutbox(
        options.databaseUrl,
        `studio:${options.databaseUrl.split('/').pop()}`,
      );
    }
  };
  return studio;
}

/** One wait for every test (support/wait-for.ts), here too for the files that import it from here. */
export { waitFor } from './wait-for';

/** POSTs JSON to the running service and returns the status and the JSON body. */
export async function postJson(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Signs in and returns the bearer token. */
export async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const { body } = await postJson(baseUrl, '/auth/login', { username, password });
  return body.token as string;
}
