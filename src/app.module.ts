import {
  DynamicModule,
  Inject,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { topicName } from '@studio/contracts';
import { LoggerModule } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { ConsolesModule } from './consoles/consoles.module';
import { TablesLifecycle, TablesModule } from './tables/tables.module';
import { TableRuntimeRegistry } from './tables/table-runtime.registry';
import { VirtualDealer } from './tables/virtual-dealer';
import { RecordReading } from './use-cases/table-actions.use-cases';
import { Clock, IdGenerator, RandomUuidGenerator, SystemClock } from './clock/clock';
import type { StudioConfig } from './config/studio-config';
import { DatabaseConnection } from './database/database-connection';
import { HealthController } from './health/health.controller';
import { databaseCheck, kafkaCheck, migrationsCheck, READINESS_CHECKS } from './health/readiness';
import { loggingOptions } from './logging/logging.options';
import { DisabledEventPublisher, EventPublisher } from './outbox/event-publisher';
import { KafkaEventPublisher } from './outbox/kafka-event-publisher';
import { MetricsController } from './outbox/metrics.controller';
import { OutboxRelay } from './outbox/outbox-relay';
import { scannersCheck } from './scanner/scanner-readiness';
import { ScannerService } from './scanner/scanner.service';
import { PlatformKafkaModule } from './platform/platform-kafka.module';
import { RegisterConfiguredTables } from './tables/register-configured-tables.use-case';
import { DATA_SOURCE, STUDIO_CONFIG } from './tokens';

export interface StudioModuleOptions {
  config: StudioConfig;
  database: DatabaseConnection;
  clock?: Clock;
  ids?: IdGenerator;
}

/** Start-up and shutdown order of the service's own moving parts. */
class StudioLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private dealer?: VirtualDealer;

  constructor(
    @Inject(STUDIO_CONFIG) private readonly config: StudioConfig,
    private readonly register: RegisterConfiguredTables,
    private readonly relay: OutboxRelay,
    private readonly publisher: EventPublisher,
    private readonly database: DatabaseConnection,
    private readonly scanners: ScannerService,
    private readonly tables: TablesLifecycle,
    private readonly registry: TableRuntimeRegistry,
    private readonly recordReading: RecordReading,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.register.execute(this.config.tables);
    this.relay.start();
    // Committed transitions put events in the outbox: publish them without waiting for the poll.
    this.registry.onTransition(() => this.relay.notify());
    const scanners = this.scanners;
    this.dealer = new VirtualDealer(
      this.registry,
      {
        isVirtual: (id) => scanners.states().some((s) => s.tableId === id && s.virtual),
        dealVirtualCard: (id) => scanners.dealVirtualCard(id),
        newVirtualShoe: (id, shoeNumber) => scanners.newVirtualShoe(id, shoeNumber),
        resumeVirtualShoe: (id, shoeNumber, counts) =>
          scanners.resumeVirtualShoe(id, shoeNumber, counts),
      },
      this.config.orchestrator.virtualDealerPaceMs,
    );
    const dealer = this.dealer;
    this.registry.onTransition((tableId, outcome) => dealer.onTransition(tableId, outcome));
    // Tables start before the scanners so that no reading arrives at a table that is not running.
    await this.tables.start();
    this.scanners.onReading((tableId, reading, readingId) => {
      if (this.registry.get(tableId).ok) {
        void this.recordReading.execute(tableId, readingId, reading);
      }
    });
    // After registration: readings and scanner events refer to registered tables.
    await this.scanners.start();
    for (const runtime of this.registry.all()) dealer.onTransition(runtime.tableId);
  }

  async onApplicationShutdown(): Promise<void> {
    // Close the serial ports first and store their last readings while the database is open.
    this.dealer?.stop();
    await this.scanners.stop();
    // Stop the tables (their in-flight transitions finish) and release their leases at once.
    await this.tables.stop();
    // Stop taking work, let the in-flight batch finish, flush the producer, then close the pool.
    await this.relay.stop();
    await this.publisher.disconnect().catch(() => undefined);
    await this.database.close();
  }
}

@Module({})
export class StudioModule {
  static forRoot(options: StudioModuleOptions): DynamicModule {
    const { config, database } = options;
    const topics = [topicName('tableEvents', config.kafka?.topicPrefix ?? '')];
    const clock = options.clock ?? new SystemClock();
    const ids = options.ids ?? new RandomUuidGenerator();
    return {
      module: StudioModule,
      imports: [
        LoggerModule.forRoot(loggingOptions(config.logLevel)),
        AuthModule.forRoot({ dataSource: database.dataSource, clock, ids, settings: config.auth }),
        TablesModule.forRoot({ config, dataSource: database.dataSource, clock, ids }),
        PlatformKafkaModule.forRoot(config),
        AuditModule.forRoot({ dataSource: database.dataSource }),
        ConsolesModule.forRoot({ config, dataSource: database.dataSource, clock }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: STUDIO_CONFIG, useValue: config },
        { provide: DatabaseConnection, useValue: database },
        { provide: DATA_SOURCE, useValue: database.dataSource },
        { provide: DataSource, useValue: database.dataSource },
        { provide: Clock, useValue: clock },
        { provide: IdGenerator, useValue: ids },
        {
          provide: EventPublisher,
          useFactory: () =>
            config.kafka ? new KafkaEventPublisher(config.kafka) : new DisabledEventPublisher(),
        },
        {
          provide: OutboxRelay,
          inject: [DataSource, EventPublisher, Clock],
          useFactory: (ds: DataSource, publisher: EventPublisher, clock: Clock) =>
            new OutboxRelay(ds, publisher, config.outbox, clock, topics),
        },
        {
          provide: RegisterConfiguredTables,
          inject: [DataSource, Clock, IdGenerator],
          useFactory: (ds: DataSource, clock: Clock, ids: IdGenerator) =>
            new RegisterConfiguredTables(ds, clock, ids, config.kafka?.topicPrefix ?? ''),
        },
        {
          provide: ScannerService,
          inject: [DataSource, Clock, IdGenerator],
          useFactory: (ds: DataSource, clock: Clock, ids: IdGenerator) =>
            new ScannerService(config.tables, ds, clock, ids, config.kafka?.topicPrefix ?? ''),
        },
        {
          provide: READINESS_CHECKS,
          inject: [DataSource, EventPublisher, OutboxRelay, ScannerService],
          useFactory: (
            ds: DataSource,
            publisher: EventPublisher,
            relay: OutboxRelay,
            scanners: ScannerService,
          ) => [
            databaseCheck(ds),
            migrationsCheck(ds),
            kafkaCheck(publisher, relay),
            scannersCheck(scanners),
          ],
        },
        StudioLifecycle,
      ],
      exports: [OutboxRelay, Clock, IdGenerator, DataSource, ScannerService],
    };
  }
}
