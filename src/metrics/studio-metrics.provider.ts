import type { FactoryProvider } from '@nestjs/common';
import { SecurityLog } from '../auth/security-log';
import type { Clock } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import type { CommandInboxRepository } from '../database/command-inbox.repository';
import { HoldStatisticsReader } from '../history/hold-statistics.reader';
import { GetHoldReport } from '../hold-monitoring/get-hold-report';
import { EventPublisher } from '../outbox/event-publisher';
import { OutboxRelay } from '../outbox/outbox-relay';
import { CommandIntakeHandler } from '../platform/command-intake.handler';
import { ScannerService } from '../scanner/scanner.service';
import { TablesLifecycle } from '../tables/tables-lifecycle';
import { TableOwnership } from '../tables/table-ownership';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';
import { readBuildInfo } from './build-info';
import type { PoolReading } from './operational-metrics';
import { StudioMetrics } from './studio-metrics';

/** The hold report the console shows, with its defaults (last 200 rounds, 24 hours). */
const HOLD_WINDOW = { rounds: 200, hours: 24 };

/** The pg pool behind TypeORM's PostgreSQL driver (its counts are pg.Pool's public fields). */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

export interface MetricsWiring {
  config: StudioConfig;
  clock: Clock;
  inbox: CommandInboxRepository;
  pool: () => PoolCounts | undefined;
}

/**
 * StudioMetrics, reading each figure from the module that owns it: the relay and the producer,
 * the command intake, the security log, the tables and their leases, the scanners, the hold
 * report, the command inbox and the database pool.
 */
export function studioMetricsProvider(w: MetricsWiring): FactoryProvider<StudioMetrics> {
  return {
    provide: StudioMetrics,
    inject: [
      OutboxRelay,
      EventPublisher,
      SecurityLog,
      TableRuntimeRegistry,
      TableOwnership,
      TablesLifecycle,
      ScannerService,
      HoldStatisticsReader,
      { token: CommandIntakeHandler, optional: true },
    ],
    useFactory: (
      relay: OutboxRelay,
      publisher: EventPublisher,
      security: SecurityLog,
      registry: TableRuntimeRegistry,
      ownership: TableOwnership,
      tables: TablesLifecycle,
      scanners: ScannerService,
      holdReader: HoldStatisticsReader,
      intake: CommandIntakeHandler | undefined,
    ) => {
      const hold = new GetHoldReport(w.config.tables, holdReader, w.clock);
      return new StudioMetrics({
        lag: () => relay.lag(),
        relayCounters: () => relay.counters,
        publisher,
        signInEvents: () => security.counts,
        ...(intake ? { intakeCounters: () => intake.intake.counters } : {}),
        inboxWaiting: () => w.inbox.waitingPerTable(),
        holdRefreshMs: w.config.metricsHoldRefreshMs,
        tablesByInstance: () => tables.distribution(),
        hold: async () =>
          (await hold.execute(HOLD_WINDOW)).tables.map((t) => ({
            tableId: t.tableId,
            verdict: t.returns.verdict,
            observed: t.returns.observed,
            expected: t.returns.expected,
            low: t.returns.low,
            high: t.returns.high,
          })),
        operational: {
          build: readBuildInfo(),
          tableIds: w.config.tables.map((t) => t.id),
          leaseTtlMs: w.config.orchestrator.leaseTtlMs,
          now: () => w.clock.now(),
          scanners: () => scanners.states(),
          drivenTables: () =>
            registry.all().map((runtime) => ({
              tableId: runtime.tableId,
              paused: runtime.snapshot.phase.kind === 'paused',
              leaseExpiresAt: ownership.lease(runtime.tableId)?.expiresAt,
            })),
          pool: (): PoolReading | undefined => {
            const p = w.pool();
            return p
              ? { total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount }
              : undefined;
          },
        },
      });
    },
  };
}
