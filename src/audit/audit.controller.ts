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
import { ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { def } from '@studio/contracts';
import { ApiIdParams, ApiOk, ApiOptionalQuery, ApiStaff } from '../http/api-docs';
import {
  AUDIT_400,
  EXPORT_200,
  NoSuchRound,
  Page,
  RoundFilters,
  TIME,
} from '../http/audit-api-docs';
import * as Answers from '../http/audit-api-schemas';
import { ERROR_BODY } from '../http/http-schemas';
import { openApiSchema } from '../http/openapi-schema';
import { MAX_REPLAY_DAYS, MAX_REPLAY_ROUNDS, replayRange, textParam } from './audit-params';
import { AuditRequestError } from './audit-query';
import { ExportRounds } from './export-rounds.use-case';
import { PlayerBetHistory } from './player-bet-history.use-case';
import { RoundTimeline } from './round-timeline.use-case';
import { RoundSearchQuery, SearchRounds } from './search-rounds.use-case';
import { VerifyEventChain } from './verify-event-chain.use-case';
import { VerifyRoundReplay } from './verify-round-replay.use-case';

const ID = def('id');

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

/** Read-only history for auditors (role `auditor`), described in the OpenAPI document (/docs). */
@Controller('audit')
@ApiStaff('audit', 'auditor')
@ApiResponse({ status: 400, description: AUDIT_400, schema: openApiSchema(ERROR_BODY) })
export class AuditController {
  constructor(
    private readonly search: SearchRounds,
    private readonly timeline: RoundTimeline,
    private readonly history: PlayerBetHistory,
    private readonly exporter: ExportRounds,
    private readonly replay: VerifyRoundReplay,
    private readonly chain: VerifyEventChain,
  ) {}

  @ApiOperation({ summary: 'Search rounds, newest first' })
  @RoundFilters()
  @Page()
  @ApiOk(Answers.RoundPage, 'A page of rounds')
  @Get('rounds')
  @Roles('auditor')
  rounds(@Query() query: RoundSearchQuery) {
    return answer(() => this.search.execute(query));
  }

  @ApiOperation({ summary: "A round's full record in time order" })
  @ApiIdParams('roundId')
  @ApiOk(Answers.RoundTimeline, 'The timeline')
  @NoSuchRound()
  @Get('rounds/:roundId/timeline')
  @Roles('auditor')
  roundTimeline(@Param('roundId') roundId: string) {
    return answer(() => this.timeline.execute(roundId));
  }

  @ApiOperation({
    summary: 'Replay one round with the engines and compare it with the stored settlements',
  })
  @ApiParam({ name: 'roundId', required: true, schema: { type: 'string', format: 'uuid' } })
  @ApiOk(Answers.RoundVerdict, 'The verdict')
  @NoSuchRound()
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

  @ApiOperation({
    summary: `Replay every round started in a time range (at most ${MAX_REPLAY_DAYS} days and ${MAX_REPLAY_ROUNDS} rounds per call)`,
  })
  @ApiQuery({ name: 'from', required: true, schema: TIME, description: 'Range start (inclusive)' })
  @ApiQuery({ name: 'to', required: true, schema: TIME, description: 'Range end (exclusive)' })
  @ApiOptionalQuery('tableId', ID, 'Only this table.')
  @ApiOk(Answers.RangeVerdict, 'Counts and every round that failed')
  @Get('replay')
  @Roles('auditor')
  verifyRange(@Query() query: { from?: string; to?: string; tableId?: string }) {
    return answer(async () => {
      const { from, to } = replayRange(query);
      const tableId = textParam('tableId', query.tableId);
      return this.replay.range(from, to, tableId, MAX_REPLAY_ROUNDS);
    });
  }

  @ApiOperation({ summary: "A player's bets with their settlements, newest first" })
  @ApiIdParams('playerId')
  @ApiQuery({
    name: 'from',
    required: false,
    schema: TIME,
    description: 'Bets placed at or after this time.',
  })
  @ApiQuery({
    name: 'to',
    required: false,
    schema: TIME,
    description: 'Bets placed before this time.',
  })
  @Page()
  @ApiOk(Answers.PlayerBetPage, 'A page of bets')
  @Get('players/:playerId/bets')
  @Roles('auditor')
  playerBets(
    @Param('playerId') playerId: string,
    @Query() query: { from?: string; to?: string; limit?: string; cursor?: string },
  ) {
    return answer(() => this.history.execute(playerId, query));
  }

  @ApiOperation({
    summary: "Walk each table's hash-chained round events and name the first broken link",
  })
  @ApiOptionalQuery('tableId', ID, 'Only this table.')
  @ApiResponse({
    status: 200,
    description: 'One verdict per table',
    schema: { type: 'array', items: Answers.ChainVerdict },
  })
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
  @ApiOperation({
    summary: 'Stream the rounds of a time range (oldest first) with settlement totals',
  })
  @ApiQuery({
    name: 'format',
    required: false,
    schema: { type: 'string', enum: ['csv', 'ndjson'] },
  })
  @RoundFilters(true)
  @ApiProduces('text/csv', 'application/x-ndjson')
  @ApiResponse({ status: 200, description: EXPORT_200 })
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
