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
import { MAX_REPLAY_DAYS, MAX_REPLAY_ROUNDS } from './audit-params';
import { AuditRequestError } from './audit-query';
import {
  ExportEventChain,
  ExportEventChainQuery,
} from './export-event-chain/export-event-chain.use-case';
import { ExportRoundsQuery } from './export-rounds/export-rounds.query';
import { ExportRounds } from './export-rounds/export-rounds.use-case';
import { KeysetCursors } from './keyset-cursor';
import {
  PlayerBetHistoryQuery,
  PlayerBetParams,
} from './player-bet-history/player-bet-history.query';
import { PlayerBetHistory } from './player-bet-history/player-bet-history.use-case';
import { RoundSearchParams } from './round-filter';
import { RoundIdQuery } from './round-id';
import { RoundTimeline } from './round-timeline/round-timeline.use-case';
import { SearchRoundsQuery } from './search-rounds/search-rounds.query';
import { SearchRounds } from './search-rounds/search-rounds.use-case';
import {
  VerifyEventChain,
  VerifyEventChainQuery,
} from './verify-event-chain/verify-event-chain.use-case';
import { ReplayRangeQuery } from './verify-round-replay/replay-range.query';
import { VerifyRoundReplay } from './verify-round-replay/verify-round-replay.use-case';

const ID = def('id');

/** 400 / 404 with the project's `{ error, message }` body. */
function httpError(error: AuditRequestError): Error {
  const body = { error: error.code, message: error.message };
  return error.code === 'not-found' ? new NotFoundException(body) : new BadRequestException(body);
}

/**
 * A query that refused itself is answered at once; a valid one goes to its use case, whose own
 * refusals (no such round, a range holding too many rounds) are answered the same way.
 */
async function answer<Q, T>(
  query: Q | AuditRequestError,
  execute: (query: Q) => Promise<T>,
): Promise<T> {
  if (query instanceof AuditRequestError) throw httpError(query);
  try {
    return await execute(query);
  } catch (error) {
    throw error instanceof AuditRequestError ? httpError(error) : error;
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
    private readonly cursors: KeysetCursors,
    private readonly chainExporter: ExportEventChain,
  ) {}

  @ApiOperation({ summary: 'Search rounds, newest first' })
  @RoundFilters()
  @Page()
  @ApiOk(Answers.RoundPage, 'A page of rounds')
  @Get('rounds')
  @Roles('auditor')
  rounds(@Query() params: RoundSearchParams) {
    return answer(SearchRoundsQuery.create(params, this.cursors), (q) => this.search.execute(q));
  }

  @ApiOperation({ summary: "A round's full record in time order" })
  @ApiIdParams('roundId')
  @ApiOk(Answers.RoundTimeline, 'The timeline')
  @NoSuchRound()
  @Get('rounds/:roundId/timeline')
  @Roles('auditor')
  roundTimeline(@Param('roundId') roundId: string) {
    return answer(RoundIdQuery.create(roundId), (q) => this.timeline.execute(q));
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
    return answer(RoundIdQuery.create(roundId), (q) => this.replay.round(q.roundId));
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
  verifyRange(@Query() params: { from?: string; to?: string; tableId?: string }) {
    return answer(ReplayRangeQuery.create(params), (q) =>
      this.replay.range(q.from, q.to, q.tableId, q.maxRounds),
    );
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
  playerBets(@Param('playerId') playerId: string, @Query() params: PlayerBetParams) {
    return answer(PlayerBetHistoryQuery.create(playerId, params, this.cursors), (q) =>
      this.history.execute(q),
    );
  }

  @ApiOperation({
    summary: "Walk each table's hash-chained round events and name the first broken link",
  })
  @ApiOptionalQuery('tableId', ID, 'Only this table.')
  @ApiOk({ type: 'array', items: Answers.ChainVerdict }, 'One verdict per table')
  @Get('chain')
  @Roles('auditor')
  verifyChain(@Query() params: { tableId?: string }) {
    return answer(VerifyEventChainQuery.create(params), (q) =>
      this.chain.againstPublished(q.tableId),
    );
  }

  /**
   * Streams the export with backpressure. Errors before the first byte are answered as JSON; a
   * failure mid-stream can only cut the stream (the status is already sent).
   */
  @ApiOperation({
    summary: "Stream a table's hash chain as NDJSON for an independent verifier (docs/chain.md)",
  })
  @ApiQuery({ name: 'tableId', required: true, schema: openApiSchema(ID) })
  @ApiProduces('application/x-ndjson')
  @ApiResponse({
    status: 200,
    description:
      'One event a line in chain order with every hashed field; an event of a round in progress is withheld (number, version and hashes only)',
  })
  @Get('chain/export')
  @Roles('auditor')
  async exportChain(
    @Query() params: { tableId?: string },
    @Res() response: Response,
  ): Promise<void> {
    const query = await answer(ExportEventChainQuery.create(params), async (q) => q);
    response.status(200);
    response.setHeader('content-type', 'application/x-ndjson; charset=utf-8');
    response.setHeader('content-disposition', `attachment; filename="chain.ndjson"`);
    await streamChunks(response, this.chainExporter.chunks(query));
  }

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
    @Query() params: RoundSearchParams & { format?: string },
    @Res() response: Response,
  ): Promise<void> {
    const query = await answer(ExportRoundsQuery.create(params), async (q) => q);
    const format = query.format;
    response.status(200);
    response.setHeader(
      'content-type',
      format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    );
    response.setHeader(
      'content-disposition',
      `attachment; filename="rounds.${format === 'csv' ? 'csv' : 'ndjson'}"`,
    );
    await streamChunks(response, this.exporter.chunks(query));
  }
}

/** Writes the chunks with backpressure; a failure mid-stream can only cut the stream. */
async function streamChunks(response: Response, chunks: AsyncIterable<string>): Promise<void> {
  try {
    for await (const chunk of chunks) {
      if (!response.write(chunk)) {
        await new Promise<void>((resolve) => response.once('drain', () => resolve()));
      }
    }
    response.end();
  } catch (error) {
    response.destroy(error as Error);
  }
}
