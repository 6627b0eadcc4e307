import { DynamicModule, Module } from '@nestjs/common';
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
  /** `history` is the service's one HistoryModule. */
  static forRoot(deps: { history: DynamicModule }): DynamicModule {
    return {
      module: AuditModule,
      imports: [deps.history],
      controllers: [AuditController],
      providers: USE_CASES.map((useCase) => ({
        provide: useCase,
        inject: [HistoryReader],
        useFactory: (reader: HistoryReader) => new useCase(reader),
      })),
    };
  }
}
