import {
  CommandResultMessage,
  DecideCommandMessage,
  PlaceBetCommandMessage,
} from '@studio/contracts';
import { Client } from 'pg';
import { PlatformKafkaClient } from '../../apps/platform-simulator/platform-client';
import { TEST_KAFKA_BROKERS } from '../support/environment';
import { ServiceProcess, spawnService } from '../support/service-process';
import {
  postJson,
  shoeDealtByTheTest,
  signIn,
  uniqueTopicPrefix,
  waitFor,
  writeTablesFile,
} from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(300_000);

const TABLE = 'ibj-intake-kill';
const COMMANDS = 10_000;
const BATCH = 1_000;

/**
 * The service is SIGKILLed while the intake works through 10,000 Infinite Blackjack bets (chunks
 * of 1,000, pipelined: one chunk's answers going out while the next commits), then started
 * again. Every command is answered, a second answer only as a duplicate of the first; every
 * accepted bet is stored once; and the table recovered from its snapshot and state deltas knows
 * every player who bet before the kill. Then the same for those 10,000 players' decisions in one
 * decision window: killed mid-window, every decision answered once and stored once.
 */
/**
 * The answers by command id, having checked that every command was accepted and that any later
 * answer to it is a duplicate of the first.
 */
function answeredOnceEach(results: readonly CommandResultMessage[]) {
  const byId = new Map<string, CommandResultMessage[]>();
  for (const a of results) byId.set(a.commandId, [...(byId.get(a.commandId) ?? []), a]);
  const refused = [...byId.values()]
    .filter((list) => list[0].status !== 'accepted')
    .map((list) => `${list[0].commandId}: ${list[0].code}`);
  expect(refused).toEqual([]);
  const repeated = [...byId.values()].filter((list) => list.length > 1);
  for (const list of repeated) {
    expect(list.slice(1).every((a) => a.duplicate && a.status === list[0].status)).toBe(true);
  }
  return { byId, repeated };
}

