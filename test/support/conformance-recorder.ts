import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { REPO_ROOT } from './environment';

/**
 * Where the integration tests leave every published event envelope and every command answer they
 * saw, one JSON record a line, for the conformance check that runs at the end of the suite
 * (global teardown) against the shipped schema files.
 */
export const CONFORMANCE_DIR = join(REPO_ROOT, '.tmp', 'conformance');

export type ConformanceKind = 'event' | 'answer' | 'command';

export interface ConformanceRecord {
  kind: ConformanceKind;
  source: string;
  value: unknown;
}

export function resetConformanceRecords(): void {
  rmSync(CONFORMANCE_DIR, { recursive: true, force: true });
}

/** Appends records to a file of this run (one file per caller, so parallel writers never mix). */
export function recordForConformance(
  kind: ConformanceKind,
  source: string,
  values: readonly unknown[],
): void {
  if (values.length === 0) return;
  mkdirSync(CONFORMANCE_DIR, { recursive: true });
  const file = join(CONFORMANCE_DIR, `${process.pid}-${randomBytes(4).toString('hex')}.ndjson`);
  const lines = values.map((value) => JSON.stringify({ kind, source, value }) + '\n');
  appendFileSync(file, lines.join(''));
}

interface OutboxRow {
  event_id: string;
  type: string;
  schema_version: number;
  table_id: string;
  round_id: string | null;
  seq: string;
  occurred_at: Date | string;
  payload: unknown;
}

/**
 * Every event the studio wrote to its outbox, as the relay publishes it (the contract's
 * envelope), recorded when the studio stops. Published or not: what is in the outbox is what
 * the service committed to announce. Read on a connection of its own: a test may have closed the
 * studio's (an outage it caused on purpose).
 */
export async function recordStudioOutbox(databaseUrl: string, source: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  let rows: OutboxRow[];
  try {
    ({ rows } = await client.query<OutboxRow>(
      `SELECT event_id, type, schema_version, table_id, round_id, seq, occurred_at, payload
         FROM outbox ORDER BY id`,
    ));
  } finally {
    await client.end();
  }
  recordForConformance(
    'event',
    source,
    rows.map((row) => ({
      eventId: row.event_id,
      type: row.type,
      schemaVersion: row.schema_version,
      tableId: row.table_id,
      ...(row.round_id ? { roundId: row.round_id } : {}),
      seq: Number(row.seq),
      occurredAt: new Date(row.occurred_at).toISOString(),
      payload: row.payload,
    })),
  );
}

/** What a platform consumer received (event envelopes as parsed, command answers) and sent. */
export function recordPlatformTraffic(
  source: string,
  platform:
    | {
        events: readonly { envelope: unknown }[];
        results: readonly unknown[];
        sent?: readonly unknown[];
      }
    | undefined,
): void {
  if (!platform) return;
  recordForConformance(
    'event',
    source,
    platform.events.map((e) => e.envelope),
  );
  recordForConformance('answer', source, platform.results);
  recordForConformance('command', source, platform.sent ?? []);
}
