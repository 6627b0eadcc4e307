import { DynamicModule, Module } from '@nestjs/common';
import { topicName } from '@studio/contracts';
import type { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { DisabledEventPublisher, EventPublisher } from './event-publisher';
import { KafkaEventPublisher } from './kafka-event-publisher';
import { OutboxRelay } from './outbox-relay';

/** The transactional outbox's way out: the relay and the Kafka producer it publishes with. */
@Module({})
export class OutboxModule {
  static forRoot(deps: {
    config: StudioConfig;
    dataSource: DataSource;
    clock: Clock;
  }): DynamicModule {
    const { config, dataSource, clock } = deps;
    const topics = [topicName('tableEvents', config.kafka?.topicPrefix ?? '')];
    return {
      module: OutboxModule,
      providers: [
        {
          provide: EventPublisher,
          useFactory: () =>
            config.kafka ? new KafkaEventPublisher(config.kafka) : new DisabledEventPublisher(),
        },
        {
          provide: OutboxRelay,
          inject: [EventPublisher],
          useFactory: (publisher: EventPublisher) =>
            new OutboxRelay(dataSource, publisher, config.outbox, clock, topics),
        },
      ],
      exports: [EventPublisher, OutboxRelay],
    };
  }
}
