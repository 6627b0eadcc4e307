import {
  DynamicModule,
  Inject,
  MiddlewareConsumer,
  Module,
  NestModule,
  Provider,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { topicName } from '@studio/contracts';
import { LoggerModule } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { ConsolesModule } from './consoles/consoles.module';
import { TablesLifecycle, TablesModule } from './tables/tables.module';
import { TableRuntimeRegistry } from './tables/table-runtime.registry';
import type { TransitionListener } from './tables/table-runtime';
import { VirtualDealer } from './tables/virtual-dealer';
import { ApplyReadingCommand } from './use-cases/apply-reading/apply-reading.command';
import { ApplyReading } from './use-cases/apply-reading/apply-reading.use-case';
import { Clock, IdGenerator, RandomUuidGenerator, SystemClock } from './clock/clock';
import type { StudioConfig } from './config/studio-config';
import { DatabaseConnection } from './database/database-connection';
import { DemoPlayers, httpPlatformPost } from './demo/demo-players';
import { HealthController } from './health/health.controller';
import { databaseCheck, kafkaCheck, migrationsCheck, READINESS_CHECKS } from './health/readiness';
import { loggingOptions } from './logging/logging.options';
import { RoundLogListener } from './logging/round-log.listener';
import { HttpMetricsMiddleware } from './metrics/http-metrics.middleware';
import { MetricsAccessGuard } from './metrics/metrics-access.guard';
import { RoundMetricsListener } from './metrics/round-metrics.listener';
import { intakeCountersOf, StudioMetrics } from './metrics/studio-metrics';
import { DisabledEventPublisher, EventPublisher } from './outbox/event-publisher';
import { KafkaEventPublisher } from './outbox/kafka-event-publisher';
import { MetricsController } from './outbox/metrics.controller';
import { OutboxRelay } from './outbox/outbox-relay';
import { scannersCheck } from './scanner/scanner-readiness';
import { ScannerService } from './scanner/scanner.service';
import { PlatformKafkaModule } from './platform/platform-kafka.module';
import { RegisterConfiguredTables } from './tables/register-configured-tables.use-case';
import { TableRegistryRepository } from './history/table-registry.repository';
import { ScannerHistoryRepository } from './history/scanner-history.repository';
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
    private readonly applyReading: ApplyReading,
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
        // A reading that cannot be committed (the database is away) is logged by its table and
        // not applied; the table still expects that card, so the next reading takes its place.
        this.applyReading
          .execute(ApplyReadingCommand.create({ tableId, readingId, reading }))
          .catch(() => undefined);
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

function subscribed<L extends { onTransition: TransitionListener }>(
  registry: TableRuntimeRegistry,
  listener: L,
): L {
  registry.onTransition((tableId, outcome) => listener.onTransition(tableId, outcome));
  return listener;
}

/** Simulated players on the embedded demo (DEMO_PLAYERS), betting with the first platform key. */
function demoPlayers(config: StudioConfig): Provider[] {
  const key = config.orchestrator.platformKeys[0];
  if (!config.demoPlayers || !key) return [];
  return [
    {
      provide: DemoPlayers,
      inject: [TableRuntimeRegistry, HttpAdapterHost],
      useFactory: (registry: TableRuntimeRegistry, http: HttpAdapterHost) =>
        subscribed(
          registry,
          new DemoPlayers(
            config.tables,
            httpPlatformPost(config.http.host, () => http.httpAdapter.getHttpServer(), key),
          ),
        ),
    },
  ];
}

@Module({})
export class StudioModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('{*splat}');
  }

  static forRoot(options: StudioModuleOptions): DynamicModule {
    const { config, database } = options;
    const topics = [topicName('tableEvents', config.kafka?.topicPrefix ?? '')];
    const clock = options.clock ?? new SystemClock();
    const ids = options.ids ?? new RandomUuidGenerator();
    return {
      module: StudioModule,
      imports: [
        LoggerModule.forRoot(loggingOptions(config.logging)),
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
            new RegisterConfiguredTables(
              new TableRegistryRepository(ds, config.kafka?.topicPrefix ?? ''),
              clock,
              ids,
            ),
        },
        {
          provide: ScannerService,
          inject: [DataSource, Clock, IdGenerator],
          useFactory: (ds: DataSource, clock: Clock, ids: IdGenerator) =>
            new ScannerService(
              config.tables,
              new ScannerHistoryRepository(ds, config.kafka?.topicPrefix ?? ''),
              clock,
              ids,
            ),
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
        {
          provide: StudioMetrics,
          inject: [OutboxRelay, EventPublisher, ModuleRef],
          useFactory: (relay: OutboxRelay, publisher: EventPublisher, modules: ModuleRef) =>
            new StudioMetrics({
              lag: () => relay.lag(),
              relayCounters: () => relay.counters,
              publisher,
              ...(config.kafka?.commands.enabled
                ? { intakeCounters: () => intakeCountersOf(modules) }
                : {}),
            }),
        },
        MetricsAccessGuard,
        // Subscribed while the module is built, so they hear the tables' very first transitions
        // (an automatic pause after a restart happens as the tables start).
        {
          provide: RoundLogListener,
          inject: [TableRuntimeRegistry],
          useFactory: (registry: TableRuntimeRegistry) =>
            subscribed(registry, new RoundLogListener(config.tables)),
        },
        {
          provide: RoundMetricsListener,
          inject: [TableRuntimeRegistry, StudioMetrics, Clock],
          useFactory: (registry: TableRuntimeRegistry, metrics: StudioMetrics, clock: Clock) =>
            subscribed(registry, new RoundMetricsListener(config.tables, metrics, clock)),
        },
        ...demoPlayers(config),
        StudioLifecycle,
      ],
      exports: [OutboxRelay, Clock, IdGenerator, DataSource, ScannerService],
    };
  }
}
