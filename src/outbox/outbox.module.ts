import { DynamicModule, Module } from '@nestjs/common';
import { DEFAULT_PLATFORM_ID, topicName } from '@studio/contracts';
import { PlatformTopics } from '../kafka/platform-topics';
import type { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { EventPublisher } from './event-publisher';
import { OutboxPruneStore } from './outbox-prune.store';
import { OutboxPruner } from './outbox-pruner';
import { OutboxRelay } from './outbox-relay';
import type { EventRouting } from './outbox-relay-routing';

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
    const prefix = config.kafka?.topicPrefix ?? '';
    const platformTopics = new PlatformTopics(prefix);
    // Contract 2.0: the shared topic and each platform's own; v1 while it is served.
    const routing: EventRouting = {
      tableEventsTopic: topicName('tableEvents', prefix),
      sharedTopic: platformTopics.sharedEvents,
      privateTopic: (platformId) => platformTopics.eventsTopic(platformId),
      v1Topic: config.kafka?.v1Topics === false ? undefined : platformTopics.v1Events,
      defaultPlatformId: DEFAULT_PLATFORM_ID,
    };
    const topics = [platformTopics.sharedEvents, ...(routing.v1Topic ? [routing.v1Topic] : [])];
    return {
      module: OutboxModule,
      imports: [deps.kafka],
      providers: [
        {
          provide: OutboxRelay,
          inject: [EventPublisher],
          useFactory: (publisher: EventPublisher) =>
            new OutboxRelay(
              dataSource,
              publisher,
              config.outbox,
              clock,
              topics,
              undefined,
              routing,
            ),
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
