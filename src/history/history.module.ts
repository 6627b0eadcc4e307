import { DynamicModule, Module } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { HistoryReader } from './reader/history-reader';
import { historyQueryOf } from './reader/history-query';

/** The history's read side as a provider: modules that read history import this. */
@Module({})
export class HistoryModule {
  static forRoot(deps: { dataSource: DataSource }): DynamicModule {
    return {
      module: HistoryModule,
      providers: [
        { provide: HistoryReader, useValue: new HistoryReader(historyQueryOf(deps.dataSource)) },
      ],
      exports: [HistoryReader],
    };
  }
}
