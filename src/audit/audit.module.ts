import { DynamicModule, Module } from '@nestjs/common';
import { HistoryReader } from '../history/reader/history-reader';
import { AuditController } from './audit.controller';
import { AuditSettings, cursorSigningKey, SharedSecrets } from './cursor-signing-key';
import { ExportEventChain } from './export-event-chain/export-event-chain.use-case';
import { ExportRounds } from './export-rounds/export-rounds.use-case';
import { KeysetCursors } from './keyset-cursor';
import { PlayerBetHistory } from './player-bet-history/player-bet-history.use-case';
import { RoundTimeline } from './round-timeline/round-timeline.use-case';
import { SearchRounds } from './search-rounds/search-rounds.use-case';
import { VerifyEventChain } from './verify-event-chain/verify-event-chain.use-case';
import { VerifyRoundReplay } from './verify-round-replay/verify-round-replay.use-case';

const READERS = [
  RoundTimeline,
  ExportRounds,
  VerifyRoundReplay,
  VerifyEventChain,
  ExportEventChain,
] as const;
const PAGED = [SearchRounds, PlayerBetHistory] as const;

/** The auditor's read-only history API: plain use cases over the history reader. */
@Module({})
export class AuditModule {
  /**
   * `history` is the service's one HistoryModule; `secrets` keeps the cursor key that instances
   * share when `settings` names none.
   */
  static forRoot(deps: {
    history: DynamicModule;
    settings: AuditSettings;
    secrets: SharedSecrets;
  }): DynamicModule {
    return {
      module: AuditModule,
      imports: [deps.history],
      controllers: [AuditController],
      providers: [
        {
          provide: KeysetCursors,
          useFactory: async () =>
            new KeysetCursors(await cursorSigningKey(deps.settings, deps.secrets)),
        },
        ...READERS.map((useCase) => ({
          provide: useCase,
          inject: [HistoryReader],
          useFactory: (reader: HistoryReader) => new useCase(reader),
        })),
        ...PAGED.map((useCase) => ({
          provide: useCase,
          inject: [HistoryReader, KeysetCursors],
          useFactory: (reader: HistoryReader, cursors: KeysetCursors) =>
            new useCase(reader, cursors),
        })),
      ],
    };
  }
}
