import { KafkaOptions, ServerKafka } from '@nestjs/microservices';
import type { Consumer, EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { RawCommandMessage } from './command-intake';

export interface CommandBatchHandler {
  /** Answers every message; throws only on infrastructure failure (the batch is read again). */
  handleBatch(messages: RawCommandMessage[]): Promise<void>;
}

/**
 * The @nestjs/microservices Kafka server (same consumer group, client and lifecycle), reading
 * the commands topic a batch at a time instead of a message at a time: 100,000 players deciding
 * in one window then cost a few hundred transactions, not 100,000. Offsets are resolved and
 * committed only after a chunk's answers are published, so a crash re-reads (and re-answers
 * from the stored answers) at most one chunk.
 */
export class BatchingKafkaServer extends ServerKafka {
  constructor(
    options: Required<KafkaOptions>['options'],
    private readonly topic: string,
    private readonly handler: CommandBatchHandler,
    private readonly chunkSize: number,
  ) {
    super(options);
  }

  override async bindEvents(consumer: Consumer): Promise<void> {
    await consumer.subscribe({ ...(this.options.subscribe ?? {}), topics: [this.topic] });
    await consumer.run({
      ...(this.options.run ?? {}),
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.eachBatch(payload),
    });
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    for (let i = 0; i < batch.messages.length; i += this.chunkSize) {
      // A rebalance took the partition away, or the service is stopping: leave the rest unread.
      if (!payload.isRunning() || payload.isStale()) return;
      const chunk = batch.messages.slice(i, i + this.chunkSize);
      await this.handler.handleBatch(chunk.map((m) => rawCommand(batch.topic, batch.partition, m)));
      payload.resolveOffset(chunk[chunk.length - 1].offset);
      await payload.heartbeat();
      await payload.commitOffsetsIfNecessary();
    }
  }
}

function rawCommand(topic: string, partition: number, message: KafkaMessage): RawCommandMessage {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key === null ? null : message.key.toString('utf8'),
    // Bytes as sent: a dead letter must carry exactly what arrived.
    value: message.value,
  };
}