describe('Kafka intake batch across a SIGKILL of the service', () => {
  const prefix = uniqueTopicPrefix('ikill');
  let db: TestDatabase;
  let pg: Client;
  let platform: PlatformKafkaClient;
  let service: ServiceProcess | undefined;
  /** The round the first test's players bet in; the second test's decisions are for it. */
  let roundId: string;

  const tablesFile = writeTablesFile([
    {
      id: TABLE,
      name: 'IBJ intake kill',
      game: 'infinite-blackjack',
      currency: 'EUR',
      // Open for the whole test: every bet is valid whenever it arrives.
      bettingWindowMs: 600_000,
      decisionWindowMs: 600_000,
      roundIntervalMs: 0,
      scanner: {
        wireFormat: 'studio-framed-v1',
        virtualShoe: shoeDealtByTheTest(5),
      },
    } as never,
  ]);
  const env = (): Record<string, string> => ({
    DATABASE_URL: db.url,
    PORT: '0',
    LOG_LEVEL: 'info',
    STUDIO_INSTANCE_ID: 'intake-kill-instance',
    TABLE_LEASE_TTL_MS: '2000',
    TABLES_FILE: tablesFile,
    KAFKA_BROKERS: TEST_KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: prefix,
    KAFKA_COMMAND_GROUP_ID: `studio-${prefix}`,
    KAFKA_COMMAND_BATCH_SIZE: String(BATCH),
    VIRTUAL_DEALER_PACE_MS: '0',
    DEMO_USERS: 'true',
  });
  /** COMMANDS commands (the i-th from `make`) sent a thousand at a time, in order. */
  const sendInChunks = async (make: (i: number) => Parameters<typeof platform.sendMany>[0][0]) => {
    for (let i = 0; i < COMMANDS; i += 1_000) {
      await platform.sendMany(Array.from({ length: 1_000 }, (_, k) => make(i + k)));
    }
  };
  const decide = (id: string, playerId: string, roundId: string): DecideCommandMessage => ({
    commandId: id,
    type: 'Decide',
    schemaVersion: 1,
    tableId: TABLE,
    roundId,
    playerId,
    action: Number(playerId.slice(1)) % 2 === 0 ? 'stand' : 'hit',
  });
  const bet = (id: string, playerId: string, roundId: string): PlaceBetCommandMessage => ({
    commandId: id,
    type: 'PlaceBet',
    schemaVersion: 1,
    tableId: TABLE,
    roundId,
    playerId,
    betType: 'main',
    amount: 1_000,
  });

  /** How many rows match, for how many command ids, and the most rows of one command id. */
  async function storedRows(table: 'bets' | 'decisions', where: string, params: unknown[]) {
    const { rows } = await pg.query<{ rows: number; commands: number; most: number }>(
      `SELECT count(*)::int AS rows, count(DISTINCT command_id)::int AS commands,
              coalesce(max(n), 0)::int AS most
         FROM (SELECT command_id, count(*) OVER (PARTITION BY command_id) AS n
                 FROM ${table} WHERE ${where}) r`,
      params,
    );
    return rows[0];
  }

  beforeAll(async () => {
    db = await createTestDatabase('intake-kill');
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

  it('answers every command once (repeats marked duplicate) and stores every bet once', async () => {
    service = spawnService(env());
    await service.listening();
    await platform.start();
    const opened = await platform.waitFor(
      'betting to open',
      () => platform.events.find((e) => e.envelope.type === 'BettingOpened'),
      60_000,
    );
    roundId = opened.envelope.roundId!;
    const answered = () => new Set(platform.results.map((r) => r.commandId)).size;
    // Killed mid-stream: some chunks answered, the next ones read, committing or publishing. The
    // kill comes while the commands are still being sent (the broker keeps the rest): waiting for
    // all of them to be sent first let a quick service answer every one before the kill.
    const sent = sendInChunks((i) => bet(`ik-${i}`, `p${i}`, roundId));
    await waitFor('the first chunks answered', async () => answered() >= 2 * BATCH, 120_000, 2);
    service.killGroup('SIGKILL');
    await service.exited(10_000);
    const answeredBeforeKill = answered();
    await sent;
    expect(answeredBeforeKill).toBeLessThan(COMMANDS);

    service = spawnService(env());
    await service.listening();
    await waitFor('an answer to every command', async () => answered() === COMMANDS, 180_000, 100);

    const { byId, repeated } = answeredOnceEach(platform.results);
    // A chunk committed just before the SIGKILL but whose answers were not yet published is read
    // again and answered from its stored answer, so the platform's first answer for it says
    // `duplicate: true` (the command had been applied once). That answer must be the stored
    // outcome: the bet the table recorded for that command id.
    const firstMarkedDuplicate = [...byId.values()].filter((list) => list[0].duplicate);
    if (firstMarkedDuplicate.length > 0) {
      const stored = await pg.query<{ command_id: string; round_id: string }>(
        `SELECT command_id, round_id FROM bets WHERE table_id = $1 AND command_id = ANY($2::text[])`,
        [TABLE, firstMarkedDuplicate.map((list) => list[0].commandId)],
      );
      const roundOf = new Map(stored.rows.map((r) => [r.command_id, r.round_id]));
      for (const [first] of firstMarkedDuplicate) {
        expect(first.status).toBe('accepted');
        expect((first.reply as { roundId?: string }).roundId).toBe(roundOf.get(first.commandId));
      }
    }
    const stored = await storedRows('bets', `table_id = $1 AND command_id LIKE 'ik-%'`, [TABLE]);
    console.log(
      `${COMMANDS} bets, ${answeredBeforeKill} answered before the SIGKILL; ` +
        `${repeated.length} answered again after the restart (duplicate); ` +
        `${firstMarkedDuplicate.length} first answered after the restart from the stored answer; ` +
        `${stored.rows} bets stored`,
    );
    expect(stored).toEqual({ rows: COMMANDS, commands: COMMANDS, most: 1 });

    // The restarted table (snapshot + deltas) knows every player: a second bet is a duplicate.
    await platform.sendMany([
      bet('ik-again-1', 'p1', roundId),
      bet('ik-again-2', `p${COMMANDS - 1}`, roundId),
      bet('ik-new', 'p-new', roundId),
    ]);
    const again = await Promise.all(
      ['ik-again-1', 'ik-again-2', 'ik-new'].map((id) => platform.waitForResult(id, 60_000)),
    );
    expect(again.map((r) => r.code ?? r.status)).toEqual([
      'duplicate-bet',
      'duplicate-bet',
      'accepted',
    ]);
  });

  it('answers every decision of one window once and stores each once across a SIGKILL', async () => {
    expect(roundId).toBeDefined(); // the first test's round, with its 10,001 players
    const url = await service!.listening();
    const token = await signIn(url, 'dealer', 'dealer-demo');
    const closed = await postJson(
      url,
      `/tables/${TABLE}/close-betting`,
      {},
      {
        authorization: `Bearer ${token}`,
      },
    );
    expect(closed.body).toMatchObject({ accepted: true });
    await platform.waitFor(
      'the decision window',
      () =>
        platform.events.find(
          (e) => e.envelope.type === 'DecisionWindowOpened' && e.envelope.roundId === roundId,
        ),
      120_000,
    );
    // p-new (the first test's last bet) never decides, so the window stays open throughout.
    const decisions = () => platform.results.filter((r) => r.commandType === 'Decide');
    const answered = () => new Set(decisions().map((r) => r.commandId)).size;
    const sent = sendInChunks((i) => decide(`ikd-${i}`, `p${i}`, roundId));
    await waitFor('the first decisions answered', async () => answered() >= 2 * BATCH, 120_000, 2);
    service!.killGroup('SIGKILL');
    await service!.exited(10_000);
    const answeredBeforeKill = answered();
    await sent;
    expect(answeredBeforeKill).toBeLessThan(COMMANDS);

    service = spawnService(env());
    await service.listening();
    await waitFor('an answer to every decision', async () => answered() === COMMANDS, 180_000, 100);

    const { repeated } = answeredOnceEach(decisions());
    const stored = await storedRows('decisions', `round_id = $1 AND command_id LIKE 'ikd-%'`, [
      roundId,
    ]);
    console.log(
      `${COMMANDS} decisions in one window, ${answeredBeforeKill} answered before the SIGKILL; ` +
        `${repeated.length} answered again after the restart (duplicate); ` +
        `${stored.rows} decisions stored`,
    );
    expect(stored).toEqual({ rows: COMMANDS, commands: COMMANDS, most: 1 });
  });
});
