import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { ensureKafkaTopics } from '../../src/kafka/kafka-topics';
import {
  PlatformRound,
  SettlementReport,
  StudioHttpClient,
} from '../../libs/platform-sdk/src/index';
import { platformKafkaPlan } from '../../src/platforms-kafka/platform-kafka-plan';
import { REPO_ROOT, TEST_KAFKA_BROKERS } from '../support/environment';
import { startTestStudio, uniqueTopicPrefix } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(600_000);

const run = promisify(execFile);
const SDK = join(REPO_ROOT, 'libs', 'platform-sdk');
const SHARED = join(REPO_ROOT, 'node_modules');
const TABLE = 'pd-sdk';
const PLATFORM_KEY = 'k-sdk-reports';

const TABLES = [
  {
    id: TABLE,
    name: 'Pok Deng for the SDK',
    game: 'pok-deng',
    currency: 'THB',
    bettingWindowMs: 4_000,
    roundIntervalMs: 300,
    scanner: {
      wireFormat: 'studio-framed-v1',
      virtualShoe: { seed: 11, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
    },
  },
] as unknown as TableDefinition[];

/**
 * The SDK as a platform gets it: `npm pack` (which builds it with tsc), the tarball unpacked into
 * a folder of its own whose only other packages are links to its declared dependencies (no
 * registry), a consumer compiled there with `tsc --strict` against the packed types, then run
 * against the real broker and a running studio.
 */
describe('@studio/platform-sdk, packed', () => {
  let dir: string;
  let db: TestDatabase;
  let studio: RunningStudio;
  const prefix = uniqueTopicPrefix('sdk');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sdk-consumer-'));
    const { stdout } = await run('npm', ['pack', '--pack-destination', dir, '--silent'], {
      cwd: SDK,
      env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    });
    const tarball = join(dir, stdout.trim().split('\n').pop()!);
    const installed = join(dir, 'node_modules', '@studio');
    mkdirSync(installed, { recursive: true });
    await run('tar', ['xzf', tarball, '-C', installed]);
    await run('mv', [join(installed, 'package'), join(installed, 'platform-sdk')]);
    // Its dependencies (and Node's types for the compiler) from the shared install, by link.
    for (const name of ['kafkajs', 'ajv', 'ajv-formats', '@types']) {
      symlinkSync(join(SHARED, name), join(dir, 'node_modules', name));
    }
    copyFileSync(
      join(REPO_ROOT, 'test', 'fixtures', 'sdk-consumer', 'consumer.ts'),
      join(dir, 'consumer.ts'),
    );
  });

  afterAll(async () => {
    await studio?.close();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('packs only what a platform needs: the compiled code, its types, the schemas, the README', () => {
    const files = readdirSync(join(dir, 'node_modules', '@studio', 'platform-sdk')).sort();
    expect(files).toEqual(['README.md', 'dist', 'package.json', 'schemas']);
    const dist = readdirSync(join(dir, 'node_modules', '@studio', 'platform-sdk', 'dist'));
    expect(dist).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'client.d.ts']));
  });

  it('compiles a consumer against the packed package with tsc --strict', async () => {
    const tsc = join(SHARED, 'typescript', 'bin', 'tsc');
    const args = [tsc, '--strict', '--module', 'commonjs', '--target', 'es2022'];
    args.push('--moduleResolution', 'node', '--types', 'node', '--outDir', 'out', 'consumer.ts');
    const compiled = await run(process.execPath, args, { cwd: dir }).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout, failed: true }),
    );
    expect(compiled.stdout).toBe('');
  });

  /** What the consumer runs received: one settlement each. */
  const received: Array<Awaited<ReturnType<typeof runConsumer>>> = [];

  /** Runs the compiled consumer (v1 topics, or `platformId`'s v2 ones) and reads its result. */
  async function runConsumer(platformId?: string) {
    const { stdout } = await run(process.execPath, [join(dir, 'out', 'consumer.js')], {
      cwd: dir,
      timeout: 300_000,
      env: {
        ...process.env,
        NODE_PATH: '',
        SDK_BROKERS: TEST_KAFKA_BROKERS,
        SDK_TOPIC_PREFIX: prefix,
        SDK_TABLE: TABLE,
        ...(platformId ? { SDK_PLATFORM_ID: platformId } : {}),
      },
    });
    // kafkajs logs JSON lines to stdout too: the consumer's result is the line with its answer.
    const line = stdout.split('\n').find((l) => l.startsWith('{"answer"'));
    const result = JSON.parse(line ?? 'null') as {
      answer: { status: string; commandId: string; reply?: { roundId?: string } };
      settlement: { playerId: string; stake: number; returned: number; net: number };
      roundId: string;
      problems: string[];
      topics: string[];
    };
    console.log(
      `sdk consumer${platformId ? ` (${platformId}, v2)` : ''}: ${JSON.stringify(result)}`,
    );
    return result;
  }

  it('places a bet over Kafka, gets its answer, reads the settlement of its round', async () => {
    db = await createTestDatabase('platform_sdk');
    // The default platform's v2 topics, as `npm run platform:kafka -- setup default` makes them.
    const kafka = new Kafka({ brokers: [TEST_KAFKA_BROKERS], logLevel: logLevel.NOTHING });
    const settings = { topicPrefix: prefix, commandPartitions: 2, eventPartitions: 2 };
    await ensureKafkaTopics(kafka, platformKafkaPlan('default', settings).topics);
    studio = await startTestStudio({
      databaseUrl: db.url,
      kafkaBrokers: TEST_KAFKA_BROKERS,
      topicPrefix: prefix,
      tables: TABLES,
      env: {
        VIRTUAL_DEALER_PACE_MS: '20',
        KAFKA_COMMAND_TOPIC_REFRESH_MS: '500',
        PLATFORM_API_KEYS: PLATFORM_KEY,
      },
    });
    const result = await runConsumer();
    received.push(result);
    expect(result.answer.status).toBe('accepted');
    expect(result.answer.reply?.roundId).toBe(result.roundId);
    // Pok Deng takes a player's stake and a deposit of the same again (deposit multiple 1, for a
    // banker's double win): the settlement's stake is what was deducted, 2 × 1,000.
    expect(result.settlement).toMatchObject({ playerId: 'sdk-player', stake: 2_000 });
    expect(result.settlement.net).toBe(result.settlement.returned - result.settlement.stake);
    expect(result.problems).toEqual([]);
  });

  it('on v2 topics: betting opens on the shared topic, the settlement comes on its own', async () => {
    // v2Topics(platformId) reads the shared topic beside the platform's own: without it, no
    // BettingOpened ever came, and every event of its own was reported as a gap.
    const result = await runConsumer('default');
    received.push(result);
    expect(result.answer.status).toBe('accepted');
    expect(result.answer.reply?.roundId).toBe(result.roundId);
    expect(result.settlement).toMatchObject({ playerId: 'sdk-player', stake: 2_000 });
    expect(result.topics).toEqual([
      `${prefix}studio.platform.default.events.v2`,
      `${prefix}studio.table-events.v2`,
    ]);
    expect(result.problems).toEqual([]);
  });

  it("reconciles the settlements it received with the report, and looks a round up, over the SDK's HTTP client", async () => {
    expect(received).toHaveLength(2);
    const http = new StudioHttpClient({ baseUrl: studio.url, platformKey: PLATFORM_KEY });
    // From yesterday: a run across midnight (UTC) reports its two settlements on two days.
    const today = new Date();
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const report = await http.settlementReport(
      day(new Date(today.getTime() - 86_400_000)),
      day(today),
    );
    expect(report.status).toBe(200);
    const { lines } = report.body as SettlementReport;
    const sum = (f: (s: (typeof received)[number]['settlement']) => number) =>
      received.reduce((n, r) => n + f(r.settlement), 0);
    const total = (key: 'rounds' | 'bets' | 'stake' | 'payout' | 'refunds' | 'net') =>
      lines.reduce((n, l) => n + l[key], 0);
    // docs/wallet-model.md, rule 7: the report equals the sum of the settlements received.
    expect(lines.every((l) => l.tableId === TABLE && l.currency === 'THB')).toBe(true);
    expect({
      rounds: total('rounds'),
      bets: total('bets'),
      stake: total('stake'),
      payout: total('payout'),
      refunds: total('refunds'),
      net: total('net'),
    }).toEqual({
      rounds: 2,
      bets: 2,
      stake: sum((s) => s.stake),
      payout: sum((s) => s.returned),
      refunds: 0,
      net: sum((s) => s.net),
    });
    const round = await http.round(received[1].roundId);
    expect(round.status).toBe(200);
    expect((round.body as PlatformRound).settlements).toEqual([
      expect.objectContaining({ playerId: 'sdk-player', stake: 2_000 }),
    ]);
  });
});
