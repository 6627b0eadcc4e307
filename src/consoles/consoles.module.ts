import { DynamicModule, Logger, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
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
import { loadConsoleCards } from './console-queries';
import { HistoryReader } from '../history/reader/history-reader';
import { changeKindOf, TableChangeNotices } from '../history/table-change-notices';
import { TableStateReader } from '../history/table-state.reader';
import type { MachineOutcome } from '../table-core/table-machine';
import { ConsoleStreamHub } from './console-stream.hub';
import { ConsoleOutboxLag } from './console.tokens';

/** Starts the live streams once the tables, scanners and relay exist; ends them before shutdown. */
class ConsolesLifecycle implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Consoles');
  private notices?: TableChangeNotices;

  constructor(
    private readonly hub: ConsoleStreamHub,
    private readonly config: StudioConfig,
    private readonly sources: {
      registry: TableRuntimeRegistry;
      scanners: ScannerService;
      relay: OutboxRelay;
      history: HistoryReader;
      stored: TableStateReader;
    },
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    const { registry, scanners, relay, history, stored } = this.sources;
    this.hub.start({
      tables: this.config.tables,
      registry,
      scanners,
      stored,
      loadCards: (state) => loadConsoleCards(history, state),
      outboxLag: async () => ({ ...(await relay.lag()), publishing: publishing(this.config) }),
      clock: this.clock,
    });
    this.fanOut(registry);
  }

  /**
   * Tables driven by other instances: each instance announces its committed transitions with a
   * NOTIFY, and every instance LISTENs and rebuilds the views of the others' tables from the
   * stored state. The embedded PGlite serves a single connection, hence no LISTEN there.
   */
  private fanOut(registry: TableRuntimeRegistry): void {
    const url = this.config.database.url;
    if (!url) {
      this.logger.log(
        'Embedded database: consoles are live for the tables driven here only (no LISTEN/NOTIFY)',
      );
      return;
    }
    const notices = new TableChangeNotices({
      url,
      applicationName: `studio:${this.config.instanceId}:table-changes`,
      connectTimeoutMs: this.config.database.connectTimeoutMs,
    });
    this.notices = notices;
    // Listeners run after the commit: a receiver that reads the stored state finds this change.
    registry.onTransition((tableId: string, outcome: MachineOutcome, version?: number) => {
      void notices.notify({ tableId, version, kind: changeKindOf(outcome) });
    });
    void notices.listen({
      notice: (notice) => this.hub.remoteChanged(notice),
      connected: () => this.hub.refreshRemote(),
    });
  }

  /** Before the HTTP server closes: open streams would keep it from closing. */
  async onModuleDestroy(): Promise<void> {
    this.hub.close();
    await this.notices?.close();
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
    clock: Clock;
    history: DynamicModule;
    tables: DynamicModule;
    scanners: DynamicModule;
    outbox: DynamicModule;
  }): DynamicModule {
    const { config, clock } = deps;
    const hub = new ConsoleStreamHub({
      heartbeatMs: config.auth.streamHeartbeatMs,
      maxStreamsPerUser: config.auth.maxStreamsPerUser,
    });
    return {
      module: ConsolesModule,
      imports: [deps.history, deps.tables, deps.scanners, deps.outbox],
      controllers: [
        ConsolePagesController,
        RootRedirectController,
        ConsoleApiController,
        HoldMonitoringController,
      ],
      providers: [
        { provide: STUDIO_CONFIG, useValue: config },
        { provide: ConsoleAssets, useValue: new ConsoleAssets() },
        { provide: ConsoleStreamHub, useValue: hub },
        {
          provide: ConsoleOutboxLag,
          inject: [OutboxRelay],
          useFactory: (relay: OutboxRelay): ConsoleOutboxLag => ({
            lag: async () => ({ ...(await relay.lag()), publishing: publishing(config) }),
          }),
        },
        {
          provide: GetHoldReport,
          inject: [HoldStatisticsReader],
          useFactory: (reader: HoldStatisticsReader) =>
            new GetHoldReport(config.tables, reader, clock),
        },
        {
          provide: ConsolesLifecycle,
          inject: [
            TableRuntimeRegistry,
            ScannerService,
            OutboxRelay,
            HistoryReader,
            TableStateReader,
          ],
          useFactory: (
            registry: TableRuntimeRegistry,
            scanners: ScannerService,
            relay: OutboxRelay,
            history: HistoryReader,
            stored: TableStateReader,
          ) =>
            new ConsolesLifecycle(
              hub,
              config,
              { registry, scanners, relay, history, stored },
              clock,
            ),
        },
      ],
    };
  }
}
