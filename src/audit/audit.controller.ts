import {
  BadRequestException,
  Controller,
  Get,
  NotFoundException,
  Param,
  Query,
  Res,
} from '@nestjs/common';
import type { Response } from 'express';
import { Roles } from '../auth/roles.guard';
import { MAX_REPLAY_ROUNDS, replayRange, textParam } from './audit-params';
import { AuditRequestError } from './audit-query';
import { AUDIT_OPENAPI } from './audit-openapi';
import { ExportRounds } from './export-rounds.use-case';
import { PlayerBetHistory } from './player-bet-history.use-case';
import { RoundTimeline } from './round-timeline.use-case';
import { RoundSearchQuery, SearchRounds } from './search-rounds.use-case';
import { VerifyEventChain } from './verify-event-chain.use-case';
import { VerifyRoundReplay } from './verify-round-replay.use-case';

/** 400 / 404 with the project's `{ error, message }` body. */
async function answer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AuditRequestError) {
      const body = { error: error.code, message: error.message };
      throw error.code === 'not-found'
        ? new NotFoundException(body)
        : new BadRequestException(body);
    }
    throw error;
  }
}

/** Read-only history for auditors (role `auditor`). Described by GET /audit/openapi.json. */
@Controller('audit')
export class AuditController {
  constructor(
    private readonly search: SearchRounds,
    private readonly timeline: RoundTimeline,
    private readonly history: PlayerBetHistory,
    private readonly exporter: ExportRounds,
    private readonly replay: VerifyRoundReplay,
    private readonly chain: VerifyEventChain,
  ) {}

  /** The API description is public, like any API documentation; the data is not. */
  @Get('openapi.json')
  openapi() {
    return AUDIT_OPENAPI;
  }

  @Get('rounds')
  @Roles('auditor')
  rounds(@Query() query: RoundSearchQuery) {
    return answer(() => this.search.execute(query));
  }

  @Get('rounds/:roundId/timeline')
  @Roles('auditor')
  roundTimeline(@Param('roundId') roundId: string) {
    return answer(() => this.timeline.execute(roundId));
  }

  @Get('rounds/:roundId/replay')
  @Roles('auditor')
  verifyRound(@Param('roundId') roundId: string) {
    return answer(async () => {
      if (
        typeof roundId !== 'string' ||
        !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(roundId)
      ) {
        throw new AuditRequestError('bad-request', 'roundId must be a uuid');
      }
      return this.replay.round(roundId);
    });
  }

  @Get('replay')
  @Roles('auditor')
  verifyRange(@Query() query: { from?: string; to?: string; tableId?: string }) {
    return answer(async () => {
      const { from, to } = replayRange(query);
      const tableId = textParam('tableId', query.tableId);
      return this.replay.range(from, to, tableId, MAX_REPLAY_ROUNDS);
    });
  }

  @Get('players/:playerId/bets')
  @Roles('auditor')
  playerBets(
    @Param('playerId') playerId: string,
    @Query() query: { from?: string; to?: string; limit?: string; cursor?: string },
  ) {
    return answer(() => this.history.execute(playerId, query));
  }

  @Get('chain')
  @Roles('auditor')
  verifyChain(@Query('tableId') tableId?: string) {
    return answer(async () =>
      tableId === undefined || tableId === ''
        ? this.chain.all()
        : [await this.chain.table(tableId)],
    );
  }

  /**
   * Streams the export with backpressure. Errors before the first byte are answered as JSON; a
   * failure mid-stream can only cut the stream (the status is already sent).
   */
  @Get('export')
  @Roles('auditor')
  async export(
    @Query() query: RoundSearchQuery & { format?: string },
    @Res() response: Response,
  ): Promise<void> {
    const format = await answer(async () => this.exporter.validate(query));
    response.status(200);
    response.setHeader(
      'content-type',
      format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    );
    response.setHeader(
      'content-disposition',
      `attachment; filename="rounds.${format === 'csv' ? 'csv' : 'ndjson'}"`,
    );
    try {
      for await (const chunk of this.exporter.chunks(query, format)) {
        if (!response.write(chunk)) {
          await new Promise<void>((resolve) => response.once('drain', () => resolve()));
        }
      }
      response.end();
    } catch (error) {
      response.destroy(error as Error);
    }
  }
}
