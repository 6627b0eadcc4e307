/**
 * The floor of the orchestrator bench: plain `pg` clients doing, per transition, the statements a
 * card reading costs the service, against the same tables of the same database, at the same pace
 * (one client per table, the same gap between a commit and the next card) or flat out. Each client
 * writes a table of its own (`floor-<n>`, with its studio_tables, lease, state, shoe and round
 * rows) so the floor pays the same indexes, foreign keys and row locks as the service.
 *
 * Variants:
 * - `statements`: the service's write path before issue 16: the reading row in its own
 *   autocommit, then BEGIN, lease check, state delta, card row, reading outcome, the last event
 *   for the hash chain, the events, the sequence bump, the outbox row, COMMIT (11 round trips);
 * - `function`: the same rows in one call of studio_commit_transition (one round trip).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Pool, PoolClient } from 'pg';

export type FloorVariant = 'statements' | 'function';

export interface FloorRun {
  samples: number[];
  seconds: number;
}

interface FloorTable {
  id: string;
  pool: Pool;
  shoeId: string;
  roundId: string;
  version: number;
  eventNo: number;
  prevHash: string;
}

const GENESIS = '0'.repeat(64);

function hash(prev: string, fields: unknown): string {
  return createHash('sha256')
    .update(prev)
    .update('\n')
    .update(JSON.stringify(fields))
    .digest('hex');
}

/**
 * The floor's tables; their clients share `connections` connections, as the service's tables
 * share its pool (the server's connection limit is shared with everything else on the machine).
 */
export async function prepareFloor(
  url: string,
  prefix: string,
  count: number,
  connections: number,
) {
  const tables: FloorTable[] = [];
  const pool = new Pool({ connectionString: url, max: connections });
  for (let n = 0; n < count; n += 1) {
    const client = pool;
    const id = `floor-${prefix}-${n}`;
    const shoeId = randomUUID();
    const roundId = randomUUID();
    await client.query(
      `INSERT INTO studio_tables (id, name, game, currency, configuration, configuration_hash, registered_at, updated_at)
       VALUES ($1, $1, 'pok-deng', 'THB', '{}', 'floor', now(), now())`,
      [id],
    );
    await client.query(
      `INSERT INTO table_leases (table_id, owner, epoch, acquired_at, renewed_at, expires_at)
       VALUES ($1, 'floor', 1, now(), now(), now() + interval '1 hour')`,
      [id],
    );
    await client.query(
      `INSERT INTO table_state (table_id, version, snapshot_version, state, updated_at)
       VALUES ($1, 1, 1, '{}', now())`,
      [id],
    );
    await client.query(
      `INSERT INTO shoes (id, table_id, shoe_number, deck_count, status, started_at)
       VALUES ($1, $2, 1, 8, 'open', now())`,
      [shoeId, id],
    );
    await client.query(
      `INSERT INTO rounds (id, table_id, shoe_id, shoe_number, round_number, game, status, phase, started_at)
       VALUES ($1, $2, $3, 1, 1, 'pok-deng', 'in-progress', 'started', now())`,
      [roundId, id, shoeId],
    );
    tables.push({ id, pool, shoeId, roundId, version: 1, eventNo: 0, prevHash: GENESIS });
  }
  return {
    tables,
    close: () => pool.end(),
  };
}

/** The rows one card reading writes (sizes like the service's: a delta, two events, one outbox). */
function transitionRows(t: FloorTable, n: number) {
  const at = new Date().toISOString();
  const raw = Buffer.from(`\x02${String(n).padStart(4, '0')}|AS\x03`);
  const reading = {
    kind: 'card',
    raw: raw.toString('hex'),
    decoded: { kind: 'card', code: 'AS', sequence: n },
    deviceSeq: n,
    receivedAt: at,
  };
  const delta = {
    o: {
      ingestion: { o: { lastSequence: { r: n }, counts: { p: [7, n % 9] } } },
      rounds: { o: { cards: { a: [{ slot: `p${n % 6}`, card: 'AS', faceDown: false }] } } },
    },
  };
  const events = [
    {
      type: 'ReadingProcessed',
      visibility: 'restricted',
      payload: {
        kind: 'card',
        code: 'AS',
        sequence: n,
        receivedAt: at,
        rawHex: reading.raw,
        outcome: 'applied',
        detail: { slot: `p${n % 6}` },
      },
    },
    {
      type: 'CardDealt',
      visibility: 'public',
      payload: { roundId: t.roundId, slot: `p${n % 6}`, card: 'AS', faceDown: false },
    },
  ];
  const chained = events.map((e) => {
    t.eventNo += 1;
    // Version-2 events as the service writes them (a salt each), hashed the floor's plain way.
    const fields = {
      tableId: t.id,
      eventNo: t.eventNo,
      roundId: t.roundId,
      ...e,
      occurredAt: at,
      chainVersion: 2,
      salt: randomBytes(16).toString('hex'),
    };
    const h = hash(t.prevHash, fields);
    const row = { ...fields, prevHash: t.prevHash, hash: h };
    t.prevHash = h;
    return row;
  });
  const outbox = [{ eventId: randomUUID(), type: 'CardDealt', payload: events[1].payload }];
  const card = { slot: `p${n % 6}`, card: 'AS', faceDown: false };
  return { at, reading, delta, chained, outbox, card };
}

async function statementsTransition(t: FloorTable, n: number): Promise<void> {
  const c = await t.pool.connect();
  try {
    await statementsOn(c, t, n);
  } finally {
    c.release();
  }
}

