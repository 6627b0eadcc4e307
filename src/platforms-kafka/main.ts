import { Kafka, logLevel } from 'kafkajs';
import { loadEnvFile } from '../config/env-file';
import { loadStudioConfig } from '../config/studio-config';
import { kafkaConnection } from '../kafka/kafka-connection';
import { planAsCommands, platformKafkaPlan } from './platform-kafka-plan';
import { applyPlatformKafkaPlan } from './platform-kafka-setup';

const USAGE = `usage: npm run platform:kafka -- setup <platformId> [--print] [--principal User:<name>]

  setup <platformId>    makes the platform's topics and ACLs through the Kafka admin API, with
                        the service's Kafka settings (KAFKA_BROKERS, KAFKA_SASL_*, KAFKA_TOPIC_PREFIX)
  --print               prints them as kafka-topics / kafka-acls / kafka-configs commands instead
  --principal           the platform's principal (default User:platform-<platformId>)`;

/** Sets up a platform's Kafka topics and ACLs (contract 2.0); see docs/kafka-contract.md. */
async function main(argv: string[]): Promise<number> {
  const [command, platformId, ...rest] = argv;
  if (command !== 'setup' || !platformId) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const at = rest.indexOf('--principal');
  const principal = at >= 0 ? rest[at + 1] : undefined;
  // The service's settings, read as the service reads them: without its env file, a prefix kept
  // there (KAFKA_TOPIC_PREFIX=prod.) was missed and the platform's topics and ACLs were made
  // without it, for topics the service never uses.
  loadEnvFile(process.env.ENV_FILE);
  const config = loadStudioConfig(process.env).kafka;
  if (!config) {
    process.stderr.write('KAFKA_BROKERS is not set.\n');
    return 2;
  }
  const plan = platformKafkaPlan(platformId, {
    topicPrefix: config.topicPrefix,
    commandPartitions: config.commands.partitions,
    eventPartitions: config.eventPartitions,
    principal,
  });
  if (rest.includes('--print')) {
    process.stdout.write(`${planAsCommands(plan, config.brokers.join(',')).join('\n')}\n`);
    return 0;
  }
  const kafka = new Kafka({
    clientId: `${config.clientId}-platform-setup`,
    ...kafkaConnection(config),
    logLevel: logLevel.ERROR,
  });
  const created = await applyPlatformKafkaPlan(kafka, plan);
  process.stdout.write(
    `Platform ${platformId}: topics ${created.length > 0 ? `created ${created.join(', ')}` : 'already there'}; ` +
      `${plan.acls.length} ACLs for ${plan.principal} applied. Its quotas are not set by this ` +
      `tool: --print gives the kafka-configs command (docs/kafka-contract.md).\n`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `platform:kafka: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
