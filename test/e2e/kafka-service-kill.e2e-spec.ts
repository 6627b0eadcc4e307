import { PlaceBetCommandMessage } from '@studio/contracts';
import { Client } from 'pg';
import { PlatformKafkaClient } from '../../apps/platform-simulator/platform-client';
import { TEST_KAFKA_BROKERS } from '../support/environment';
import { ServiceProcess, spawnService } from '../support/service-process';
import {
  shoeDealtByTheTest,
  uniqueTopicPrefix,
  waitFor,
  writeTablesFile,
} from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(300_000);

const TABLE = 'pd-kill';
const COMMANDS = 400;

/**
 * The service is SIGKILLed while platform commands stream in over Kafka, and started again:
 * every command is answered (none lost: the consumer commits an offset only after the answer),
 * and no command is applied twice (a re-read command id gets its stored answer).
 */
describe('command intake across a SIGKILL of the service', () => {
  const prefix = uniqueTopicPrefix('kill');
  let db: TestDatabase;
  let pg: Client;
  let platform: PlatformKafkaClient;
  let service: ServiceProcess | undefined;

  const tablesFile = writeTablesFile([
    {
      id: TABLE,
      name: 'Pok Deng kill',
      game: 'pok-deng',
      currency: 'THB',
      // Open for the whole test: every bet is valid whenever it arrives.
      bettingWindowMs: 600_000,
      roundIntervalMs: 100,
      scanner: {
        wireFormat: 'studio-framed-v1',
        virtualShoe: shoeDealtByTheTest(9),
      },
    } as never,
  ]);
  const env = (): Record<string, string> => ({
    DATABASE_URL: db.url,
    PORT: '0',
    LOG_LEVEL: 'info',
    STUDIO_INSTANCE_ID: 'kill-test-instance',
    TABLE_LEASE_TTL_MS: '2000',
    TABLES_FILE: tablesFile,
    KAFKA_BROKERS: TEST_KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: prefix,
    KAFKA_COMMAND_GROUP_ID: `studio-${prefix}`,
    VIRTUAL_DEALER_PACE_MS: '15',
  });
  const bet = (i: number): PlaceBetCommandMessage => ({
    commandId: `kill-${i}`,
    type: 'PlaceBet',
    schemaVersion: 1,
    tableId: TABLE,
    playerId: `player-${i}`,
    betType: 'player',
    spot: String((i % 5) + 1),
    amount: 1_000 + i,
    currency: 'THB',
  });

  beforeAll(async () => {
    db = await createTestDatabase('kafka-kill');
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    platform = new PlatformKafkaClient({ brokers: [TEST_KAFKA_BROKERS], topicPrefix: prefix });
  });

  afterAll(async () => {
    service?.killGroup('SIGKILL');
    await service?.exited(10_000).catch(() => undefined);
    await platform?.stop();
    await pg?.end();
    await db?.drop();
  });

  it('answers every command and applies none twice', async () => {
    service = spawnService(env());
    await service.listening();
    await platform.start();
    // Pok Deng deals while betting is open. A service that dies while a card is expected comes
    // back paused for a supervisor (bets then get table-paused), so kill it only once the round's
    // cards are all on the table: what is tested here is the intake, not that rule.
    await waitFor(
      'betting to open and the cards to be dealt',
      async () => platform.events.some((e) => e.envelope.type === 'AllCardsDealt'),
      60_000,
    );
    // Stream commands; kill the service when about a third have been answered.
    let sent = 0;
    const sendSome = async (n: number) => {
      const batch = Array.from({ length: n }, (_, k) => bet(sent + k));
      sent += n;
      await platform.sendMany(batch);
    };
    const answered = () => new Set(platform.results.map((r) => r.commandId)).size;
    // Two thirds go out while the service runs; it is killed once a third are answered, so
    // commands are in flight (read, maybe applied, not yet committed) when it dies.
    while (sent < (2 * COMMANDS) / 3 && answered() < COMMANDS / 3) {
      await sendSome(20);
      await new Promise((r) => setTimeout(r, 20));
    }
    await waitFor('a third answered', async () => answered() >= COMMANDS / 3, 60_000, 5);
    service.killGroup('SIGKILL');
    await service.exited(10_000);
    const answeredBeforeKill = answered();
    const sentBeforeKill = sent;
    while (sent < COMMANDS) await sendSome(Math.min(20, COMMANDS - sent));

    service = spawnService(env());
    await service.listening();
    await waitFor(
      'an answer to every command',
      async () => new Set(platform.results.map((r) => r.commandId)).size === COMMANDS,
      120_000,
      200,
    ).catch((error) => {
      const lines = service!.stdout().split('\n');
      throw new Error(
        `${(error as Error).message}: ${new Set(platform.results.map((r) => r.commandId)).size} answered; ` +
          `service log:\n${lines
            .filter((l) => /Kafka|Command|ServerKafka|error/i.test(l))
            .slice(-25)
            .join('\n')}`,
      );
    });
    const answers = platform.results.filter((r) => r.commandId.startsWith('kill-'));
    const byId = new Map<string, typeof answers>();
    for (const a of answers) byId.set(a.commandId, [...(byId.get(a.commandId) ?? []), a]);
    const reanswered = [...byId.values()].filter((list) => list.length > 1);
    const { rows } = await pg.query<{ command_id: string; n: number }>(
      `SELECT command_id, count(*)::int AS n FROM bets WHERE command_id LIKE 'kill-%' GROUP BY command_id`,
    );
    console.log(
      `${COMMANDS} commands, ${sentBeforeKill} sent and ${answeredBeforeKill} answered before the SIGKILL; ${answers.length} answers ` +
        `(${reanswered.length} commands answered twice: re-read after the restart, marked duplicate); ` +
        `${rows.length} bets stored, max per command ${Math.max(...rows.map((r) => r.n))}`,
    );
    expect(byId.size).toBe(COMMANDS);
    const refused = [...byId.values()]
      .filter((list) => list[0].status !== 'accepted')
      .map((list) => `${list[0].commandId}: ${list[0].code}`);
    expect(refused).toEqual([]);
    // A second answer is the stored first one.
    for (const list of reanswered) {
      expect(list.slice(1).every((a) => a.duplicate && a.status === list[0].status)).toBe(true);
    }
    expect(rows).toHaveLength(COMMANDS);
    expect(rows.every((r) => r.n === 1)).toBe(true);
  });
});
