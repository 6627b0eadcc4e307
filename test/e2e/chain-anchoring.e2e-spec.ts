import { CHAIN_CHECKPOINT, ChainCheckpointPayload, topicName } from '@studio/contracts';
import { Client } from 'pg';
import { runAuditCli } from '../../apps/audit-cli/audit-cli';
import { VerifyEventChain } from '../../src/audit/verify-event-chain/verify-event-chain.use-case';
import { readCheckpoints } from '../../apps/audit-cli/kafka-checkpoints';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { TEST_KAFKA_BROKERS } from '../support/environment';
import { KafkaCollector } from '../support/kafka-collector';
import { startTestStudio, uniqueTopicPrefix, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(240_000);

const TABLE = 'pd-anchor';

/** Long pauses between rounds: the chain stands still after a round end while the test stops. */
const TABLES = [
  {
    id: TABLE,
    name: 'Pok Deng anchored',
    game: 'pok-deng',
    currency: 'THB',
    bettingWindowMs: 1_000,
    roundIntervalMs: 8_000,
    scanner: {
      wireFormat: 'studio-framed-v1',
      virtualShoe: { seed: 77, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
    },
  },
] as unknown as TableDefinition[];

/**
 * Chain anchoring on the real service, PostgreSQL and broker: every public round event's envelope
 * carries the chain head at it (and ChainCheckpoint events at round ends); after the studio stops,
 * deleting the newest round events still leaves a valid hash chain (the plain walk calls it
 * intact) but the verifier, reading the heads back from Kafka, names the table and the missing
 * events whenever a published one is gone.
 */
describe('chain checkpoints on the events topic', () => {
  const prefix = uniqueTopicPrefix('anchor');
  let db: TestDatabase;
  let studio: RunningStudio | undefined;
  let collector: KafkaCollector;
  let pg: Client;
  const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    (await pg.query(sql, params)).rows as T[];
  const head = async () =>
    (
      await q<{ event_no: string; hash: string }>(
        `SELECT event_no, hash FROM round_events WHERE table_id = $1 ORDER BY event_no DESC LIMIT 1`,
        [TABLE],
      )
    ).map((r) => ({ eventNo: Number(r.event_no), hash: r.hash }))[0];

  beforeAll(async () => {
    db = await createTestDatabase('chain-anchoring');
    pg = new Client({ connectionString: db.url });
    studio = await startTestStudio({
      databaseUrl: db.url,
      kafkaBrokers: TEST_KAFKA_BROKERS,
      topicPrefix: prefix,
      tables: TABLES,
      env: {
        VIRTUAL_DEALER_PACE_MS: '20',
        CHAIN_CHECKPOINT_INTERVAL_MS: '0',
        KAFKA_COMMAND_GROUP_ID: `studio-${prefix}`,
      },
    });
    await pg.connect();
    collector = new KafkaCollector(TEST_KAFKA_BROKERS, topicName('tableEvents', prefix));
    await collector.start();
  });

  afterAll(async () => {
    await collector?.stop();
    await studio?.close();
    await pg?.end();
    await db?.drop();
  });

  it('anchors every event up to the last published one: deleting the last K events (K = 1..40) is found for every K that reaches a published event', async () => {
    type Sent = { type: string; chain?: { eventNo: number; hash: string }; payload: unknown };
    const sent = () =>
      collector.events.filter((e) => e.key === TABLE).map((e) => e.envelope as unknown as Sent);
    const envelopeHead = () => Math.max(0, ...sent().map((e) => e.chain?.eventNo ?? 0));
    const checkpointHead = () =>
      Math.max(
        0,
        ...sent()
          .filter((e) => e.type === CHAIN_CHECKPOINT)
          .map((e) => (e.payload as ChainCheckpointPayload).eventNo),
      );
    // Stopped mid-round, after 45 events: only round events' envelopes carry the newest head.
    await waitFor(
      'a chain of 45+ events whose head went out in an envelope, past the last checkpoint',
      async () => {
        const now = await head();
        return now &&
          now.eventNo >= 45 &&
          envelopeHead() === now.eventNo &&
          checkpointHead() < now.eventNo
          ? now
          : undefined;
      },
      180_000,
      50,
    );
    await studio!.close();
    studio = undefined;
    const chainEnd = (await head()).eventNo;
    const all = await readCheckpoints([TEST_KAFKA_BROKERS], topicName('tableEvents', prefix));
    expect(all.invalid).toBe(0);
    // The round events' envelope heads alone, as read from the broker: no ChainCheckpoint needed.
    const fromEnvelopes = new Set(sent().flatMap((e) => (e.chain ? [e.chain.hash] : [])));
    const read = {
      invalid: 0,
      checkpoints: all.checkpoints.filter((c) => fromEnvelopes.has(c.hash)),
    };
    const published = Math.max(
      ...read.checkpoints.filter((c) => c.tableId === TABLE).map((c) => c.eventNo),
    );
    // Every envelope head is the stored event's own number and hash.
    const stored = new Map(
      (
        await q<{ event_no: string; hash: string }>(
          `SELECT event_no, hash FROM round_events WHERE table_id = $1`,
          [TABLE],
        )
      ).map((r) => [Number(r.event_no), r.hash]),
    );
    const heads = sent().filter((e) => e.chain);
    expect(heads.length).toBeGreaterThan(10);
    for (const e of heads) expect(stored.get(e.chain!.eventNo)).toBe(e.chain!.hash);
    expect(chainEnd - published).toBeLessThan(10);

    const kafkaArgs = ['--kafka-brokers', TEST_KAFKA_BROKERS, '--topic-prefix', prefix];
    const withAnchors = async (args: string[]) => {
      const out: string[] = [];
      const code = await runAuditCli('verify-chain', args, q, (l) => out.push(l), {
        read: async () => read, // the heads read from the broker above, once for the 40 runs
      });
      return { code, out: out.join('\n') };
    };
    const untouched = await withAnchors(kafkaArgs);
    expect(untouched.code).toBe(0);
    expect(untouched.out).toContain(`ANCHORED  ${TABLE}: anchored up to ${published}:`);
    expect(untouched.out).toContain(
      chainEnd === published
        ? `UNPUBLISHED ${TABLE}: none`
        : `UNPUBLISHED ${TABLE}: ${chainEnd - published} event(s) after the newest published head`,
    );

    let detected = 0;
    for (let k = 1; k <= 40; k += 1) {
      await q('BEGIN');
      try {
        await q(
          `DELETE FROM round_events WHERE id IN (
             SELECT id FROM round_events WHERE table_id = $1 ORDER BY event_no DESC LIMIT $2)`,
          [TABLE, k],
        );
        const r = await withAnchors(kafkaArgs);
        const end = chainEnd - k;
        if (end < published) {
          expect({ k, code: r.code }).toEqual({ k, code: 1 });
          expect(r.out).toContain(
            `TRUNCATED ${TABLE}: chain ends at ${end} but published head at ${published}`,
          );
          detected += 1;
        } else {
          // Only events not published yet were deleted: nothing anchors them, and it says so.
          expect({ k, code: r.code }).toEqual({ k, code: 0 });
          expect(r.out).toContain(`anchored up to ${published}`);
        }
      } finally {
        await q('ROLLBACK');
      }
    }
    expect(detected).toBe(40 - (chainEnd - published));
    console.log(
      `chain of ${chainEnd} events, published head ${published} (last checkpoint ${checkpointHead()}): deleting the last K = 1..40 events found for ${detected} K, the other ${40 - detected} deleted only unpublished events`,
    );

    // The service's own view (/audit/chain): anchored up to the head the relay published.
    const own = await new VerifyEventChain(q).againstPublished(TABLE);
    expect(own[0]).toMatchObject({
      intact: true,
      anchoredUpTo: published,
      anchor: { status: 'anchored' },
    });
    expect(own[0].unanchored.events).toBe(chainEnd - published);
  });
});
