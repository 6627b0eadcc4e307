import { DynamicModule, Module, Provider } from '@nestjs/common';
import type { StudioConfig } from '../config/studio-config';
import { DisabledEventPublisher, EventPublisher } from '../outbox/event-publisher';
import { CommandAnswersPublisher } from './command-answers.publisher';
import { WorkerEventPublisher } from './events-worker';
import { KafkaEventPublisher } from './kafka-event-publisher';

/**
 * The service's Kafka clients in one place: the events producer the outbox relay publishes with
 * (in a worker thread), the producer of command answers and dead letters, their shared connection
 * settings (kafka-connection.ts) and topic creation (kafka-topics.ts). The command consumer is the
 * microservice transport started in bootstrap.ts with the same settings.
 */
@Module({})
export class KafkaModule {
  static forRoot(config: StudioConfig): DynamicModule {
    const kafka = config.kafka;
    const providers: Provider[] = [
      {
        provide: EventPublisher,
        useFactory: () => {
          if (!kafka) return new DisabledEventPublisher();
          // Off the service's thread where it runs compiled (events-worker.ts).
          return WorkerEventPublisher.available
            ? new WorkerEventPublisher(kafka)
            : new KafkaEventPublisher(kafka);
        },
      },
    ];
    if (kafka?.commands.enabled) {
      providers.push({
        provide: CommandAnswersPublisher,
        useValue: new CommandAnswersPublisher(kafka),
      });
    }
    return {
      module: KafkaModule,
      providers,
      exports: providers.map((p) => (p as { provide: unknown }).provide as never),
    };
  }
}
