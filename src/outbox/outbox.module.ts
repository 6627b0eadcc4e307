import { DynamicModule, Module } from '@nestjs/common';
import { topicName } from '@studio/contracts';
import type { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { EventPublisher } from './event-publisher';
import { OutboxPruneStore } from './outbox-prune.store';
import { OutboxPruner } from './outbox-pruner';
import { OutboxRelay } from './outbox-relay';

/** The transactional outbox's way out: the relay and the Kafka producer it publishes with. */
@Module({})
export class OutboxModule {
  static forRoot(deps: {
    config: StudioConfig;
    dataSource: DataSource;
    clock: Clock;
    kafka: DynamicModule;
  }): DynamicModule {
    const { config, dataSource, clock } = deps;
    const topics = [topicName('tableEvents', config.kafka?.topicPrefix ?? '')];
    return {
      module: OutboxModule,
      imports: [deps.kafka],
      providers: [
        {
          provide: OutboxRelay,
          inject: [EventPublisher],
          useFactory: (publisher: EventPublisher) =>
            new OutboxRelay(dataSource, publisher, config.outbox, clock, topics),
        },
        {
          provide: OutboxPruner,
          useFactory: () =>
            new OutboxPruner(new OutboxPruneStore(dataSource), config.outboxPruning, clock),
        },
      ],
      exports: [OutboxRelay],
    };
  }
}
