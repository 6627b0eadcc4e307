import { DynamicModule, Module } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { AuditQuery } from './audit-query';
import { AuditController } from './audit.controller';
import { ExportRounds } from './export-rounds.use-case';
import { PlayerBetHistory } from './player-bet-history.use-case';
import { RoundTimeline } from './round-timeline.use-case';
import { SearchRounds } from './search-rounds.use-case';
import { VerifyEventChain } from './verify-event-chain.use-case';
import { VerifyRoundReplay } from './verify-round-replay.use-case';

/** The auditor's read-only history API; the use cases are plain classes over one query function. */
@Module({})
export class AuditModule {
  static forRoot(deps: { dataSource: DataSource }): DynamicModule {
    const q: AuditQuery = (sql, params) => deps.dataSource.query(sql, params);
    return {
      module: AuditModule,
      controllers: [AuditController],
      providers: [
        { provide: SearchRounds, useValue: new SearchRounds(q) },
        { provide: RoundTimeline, useValue: new RoundTimeline(q) },
        { provide: PlayerBetHistory, useValue: new PlayerBetHistory(q) },
        { provide: ExportRounds, useValue: new ExportRounds(q) },
        { provide: VerifyRoundReplay, useValue: new VerifyRoundReplay(q) },
        { provide: VerifyEventChain, useValue: new VerifyEventChain(q) },
      ],
    };
  }
}
