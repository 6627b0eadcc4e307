import { DynamicModule, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { OutboxRelay } from '../outbox/outbox-relay';
import { ScannerService } from '../scanner/scanner.service';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';
import { HoldStatisticsReader } from '../history/hold-statistics.reader';
import { GetHoldReport } from '../hold-monitoring/get-hold-report';
import { HoldMonitoringController } from '../hold-monitoring/hold-monitoring.controller';
import { STUDIO_CONFIG } from '../tokens';
import { ConsoleApiController } from './console-api.controller';
import { ConsoleAssets } from './console-assets';
import { ConsolePagesController, RootRedirectController } from './console-pages.controller';
import { ConsoleQuery, loadConsoleCards } from './console-queries';
import { ConsoleStreamHub } from './console-stream.hub';
import { CONSOLE_QUERY, ConsoleOutboxLag } from './console.tokens';

/**
 * The tables, scanners and relay belong to the modules that import this one, so they are looked
 * up once every provider exists rather than injected (the same way /metrics finds the intake).
 */
class ConsolesLifecycle implements OnModuleInit, OnModuleDestroy {
  constructor(
    private readonly modules: ModuleRef,
    private readonly hub: ConsoleStreamHub,
    private readonly config: StudioConfig,
    private readonly query: ConsoleQuery,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    const relay = this.modules.get(OutboxRelay, { strict: false });
    this.hub.start({
      tables: this.config.tables,
      registry: this.modules.get(TableRuntimeRegistry, { strict: false }),
      scanners: this.modules.get(ScannerService, { strict: false }),
      loadCards: (state) => loadConsoleCards(this.query, state),
      outboxLag: async () => ({ ...(await relay.lag()), publishing: publishing(this.config) }),
      clock: this.clock,
    });
  }

  /** Before the HTTP server closes: open streams would keep it from closing. */
  onModuleDestroy(): void {
    this.hub.close();
  }
}

/** Without Kafka the relay keeps events in the outbox: the consoles say so instead of a backlog. */
function publishing(config: StudioConfig): 'on' | 'off' {
  return config.kafka ? 'on' : 'off';
}

/** Dealer, supervisor and auditor consoles under /console/, with their live streams. */
@Module({})
export class ConsolesModule {
  static forRoot(deps: {
    config: StudioConfig;
    dataSource: DataSource;
    clock: Clock;
  }): DynamicModule {
    const { config, dataSource, clock } = deps;
    const query: ConsoleQuery = (sql, params) => dataSource.query(sql, params);
    const hub = new ConsoleStreamHub({
      heartbeatMs: config.auth.streamHeartbeatMs,
      maxStreamsPerUser: config.auth.maxStreamsPerUser,
    });
    return {
      module: ConsolesModule,
      controllers: [
        ConsolePagesController,
        RootRedirectController,
        ConsoleApiController,
        HoldMonitoringController,
      ],
      providers: [
        { provide: STUDIO_CONFIG, useValue: config },
        { provide: CONSOLE_QUERY, useValue: query },
        { provide: ConsoleAssets, useValue: new ConsoleAssets() },
        { provide: ConsoleStreamHub, useValue: hub },
        {
          provide: ConsoleOutboxLag,
          inject: [ModuleRef],
          useFactory: (modules: ModuleRef): ConsoleOutboxLag => ({
            lag: async () => ({
              ...(await modules.get(OutboxRelay, { strict: false }).lag()),
              publishing: publishing(config),
            }),
          }),
        },
        {
          provide: GetHoldReport,
          useValue: new GetHoldReport(config.tables, new HoldStatisticsReader(query), clock),
        },
        {
          provide: ConsolesLifecycle,
          inject: [ModuleRef],
          useFactory: (modules: ModuleRef) =>
            new ConsolesLifecycle(modules, hub, config, query, clock),
        },
      ],
    };
  }
}
