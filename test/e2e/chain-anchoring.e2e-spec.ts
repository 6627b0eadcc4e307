import { CHAIN_CHECKPOINT, ChainCheckpointPayload, topicName } from '@studio/contracts';
import { Client } from 'pg';
import { runAuditCli } from '../../apps/audit-cli/audit-cli';
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
 * Chain anchoring on the real service, PostgreSQL and broker: the studio publishes ChainCheckpoint
 * events; after it stops, deleting the newest round events still leaves a valid hash chain (the
 * plain walk calls it intact) but the verifier, reading the checkpoints back from Kafka, names the
 * table and the missing events.
 */
describe('chain checkpoints on the events topic', () => {
  const prefix = uniqueTopicPrefix('anchor');
  let db: TestDatabase;
  let studio: RunningStudio | undefined;
  let collector: KafkaCollector;
  let pg: Client;
  const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    (await pg.query(sql, params)).rows as T[];
  const verify = async (args: string[]) => {
    const out: string[] = [];
    const code = await runAuditCli('verify-chain', args, q, (l) => out.push(l), {
      read: readCheckpoints,
    });
    return { code, out };
  };
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
        CHAIN_CHECKPOINT_INTERVAL_MS: '300',
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

  it('anchors the chain head after a round end, and names a truncated tail by the missing events', async () => {
    const checkpoints = () =>
      collector.events
        .filter((e) => e.key === TABLE && e.envelope.type === CHAIN_CHECKPOINT)
        .map((e) => e.envelope.payload as ChainCheckpointPayload);
    // A published checkpoint at the current chain head, at or after the first round's end.
    const anchored = await waitFor(
      'a published checkpoint covering a round end',
      async () => {
        const [ended] = await q<{ n: string | null }>(
          `SELECT max(event_no) AS n FROM round_events WHERE table_id = $1 AND type = 'RoundCompleted'`,
          [TABLE],
        );
        const now = await head();
        const latest = checkpoints().at(-1);
        return ended.n !== null && latest && now && latest.eventNo === now.eventNo
          ? { latest, roundEnd: Number(ended.n) }
          : undefined;
      },
      120_000,
      100,
    );
    await studio!.close();
    studio = undefined;
    const { latest } = anchored;
    expect(latest.eventNo).toBeGreaterThanOrEqual(anchored.roundEnd);
    expect(latest.eventNo).toBeGreaterThan(3);
    // Stopped while the table waited between rounds: the chain ends at the checkpoint.
    expect(await head()).toEqual({ eventNo: latest.eventNo, hash: latest.hash });

    const kafkaArgs = ['--kafka-brokers', TEST_KAFKA_BROKERS, '--topic-prefix', prefix];
    const untouched = await verify(kafkaArgs);
    expect(untouched.out.join('\n')).toContain(
      `ANCHORED  ${TABLE}: event ${latest.eventNo} matches the checkpoint`,
    );
    expect(untouched.code).toBe(0);

    await q(
      `DELETE FROM round_events WHERE id IN (
         SELECT id FROM round_events WHERE table_id = $1 ORDER BY event_no DESC LIMIT 3)`,
      [TABLE],
    );
    // What remains is a valid, shorter chain: the walk alone cannot tell.
    const plain = await verify(['--table', TABLE]);
    expect(plain.code).toBe(0);
    expect(plain.out).toEqual([`INTACT    ${TABLE}: ${latest.eventNo - 3} event(s) chained`]);

    const truncated = await verify(kafkaArgs);
    expect(truncated.code).toBe(1);
    expect(truncated.out).toContain(
      `TRUNCATED ${TABLE}: chain ends at ${latest.eventNo - 3} but checkpoint at ${latest.eventNo} (hash ${latest.hash}) — 3 events missing`,
    );
  });
});
