import { isGameKind } from '@studio/contracts';
import { join } from 'node:path';
import { readConformanceRecords, readSchemaFiles } from './conformance';
import { writeContractFiles } from './contract-files';
import { pickExamples, RECORDED_EXAMPLES_FILE, writeRecordedExamples } from './recorded-examples';
import { PlatformKafkaClient } from './platform-client';
import { PlatformSimulator, SimulatedTable, seededRandom } from './simulator';

const USAGE = `usage:
  platform-simulator contract
      rewrite docs/kafka-contract.md and libs/contracts/schemas/ from the schemas
  platform-simulator examples
      pick the AsyncAPI document's examples from the last integration run's records
  platform-simulator run --tables ibj-1:infinite-blackjack:EUR,pokdeng-1:pok-deng:THB
      [--brokers 127.0.0.1:19092] [--prefix ""] [--players 20] [--seconds 60] [--seed 1] [--bet 1000]
      bet and decide for simulated players over Kafka, then print wallets and counters`;

function option(argv: string[], name: string, fallback: string): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
}

function parseTables(spec: string, players: number): SimulatedTable[] {
  return spec
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const [tableId, game, currency] = entry.split(':');
      if (!tableId || !isGameKind(game) || !currency) {
        throw new Error(`--tables entry "${entry}" must be id:game:currency`);
      }
      return {
        tableId,
        game,
        currency,
        players: Array.from({ length: players }, (_, i) => `${tableId}-player-${i + 1}`),
      };
    });
}

async function run(argv: string[]): Promise<void> {
  const players = Number(option(argv, 'players', '20'));
  const seconds = Number(option(argv, 'seconds', '60'));
  const betUnit = Number(option(argv, 'bet', '1000'));
  const tables = parseTables(option(argv, 'tables', ''), players);
  if (tables.length === 0) throw new Error('name at least one table with --tables');
  const client = new PlatformKafkaClient({
    brokers: option(argv, 'brokers', process.env.KAFKA_BROKERS ?? '127.0.0.1:19092').split(','),
    topicPrefix: option(argv, 'prefix', process.env.KAFKA_TOPIC_PREFIX ?? ''),
  });
  const startBalance = 1_000_000;
  const simulator = new PlatformSimulator(
    client,
    tables,
    seededRandom(Number(option(argv, 'seed', '1'))),
    { startBalance, runId: `sim-${Date.now().toString(36)}`, betUnit },
  );
  await client.start();
  console.log(
    `Simulating ${players} players at ${tables.map((t) => t.tableId).join(', ')} for ${seconds} s`,
  );
  await new Promise((r) => setTimeout(r, seconds * 1000));
  simulator.stop();
  await simulator.flushed();
  await new Promise((r) => setTimeout(r, 2_000));
  await client.stop();
  let total = 0;
  for (const [player, wallet] of simulator.wallets) {
    total += wallet.balance - startBalance;
    console.log(`${player}\tbalance ${wallet.balance}\tsettled bets ${wallet.settledBets}`);
  }
  console.log(`players' net result ${total}; ${JSON.stringify(simulator.stats)}`);
}

async function main(argv: string[]): Promise<void> {
  const [command] = argv;
  if (command === 'contract') {
    const written = writeContractFiles(process.cwd());
    console.log(
      `Wrote ${written.length} contract files (docs/kafka-contract.md, libs/contracts/schemas/)`,
    );
    return;
  }
  if (command === 'examples') {
    // The records of the last integration test run (jest's global set-up clears them).
    const records = readConformanceRecords(join(process.cwd(), '.tmp', 'conformance'));
    const files = readSchemaFiles(join(process.cwd(), 'libs', 'contracts', 'schemas'));
    const examples = pickExamples(records, files);
    writeRecordedExamples(process.cwd(), examples);
    console.log(
      `Picked examples for ${Object.keys(examples).length} messages from ${records.length} records into ${RECORDED_EXAMPLES_FILE}`,
    );
    return;
  }
  if (command === 'run') return run(argv.slice(1));
  console.error(USAGE);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
