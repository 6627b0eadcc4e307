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
import type { Response } from 'express';
import { platformOfKey, playerOfKey } from '../common/player-key';
import { ApiPlatform, ApiSummary } from '../http/api-docs';
import { HistoryReader } from '../history/reader/history-reader';
import type { Platform } from '../platforms/platform-directory';
import { CurrentPlatform, PlatformKeyGuard } from './platform-key.guard';
import { PlatformThrottlerGuard } from './platform-throttler.guard';
import { settlementReportCsv } from './settlement-report-csv';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
/** At most a quarter per report: a bounded query however far back a platform asks. */
const MAX_DAYS = 92;
const FORMATS: readonly unknown[] = ['json', 'csv'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function dayOf(text: string | undefined, name: string): Date {
  const at = DAY.test(text ?? '') ? new Date(`${text}T00:00:00Z`) : new Date(NaN);
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text) {
    throw new BadRequestException({ error: 'invalid-date', message: `${name}: a day, YYYY-MM-DD` });
  }
  return at;
}

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
  constructor(private readonly history: HistoryReader) {}

  @ApiSummary("The platform's settlement report per day, table and currency (JSON or CSV)")
  @Get('reports/settlements')
  async report(
    @CurrentPlatform() platform: Platform,
    @Query() query: Record<string, string | undefined>,
    @Res({ passthrough: true }) response: Response,
  ) {
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
    const lines = await this.history.platforms.settlementReport(
      platform.id,
      from,
      new Date(to.getTime() + DAY_MS),
    );
    if (query.format === 'csv') {
      response.setHeader('content-type', 'text/csv; charset=utf-8');
      return settlementReportCsv(lines);
    }
    return { platformId: platform.id, from: query.from, to: query.to ?? query.from, lines };
  }

  @ApiSummary("A round's cards and results, with this platform's own players' bets and outcomes")
  @Get('rounds/:roundId')
  async round(@CurrentPlatform() platform: Platform, @Param('roundId') roundId: string) {
    if (!UUID.test(roundId)) notFound('round');
    const round = await this.history.platforms.round(platform.id, roundId);
    if (!round) notFound('round');
    const [cards, hands] = await Promise.all([
      this.history.cards.inDealingOrder(roundId),
      this.history.cards.handsOfRound(roundId),
    ]);
    return {
      ...round,
      // A card still face down is named by its slot only (face-down cards reach no platform).
      cards: cards.map((c) =>
        c.faceDown && !c.revealedAt
          ? { slot: c.slot, faceDown: true }
          : { slot: c.slot, card: c.card },
      ),
      // The dealer's and shared hands, and this platform's players' own.
      hands: hands
        .filter((h) => h.owner === null || platformOfKey(h.owner) === platform.id)
        .map((h) => ({ ...h, owner: h.owner === null ? null : playerOfKey(h.owner).playerId })),
    };
  }
}
