import { DynamicModule, Module } from '@nestjs/common';
import { HistoryModule } from '../history/history.module';
import { HistoryReader } from '../history/reader/history-reader';
import { AuditController } from './audit.controller';
import { ExportRounds } from './export-rounds.use-case';
import { PlayerBetHistory } from './player-bet-history.use-case';
import { RoundTimeline } from './round-timeline.use-case';
import { SearchRounds } from './search-rounds.use-case';
import { VerifyEventChain } from './verify-event-chain.use-case';
import { VerifyRoundReplay } from './verify-round-replay.use-case';

const USE_CASES = [
  SearchRounds,
  RoundTimeline,
  PlayerBetHistory,
  ExportRounds,
  VerifyRoundReplay,
  VerifyEventChain,
] as const;

/** The auditor's read-only history API: plain use cases over the history reader. */
@Module({})
export class AuditModule {
  /** `deps` is what the history module needs (the database); the audit itself never sees it. */
  static forRoot(deps: Parameters<typeof HistoryModule.forRoot>[0]): DynamicModule {
    return {
      module: AuditModule,
      imports: [HistoryModule.forRoot(deps)],
      controllers: [AuditController],
      providers: USE_CASES.map((useCase) => ({
        provide: useCase,
        inject: [HistoryReader],
        useFactory: (reader: HistoryReader) => new useCase(reader),
      })),
    };
  }
}
