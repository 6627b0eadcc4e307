import type { PlaceBetCommandMessage } from '@studio/contracts';
import { PlatformKafkaClient } from '../../apps/platform-simulator/platform-client';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { TEST_ADMIN_DATABASE_URL, TEST_KAFKA_BROKERS } from '../support/environment';
import { shoeDealtByTheTest, startTestStudio, uniqueTopicPrefix } from '../support/studio-harness';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

const TABLE = 'pd-db-outage';
const BETTING_WINDOW_MS = 4_000;

/**
 * Bets sent over Kafka while the database is away, before their betting window closes: the
 * intake cannot apply them until the database is back, and reads them again then (its tries back
 * off up to 5 s). The window's timer cannot close the window while the database is away either,
 * but once it is back the timer (tried every second) would close it first and the bets sent in
 * time would be refused `betting-closed`. The window stays open until the intake has applied what
 * waited, then closes.
 */
describe('Kafka bets across a database outage', () => {
  const prefix = uniqueTopicPrefix('kafka-db-outage');
  let db: TestDatabase;
  let proxy: TcpProxy;
  let studio: RunningStudio | undefined;
  let platform: PlatformKafkaClient | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('kafka-db-outage');
    const admin = new URL(TEST_ADMIN_DATABASE_URL);
    proxy = new TcpProxy(admin.hostname, Number(admin.port || 5432));
  });

  afterAll(async () => {
    await platform?.stop();
    proxy.restore();
    await studio?.close();
    await proxy.stop();
    await db.drop();
  });

  it('applies the bets sent in time once the database is back, then closes the window', async () => {
    const viaProxy = new URL(db.url);
    viaProxy.host = `127.0.0.1:${await proxy.start()}`;
    studio = await startTestStudio({
      databaseUrl: viaProxy.toString(),
      kafkaBrokers: TEST_KAFKA_BROKERS,
      topicPrefix: prefix,
      tables: [
        {
          id: TABLE,
          name: 'Pok Deng across an outage',
          game: 'pok-deng',
          currency: 'THB',
          bettingWindowMs: BETTING_WINDOW_MS,
          roundIntervalMs: 300,
          scanner: { wireFormat: 'studio-framed-v1', virtualShoe: shoeDealtByTheTest(21) },
        } as unknown as TableDefinition,
      ],
      env: { VIRTUAL_DEALER_PACE_MS: '20' },
    });
    platform = new PlatformKafkaClient({
      brokers: [TEST_KAFKA_BROKERS],
      topicPrefix: prefix,
      read: { events: true, results: true },
    });
    await platform.start();
    const opened = await platform.waitFor(
      'betting to open',
      () => platform!.events.find((e) => e.envelope.type === 'BettingOpened'),
      60_000,
    );
    const roundId = opened.envelope.roundId!;
    const closesAt = Date.parse(opened.envelope.occurredAt) + BETTING_WINDOW_MS;

    proxy.cut();
    const ids = [1, 2, 3, 4, 5].map((n) => `outage-bet-${n}`);
    for (const [n, commandId] of ids.entries()) {
      await platform.send({
        commandId,
        type: 'PlaceBet',
        schemaVersion: 1,
        tableId: TABLE,
        roundId,
        playerId: `player-${n}`,
        betType: 'player',
        spot: '1',
        amount: 1_000,
        currency: 'THB',
      } as PlaceBetCommandMessage);
    }
    expect(Date.now()).toBeLessThan(closesAt);
    // The database stays away well past the window's deadline.
    await new Promise((resolve) => setTimeout(resolve, closesAt + 4_000 - Date.now()));
    proxy.restore();

    const answers = await Promise.all(ids.map((id) => platform!.waitForResult(id, 60_000)));
    expect(answers.map((a) => [a.commandId, a.status, a.code ?? null])).toEqual(
      ids.map((id) => [id, 'accepted', null]),
    );
    // Held, not left open: the window closes once what waited is applied.
    const closed = await platform.waitFor(
      'betting to close',
      () =>
        platform!.events.find(
          (e) => e.envelope.type === 'BettingClosed' && e.envelope.roundId === roundId,
        ),
      30_000,
    );
    expect(closed).toBeDefined();
  });
});