async function statementsOn(c: PoolClient, t: FloorTable, n: number): Promise<void> {
  const { at, reading, delta, chained, outbox, card } = transitionRows(t, n);
  const [{ id: readingId }] = (
    await c.query(
      `INSERT INTO scanner_readings (table_id, port, wire_format, kind, raw, decoded, device_seq, received_at, outcome)
       VALUES ($1, '/dev/floor', 'studio-framed-v1', 'card', $2, $3, $4, $5, 'recorded') RETURNING id`,
      [t.id, Buffer.from(reading.raw, 'hex'), reading.decoded, reading.deviceSeq, at],
    )
  ).rows;
  await c.query('BEGIN');
  try {
    const lease = await c.query(
      `SELECT 1 FROM table_leases WHERE table_id = $1 AND owner = $2 AND epoch = $3
          AND expires_at >= clock_timestamp() FOR SHARE`,
      [t.id, 'floor', 1],
    );
    if (lease.rowCount !== 1) throw new Error('floor lease lost');
    await c.query(
      `WITH updated AS (
         UPDATE table_state SET version = version + 1, updated_at = $4
          WHERE table_id = $1 AND version = $2 RETURNING version)
       INSERT INTO table_state_deltas (table_id, version, delta)
       SELECT $1, version, $3::json FROM updated RETURNING version`,
      [t.id, t.version, JSON.stringify(delta), at],
    );
    t.version += 1;
    await c.query(
      `INSERT INTO round_cards (round_id, shoe_id, table_id, slot, card, reading_id, face_down, dealt_at, revealed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [t.roundId, t.shoeId, t.id, card.slot, card.card, readingId, false, at, at],
    );
    await c.query(
      `UPDATE scanner_readings SET outcome = $2, outcome_detail = $3 WHERE id = $1 AND table_id = $4`,
      [readingId, 'applied', { slot: card.slot }, t.id],
    );
    await c.query(
      `SELECT event_no, hash FROM round_events WHERE table_id = $1 ORDER BY event_no DESC LIMIT 1`,
      [t.id],
    );
    await c.query(
      `INSERT INTO round_events (table_id, event_no, round_id, type, visibility, payload, actor, occurred_at, prev_hash, hash, chain_version, chain_salt)
       SELECT $2, e."eventNo", e."roundId", e.type, e.visibility, e.payload, NULL, e."occurredAt", e."prevHash", e.hash, e."chainVersion", e.salt
         FROM jsonb_to_recordset($1::jsonb) AS e("eventNo" bigint, "roundId" uuid, type text, visibility text,
              payload jsonb, "occurredAt" timestamptz, "prevHash" text, hash text, "chainVersion" smallint, salt text)`,
      [JSON.stringify(chained), t.id],
    );
    const [{ last_event_seq: seq }] = (
      await c.query(
        `WITH bumped AS (UPDATE studio_tables SET last_event_seq = last_event_seq + 1 WHERE id = $1
           RETURNING last_event_seq) SELECT last_event_seq FROM bumped`,
        [t.id],
      )
    ).rows;
    await c.query(
      `INSERT INTO outbox (event_id, topic, table_id, round_id, seq, type, schema_version, occurred_at, payload, publish_attempts)
       SELECT e."eventId", 'floor.table-events', $2, $3, $4, e.type, 1, $5, e.payload, 0
         FROM jsonb_to_recordset($1::jsonb) AS e("eventId" uuid, type text, payload jsonb)`,
      [JSON.stringify(outbox), t.id, t.roundId, seq, at],
    );
    await c.query('COMMIT');
  } catch (error) {
    await c.query('ROLLBACK');
    throw error;
  }
}

async function functionTransition(t: FloorTable, n: number): Promise<void> {
  const { at, reading, delta, chained, outbox, card } = transitionRows(t, n);
  const head = chained[0];
  // The shape TransitionCallRepository sends.
  const call = {
    tableId: t.id,
    owner: 'floor',
    epoch: 1,
    expectedVersion: t.version,
    at,
    stateMode: 'delta',
    reading: {
      port: '/dev/floor',
      wireFormat: 'studio-framed-v1',
      kind: 'card',
      rawHex: reading.raw,
      decoded: reading.decoded,
      deviceSeq: reading.deviceSeq,
      receivedAt: at,
      outcome: 'applied',
      outcomeDetail: { slot: card.slot },
    },
    newShoe: null,
    finishShoe: null,
    newRound: null,
    roundStatus: null,
    cards: [{ ...card, roundId: t.roundId, shoeId: t.shoeId, readingId: 'unstored' }],
    reveals: [],
    settlements: [],
    hands: null,
    lapse: null,
    readingOutcome: null,
    prevEventNo: head.eventNo - 1,
    prevHash: head.prevHash,
    genesis: GENESIS,
    events: chained,
    outbox: outbox.map((o) => ({
      ...o,
      topic: 'floor.table-events',
      roundId: t.roundId,
      schemaVersion: 1,
      occurredAt: at,
    })),
  };
  await t.pool.query(`SELECT studio_commit_transition($1::jsonb, $2::json) AS r`, [
    JSON.stringify(call),
    JSON.stringify(delta),
  ]);
  t.version += 1;
}

/**
 * Every table's client writes `count` transitions, each `gapMs` after the previous commit (the
 * bench's own pace); a sample is one transition's time from its first statement to its commit.
 */
export async function runFloor(
  tables: readonly FloorTable[],
  variant: FloorVariant,
  count: number,
  gapMs: number,
  firstN: number,
): Promise<FloorRun> {
  const step = variant === 'function' ? functionTransition : statementsTransition;
  const samples: number[] = [];
  const started = process.hrtime.bigint();
  await Promise.all(
    tables.map(async (t) => {
      for (let i = 0; i < count; i += 1) {
        const t0 = process.hrtime.bigint();
        await step(t, firstN + i);
        samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { samples: samples.sort((a, b) => a - b), seconds };
}
