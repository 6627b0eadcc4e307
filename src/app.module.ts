import { DynamicModule, MiddlewareConsumer, Module, NestModule, Provider } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { Clock, IdGenerator, RandomUuidGenerator, SystemClock } from './clock/clock';
import type { StudioConfig } from './config/studio-config';
import { ConsolesModule } from './consoles/consoles.module';
import { CommandInboxRepository } from './database/command-inbox.repository';
import { DatabaseConnection } from './database/database-connection';
import { SharedSecretsRepository } from './database/shared-secrets.repository';
import { databaseCheck, migrationsCheck } from './database/database-readiness';
import { DemoPlayers, httpPlatformPost } from './demo/demo-players';
import { HealthController } from './health/health.controller';
import { commandIntakeCheck, READINESS_CHECKS, tablesCheck } from './health/readiness';
import { kafkaCheck } from './outbox/outbox-readiness';
import { CommandIntakeStatus } from './platform/command-intake-starter';
import { ChainCheckpointModule } from './history/chain-checkpoint.module';
import { HistoryModule } from './history/history.module';
import { KafkaModule } from './kafka/kafka.module';
import { loggingOptions } from './logging/logging.options';
import { RoundLogListener } from './logging/round-log.listener';
import { HttpMetricsMiddleware } from './metrics/http-metrics.middleware';
import { MetricsAccessGuard } from './metrics/metrics-access.guard';
import { RoundMetricsListener } from './metrics/round-metrics.listener';
import { StudioMetrics } from './metrics/studio-metrics';
import { PoolCounts, studioMetricsProvider } from './metrics/studio-metrics.provider';
import { EventPublisher } from './outbox/event-publisher';
import { MetricsController } from './metrics/metrics.controller';
import { OutboxModule } from './outbox/outbox.module';
import { OutboxRelay } from './outbox/outbox-relay';
import { PlatformCommandsModule } from './platform/platform-commands.module';
import { PlatformHttpModule } from './platform/platform-http.module';
import { PlatformKafkaModule } from './platform/platform-kafka.module';
import { scannersCheck } from './scanner/scanner-readiness';
import { ScannerModule } from './scanner/scanner.module';
import { ScannerService } from './scanner/scanner.service';
import { SupervisorModule } from './supervisor/supervisor.module';
import type { TransitionListener } from './tables/table-runtime';
import { TableRuntimeRegistry } from './tables/table-runtime.registry';
import { TablesLifecycle } from './tables/tables-lifecycle';
import { TablesModule } from './tables/tables.module';
import { STOP_STEPS, StudioLifecycle } from './studio-lifecycle';
import { StopProgress } from './common/stop-progress';
import { StartProgress } from './common/start-progress';
import { PlatformsModule } from './platforms/platforms.module';
import { STUDIO_CONFIG } from './tokens';

export interface StudioModuleOptions {
  config: StudioConfig;
  database: DatabaseConnection;
  clock?: Clock;
  ids?: IdGenerator;
  /** Where the stop's steps are followed (bootstrap reads it when a stop is cut short). */
  stopProgress?: StopProgress;
  /** The start-up's steps, and whether it was told to stop (no table is taken then). */
  startProgress?: StartProgress;
}

function subscribed<L extends { onTransition: TransitionListener }>(
  registry: TableRuntimeRegistry,
  listener: L,
): L {
  registry.onTransition((tableId, outcome) => listener.onTransition(tableId, outcome));
  return listener;
}

/** Simulated players on the embedded demo (DEMO_PLAYERS), betting with the first platform key. */
function demoPlayers(config: StudioConfig, clock: Clock): Provider[] {
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
            clock,
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
    const dataSource = database.dataSource;
    const clock = options.clock ?? new SystemClock();
    const ids = options.ids ?? new RandomUuidGenerator();
    const topicPrefix = config.kafka?.topicPrefix ?? '';
    // Each shared module is built once here and imported by the modules that use it.
    const history = HistoryModule.forRoot({
      dataSource,
      topicPrefix,
      leaseTtlMs: config.orchestrator.leaseTtlMs,
    });
    const tables = TablesModule.forRoot({ config, clock, ids, history });
    const kafka = KafkaModule.forRoot(config);
    const outbox = OutboxModule.forRoot({ config, dataSource, clock, kafka });
    const scanners = ScannerModule.forRoot({ config, clock, ids, history, tables });
    const inbox = new CommandInboxRepository(dataSource);
    const commands = PlatformCommandsModule.forRoot({
      config,
      clock,
      ids,
      inboxRepository: inbox,
      tables,
      kafka,
      history,
    });
    const platforms = PlatformsModule.forRoot({ config, dataSource, clock });
    const platformKafka = PlatformKafkaModule.forRoot(config, {
      clock,
      commands,
      kafka,
      platforms,
      tables,
    });
    return {
      module: StudioModule,
      imports: [
        LoggerModule.forRoot(loggingOptions(config.logging)),
        AuthModule.forRoot({ dataSource, clock, ids, settings: config.auth }),
        history,
        tables,
        kafka,
        outbox,
        scanners,
        commands,
        platformKafka,
        SupervisorModule.forRoot({ config, tables, history }),
        platforms,
        PlatformHttpModule.forRoot({ config, clock, commands, platforms, history }),
        AuditModule.forRoot({
          history,
          settings: config.audit,
          secrets: new SharedSecretsRepository(dataSource),
        }),
        ChainCheckpointModule.forRoot({ config, clock, ids, history, tables }),
        ConsolesModule.forRoot({ config, clock, history, tables, scanners, outbox }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: STUDIO_CONFIG, useValue: config },
        { provide: DatabaseConnection, useValue: database },
        { provide: Clock, useValue: clock },
        { provide: IdGenerator, useValue: ids },
        {
          provide: StopProgress,
          useValue: options.stopProgress ?? new StopProgress(Object.values(STOP_STEPS)),
        },
        { provide: StartProgress, useValue: options.startProgress ?? new StartProgress() },
        {
          provide: READINESS_CHECKS,
          inject: [
            EventPublisher,
            OutboxRelay,
            ScannerService,
            TablesLifecycle,
            { token: CommandIntakeStatus, optional: true },
          ],
          useFactory: (
            publisher: EventPublisher,
            relay: OutboxRelay,
            scanners: ScannerService,
            tablesLifecycle: TablesLifecycle,
            intake: CommandIntakeStatus | undefined,
          ) => [
            databaseCheck(dataSource),
            migrationsCheck(dataSource),
            kafkaCheck(publisher, relay),
            ...(intake ? [commandIntakeCheck(intake)] : []),
            scannersCheck(scanners),
            tablesCheck(config.instanceId, tablesLifecycle),
          ],
        },
        studioMetricsProvider({
          config,
          clock,
          inbox,
          // TypeORM's PostgreSQL driver keeps its pg.Pool as `master`.
          pool: () => (dataSource.driver as unknown as { master?: PoolCounts }).master,
        }),
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
          inject: [TableRuntimeRegistry, StudioMetrics],
          useFactory: (registry: TableRuntimeRegistry, metrics: StudioMetrics) =>
            subscribed(registry, new RoundMetricsListener(config.tables, metrics, clock)),
        },
        ...demoPlayers(config, clock),
        StudioLifecycle,
      ],
    };
  }
}
