import type { KafkaOptions } from '@nestjs/microservices';
import { logLevel, Partitioners } from 'kafkajs';
import { KAFKA_COMMAND_SESSION_TIMEOUT_MS, type KafkaConfig } from '../config/studio-config';
import { kafkaConnection } from '../kafka/kafka-connection';
import { kafkaLogCreator } from '../kafka/kafka-log';
import { PlatformTopics } from '../kafka/platform-topics';
import { BatchingKafkaServer } from './batching-kafka-server';
import type { CommandIntakeHandler } from './command-intake.handler';
import type { CommandSubscription } from './command-intake-topics';

/** The command consumer: the microservices Kafka server, reading in batches. */
export function commandIntakeServer(
  config: KafkaConfig,
  handler: CommandIntakeHandler,
): BatchingKafkaServer {
  const server = new BatchingKafkaServer(
    commandIntakeOptions(config, () => handler.restartable),
    commandSubscription(config),
    handler,
    config.commands.batchSize,
  );
  handler.attach(server);
  return server;
}

/**
 * The v1 commands topic (the `default` platform) and every platform's commands topic, new ones
 * picked up while running: the topic a command arrives on names its platform.
 */
export function commandSubscription(config: KafkaConfig): CommandSubscription {
  const topics = new PlatformTopics(config.topicPrefix);
  return {
    topics: [topics.v1Commands],
    pattern: topics.commandsPattern,
    refreshMs: config.commands.topicRefreshMs ?? 10_000,
  };
}

/** The microservice transport options of the command consumer. */
export function commandIntakeOptions(
  config: KafkaConfig,
  restartable: () => boolean,
): Required<KafkaOptions>['options'] {
  return {
    // Use the configured ids as they are (Nest would append "-server").
    postfixId: '',
    client: {
      clientId: `${config.clientId}-commands`,
      ...kafkaConnection(config),
      logLevel: logLevel.WARN,
      logCreator: kafkaLogCreator('CommandIntakeKafka', { errors: 'consumer-crash' }),
      retry: { retries: 10, initialRetryTime: 200, maxRetryTime: 5_000 },
    },
    consumer: {
      groupId: config.commands.groupId,
      // Ride out a broker outage inside the consumer instead of crashing and restarting it: a
      // restart pending when the service shuts down would outlive the shutdown.
      retry: {
        retries: Number.MAX_SAFE_INTEGER,
        initialRetryTime: 300,
        maxRetryTime: 5_000,
        restartOnFailure: async () => restartable(),
      },
      allowAutoTopicCreation: false,
      // A rebalance (an instance leaving on a rolling restart, or joining) must finish well inside
      // a 3 s betting window: the members learn of it from a heartbeat, which kafkajs sends only
      // between fetches, so an idle fetch waits at most maxWaitTimeInMs (kafkajs: 5 s, which made
      // every rebalance last ~4 s). A dead member is dropped after sessionTimeout (the broker's
      // minimum is 6 s: meanwhile the tables hold their command windows open, CommandWindowHold); a
      // stopping one leaves at once (LeaveGroup on disconnect).
      sessionTimeout: KAFKA_COMMAND_SESSION_TIMEOUT_MS,
      heartbeatInterval: 500,
      maxWaitTimeInMs: 250,
      // A backlog (a decision window of 100,000 players) is read in batches of tens of thousands:
      // each batch ends with its last chunk's answers published before the next is fetched.
      maxBytesPerPartition: 16 * 1024 * 1024,
      maxBytes: 32 * 1024 * 1024,
    },
    // Nest's own producer (unused for events) with the partitioner every client here uses.
    producer: { createPartitioner: Partitioners.DefaultPartitioner },
    // A new group starts at the oldest command: nothing sent before the first start is lost.
    subscribe: { fromBeginning: true },
    run: { partitionsConsumedConcurrently: config.commands.partitionsConsumedConcurrently },
  };
}
