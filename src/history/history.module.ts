import { DynamicModule, Module } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { livenessSettingsOf } from '../database/instance-liveness';
import { TableLeaseRepository } from '../database/table-lease.repository';
import { ChainCheckpointRepository } from './chain-checkpoint.repository';
import { HoldStatisticsReader } from './hold-statistics.reader';
import { HistoryReader } from './reader/history-reader';
import { historyQueryOf } from './reader/history-query';
import { ScannerReadingRecorder } from './reading-recorder';
import { ScannerHistoryRepository } from './scanner-history.repository';
import { TableRegistryRepository } from './table-registry.repository';
import { TableStateReader } from './table-state.reader';
import { createTransitionWriter, TransitionWriter } from './writer/transition-writer';
import { SupervisorActionsRepository } from './writer/supervisor-actions.repository';
import {
  LEASE_STORE,
  READING_STORE,
  TABLE_REGISTRY_STORE,
  TRANSITION_STORE,
} from '../tables/ports';
import { VOID_REQUESTS } from '../use-cases/common/tables.port';
import { PLACED_BETS } from '../use-cases/cancel-bet/placed-bets.port';
import { PlacedBetsRepository } from './placed-bets.repository';

export interface HistoryModuleOptions {
  dataSource: DataSource;
  /** Kafka topic prefix of the events the writers put in the outbox. */
  topicPrefix: string;
  /** How long a table lease lasts without renewal. */
  leaseTtlMs: number;
}

/**
 * The one place the service's history is written and read: the transition writer and its
 * repositories, the registered tables, the scanners' readings, the table leases and the history
 * reader shared by the audit API, the consoles and replay. Modules that read or write history
 * import this module; none of them sees the database itself.
 */
@Module({})
export class HistoryModule {
  static forRoot(options: HistoryModuleOptions): DynamicModule {
    const { dataSource, topicPrefix, leaseTtlMs } = options;
    const leases = new TableLeaseRepository(dataSource, leaseTtlMs, livenessSettingsOf(dataSource));
    const writer = createTransitionWriter(dataSource, topicPrefix);
    const query = historyQueryOf(dataSource);
    const scannerHistory = new ScannerHistoryRepository(dataSource, topicPrefix);
    const providers = [
      { provide: HistoryReader, useValue: new HistoryReader(query) },
      { provide: HoldStatisticsReader, useValue: new HoldStatisticsReader(query) },
      { provide: TableStateReader, useValue: new TableStateReader(dataSource) },
      { provide: TransitionWriter, useValue: writer },
      {
        provide: SupervisorActionsRepository,
        useValue: new SupervisorActionsRepository(dataSource),
      },
      { provide: TableLeaseRepository, useValue: leases },
      {
        provide: TableRegistryRepository,
        useValue: new TableRegistryRepository(dataSource, topicPrefix),
      },
      {
        provide: ChainCheckpointRepository,
        useValue: new ChainCheckpointRepository(dataSource, topicPrefix),
      },
      { provide: ScannerHistoryRepository, useValue: scannerHistory },
      { provide: PlacedBetsRepository, useValue: new PlacedBetsRepository(dataSource) },
      // The one queue of readings stored on their own (scanners and tables share it).
      { provide: ScannerReadingRecorder, useValue: new ScannerReadingRecorder(scannerHistory) },
    ];
    // The middle ring's ports (src/tables/ports.ts, src/use-cases), bound to the classes above.
    const ports = [
      { provide: TRANSITION_STORE, useExisting: TransitionWriter },
      { provide: READING_STORE, useExisting: ScannerReadingRecorder },
      { provide: LEASE_STORE, useExisting: TableLeaseRepository },
      { provide: TABLE_REGISTRY_STORE, useExisting: TableRegistryRepository },
      { provide: VOID_REQUESTS, useExisting: SupervisorActionsRepository },
      { provide: PLACED_BETS, useExisting: PlacedBetsRepository },
    ];
    return {
      module: HistoryModule,
      providers: [...providers, ...ports],
      exports: [...providers, ...ports].map((p) => p.provide),
    };
  }
}
