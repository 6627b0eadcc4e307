import {
  BadRequestException,
  Controller,
  Get,
  NotFoundException,
  Param,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '../clock/clock';
import { ApiOk, ApiPlatform, ApiSummary } from '../http/api-docs';
import { DAY as DAY_SCHEMA, ERROR_BODY, SETTLEMENT_REPORT } from '../http/http-schemas';
import { openApiSchema } from '../http/openapi-schema';
import { PLATFORM_ROUND } from '../http/platform-round-schema';
import { HistoryReader } from '../history/reader/history-reader';
import type { Platform } from '../platforms/platform-directory';
import { CurrentPlatform, PlatformKeyGuard } from './platform-key.guard';
import { platformRoundCards } from './platform-round-cards';
import { PlatformReportThrottlerGuard, PlatformThrottlerGuard } from './platform-throttler.guard';
import { reportCompleteness } from './settlement-report-completeness';
import { REPORT_COLUMNS, settlementReportCsv } from './settlement-report-csv';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
/** At most a quarter per report: a bounded query however far back a platform asks. */
const MAX_DAYS = 92;
const FORMATS: readonly unknown[] = ['json', 'csv'];
const REPORT_PARAMS: readonly string[] = ['from', 'to', 'format', 'platformId'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function dayOf(text: string | undefined, name: string): Date {
  const at = DAY.test(text ?? '') ? new Date(`${text}T00:00:00Z`) : new Date(NaN);
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text) {
    throw new BadRequestException({ error: 'invalid-date', message: `${name}: a day, YYYY-MM-DD` });
  }
  return at;
}

/** The report's completeness in headers too: a CSV without a record still says it. */
const FINAL_HEADER = 'Report-Final';
const OPEN_ROUNDS_HEADER = 'Report-Open-Rounds';

const DAY_PARAM = openApiSchema(DAY_SCHEMA);
/** Another platform's data is answered as if it did not exist (404): nothing tells it apart. */
function notFound(what: string): never {
  throw new NotFoundException({ error: `unknown-${what}`, message: `No such ${what}` });
}

/**
 * What a platform reconciles its ledger with and answers its players' disputes with, over its own
 * key: settlement reports per day, table and currency (JSON or CSV), and a round's cards, results
 * and that platform's own players' bets, decisions and outcomes. Never another platform's rows.
 */
@Controller('platform')
@UseGuards(PlatformKeyGuard, PlatformThrottlerGuard)
@ApiPlatform()
export class PlatformReportsController {
  constructor(
    private readonly history: HistoryReader,
    private readonly clock: Clock,
  ) {}

  @ApiSummary("The platform's settlement report per day, table and currency (JSON or CSV)")
  @ApiQuery({ name: 'from', required: true, schema: DAY_PARAM, description: 'first UTC day' })
  @ApiQuery({
    name: 'to',
    required: false,
    schema: DAY_PARAM,
    description: `last UTC day (default: from), at most ${MAX_DAYS} days in all`,
  })
  @ApiQuery({ name: 'format', required: false, schema: { type: 'string', enum: ['json', 'csv'] } })
  @ApiQuery({
    name: 'platformId',
    required: false,
    schema: { type: 'string' },
    description: "your own platform's id (another's is 404 unknown-platform)",
  })
  @ApiResponse({
    status: 200,
    description:
      'per UTC day, table and currency, in minor units; `final` says whether the figures may ' +
      `still change (also in the ${FINAL_HEADER} and ${OPEN_ROUNDS_HEADER} headers)`,
    headers: {
      [FINAL_HEADER]: { schema: { type: 'string', enum: ['true', 'false'] } },
      [OPEN_ROUNDS_HEADER]: { schema: { type: 'integer', minimum: 0 } },
    },
    content: {
      'application/json': { schema: openApiSchema(SETTLEMENT_REPORT) },
      'text/csv': {
        schema: {
          type: 'string',
          description:
            `RFC 4180, CRLF, a header then a record per line: ${REPORT_COLUMNS.join(', ')} ` +
            "(`final` and `openRounds` are the whole report's, on every record)",
        },
      },
    },
  })
  @ApiResponse({
    status: 400,
    description: 'invalid-date, invalid-format or unknown-parameter',
    schema: openApiSchema(ERROR_BODY),
  })
  @ApiResponse({
    status: 404,
    description: "unknown-platform: platformId is another platform's",
    schema: openApiSchema(ERROR_BODY),
  })
  @ApiResponse({
    status: 429,
    description:
      "rate-limited: the platform's settlement reports past PLATFORM_REPORT_RATE_LIMIT per window (Retry-After)",
    headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
    schema: openApiSchema(ERROR_BODY),
  })
  @UseGuards(PlatformReportThrottlerGuard)
  @Get('reports/settlements')
  async report(
    @CurrentPlatform() platform: Platform,
    @Query() query: Record<string, string | undefined>,
    @Res({ passthrough: true }) response: Response,
  ) {
    // A misspelt parameter (`unitl=`, `tableId=` for a filter there is not) is refused, not
    // ignored: a report of one day, or of every table, would pass for the one asked for.
    const unknown = Object.keys(query).filter((name) => !REPORT_PARAMS.includes(name));
    if (unknown.length > 0) {
      throw new BadRequestException({
        error: 'unknown-parameter',
        message: `unknown query parameter ${unknown.map((n) => JSON.stringify(n.slice(0, 40))).join(', ')}: the report reads ${REPORT_PARAMS.join(', ')}`,
      });
    }
    if (query.platformId !== undefined && query.platformId !== platform.id) notFound('platform');
    // An unknown format is refused, not answered as JSON to a reader expecting something else.
    if (query.format !== undefined && !FORMATS.includes(query.format)) {
      throw new BadRequestException({
        error: 'invalid-format',
        message: `format: json (the default) or csv, not ${JSON.stringify(query.format)}`,
      });
    }
    const from = dayOf(query.from, 'from');
    const to = dayOf(query.to ?? query.from, 'to');
    const days = (to.getTime() - from.getTime()) / DAY_MS + 1;
    if (days < 1 || days > MAX_DAYS) {
      throw new BadRequestException({
        error: 'invalid-date',
        message: `to must be from or later, at most ${MAX_DAYS} days in all`,
      });
    }
    const end = new Date(to.getTime() + DAY_MS);
    // Now before the reads (a day ending while they run is not over for them), and the rounds
    // still open before the figures: a round completing between the two reads counts as open
    // (not final) instead of missing from the figures of a report called final.
    const now = this.clock.now();
    const open = await this.history.platforms.openRounds(platform.id, from, end);
    const lines = await this.history.platforms.settlementReport(platform.id, from, end);
    const completeness = reportCompleteness(end, now, open);
    response.setHeader(FINAL_HEADER, String(completeness.final));
    response.setHeader(OPEN_ROUNDS_HEADER, String(completeness.openRounds));
    if (query.format === 'csv') {
      response.setHeader('content-type', 'text/csv; charset=utf-8');
      return settlementReportCsv(lines, completeness);
    }
    return {
      platformId: platform.id,
      from: query.from,
      to: query.to ?? query.from,
      ...completeness,
      lines,
    };
  }

  @ApiSummary("A round's cards and results, with this platform's own players' bets and outcomes")
  @ApiParam({ name: 'roundId', required: true, schema: { type: 'string', format: 'uuid' } })
  @ApiOk(PLATFORM_ROUND, 'the round as this platform may see it')
  @ApiResponse({
    status: 404,
    description:
      'unknown-round: no such round, or one where this platform had no bet (the same answer)',
    schema: openApiSchema(ERROR_BODY),
  })
  @Get('rounds/:roundId')
  async round(@CurrentPlatform() platform: Platform, @Param('roundId') roundId: string) {
    if (!UUID.test(roundId)) notFound('round');
    const round = await this.history.platforms.round(platform.id, roundId);
    if (!round) notFound('round');
    const [cards, hands] = await Promise.all([
      this.history.cards.inDealingOrder(roundId),
      this.history.cards.handsOfRound(roundId),
    ]);
    // Face-down cards reach no platform until revealed at the table (never, for a void's).
    return { ...round, ...platformRoundCards(platform.id, round.game, cards, hands) };
  }
}
