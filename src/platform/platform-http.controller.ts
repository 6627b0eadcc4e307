import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  ApiBetIdParam,
  ApiIdParams,
  ApiJsonBody,
  ApiOk,
  ApiPlatform,
  ApiSummary,
  ApiTableCommandErrors,
} from '../http/api-docs';
import {
  ACCEPTED_BODY,
  BET_ACCEPTED_BODY,
  BET_ID_PARAM,
  CANCEL_BET_BODY,
  DECIDE_BODY,
  ID_PARAM,
  PLACE_BET_BODY,
} from '../http/http-schemas';
import { SchemaPipe } from '../http/schema-pipe';
import { toHttp } from '../supervisor/http-result';
import { isRejection } from '../use-cases/common/table-command';
import { CancelBetCommand } from '../use-cases/cancel-bet/cancel-bet.command';
import { CancelBet } from '../use-cases/cancel-bet/cancel-bet.use-case';
import { DecideCommand } from '../use-cases/decide/decide.command';
import { Decide } from '../use-cases/decide/decide.use-case';
import { PlaceBetCommand } from '../use-cases/place-bet/place-bet.command';
import { PlaceBet } from '../use-cases/place-bet/place-bet.use-case';
import type { Platform } from '../platforms/platform-directory';
import { CurrentPlatform, PlatformKeyGuard } from './platform-key.guard';
import { PlatformThrottlerGuard } from './platform-throttler.guard';

interface BetBody {
  commandId?: string;
  roundId?: string;
  playerId: string;
  betType: string;
  spot?: string;
  amount: number;
  sideBets?: Record<string, number>;
  currency?: string;
}

interface CancelBody {
  commandId?: string;
  roundId?: string;
  playerId: string;
}

interface DecisionBody {
  commandId?: string;
  roundId?: string;
  playerId: string;
  action: string;
  seat?: string;
}

const tableIdPipe = new SchemaPipe(ID_PARAM);
const betIdPipe = new SchemaPipe(BET_ID_PARAM);
/** A bad amount keeps the code the table answers to one (`invalid-amount`). */
const AMOUNT_CODES = { '/amount': 'invalid-amount', '/sideBets': 'invalid-amount' };

/**
 * The platform command API over HTTP, with the same field schemas and command objects as the Kafka
 * commands, and the same intake per table: requests that arrive while the table's transaction is
 * in flight are applied together in the next. A repeated commandId gets the first answer, with
 * `duplicate: true`. Any instance serves any table: the owner applies the command.
 */
@Controller('platform/tables/:tableId')
@UseGuards(PlatformKeyGuard, PlatformThrottlerGuard)
@ApiPlatform()
@ApiIdParams('tableId')
@ApiTableCommandErrors()
export class PlatformHttpController {
  constructor(
    private readonly placeBet: PlaceBet,
    private readonly decide: Decide,
    private readonly cancelBet: CancelBet,
  ) {}

  @ApiSummary("Place a player's bet (the PlaceBet command)")
  @Post('bets')
  @HttpCode(200)
  @ApiJsonBody(PLACE_BET_BODY)
  @ApiOk(BET_ACCEPTED_BODY, 'the bet is placed')
  async bet(
    @Param('tableId', tableIdPipe) tableId: string,
    @Body(new SchemaPipe(PLACE_BET_BODY, { codes: AMOUNT_CODES })) body: BetBody,
    @CurrentPlatform() platform: Platform,
  ) {
    const command = PlaceBetCommand.create({
      tableId,
      ...body,
      platformId: platform.id,
      platformCurrencies: platform.currencies,
    });
    return toHttp(isRejection(command) ? command : await this.placeBet.execute(command));
  }

  @ApiSummary("Cancel a player's bet while betting is open, by the betId of its answer (CancelBet)")
  @Post('bets/:betId/cancel')
  @HttpCode(200)
  @ApiBetIdParam()
  @ApiJsonBody(CANCEL_BET_BODY)
  @ApiOk(ACCEPTED_BODY, 'the bet is cancelled: credit its stake back')
  async cancel(
    @Param('tableId', tableIdPipe) tableId: string,
    @Param('betId', betIdPipe) betId: string,
    @Body(new SchemaPipe(CANCEL_BET_BODY)) body: CancelBody,
    @CurrentPlatform() platform: Platform,
  ) {
    return this.cancelled({ tableId, ...body, betId, platformId: platform.id });
  }

  @ApiSummary(
    "Cancel a player's bet while betting is open, by its PlaceBet's commandId (its answer never came)",
  )
  @Post('bet-commands/:betCommandId/cancel')
  @HttpCode(200)
  @ApiIdParams('betCommandId')
  @ApiJsonBody(CANCEL_BET_BODY)
  @ApiOk(ACCEPTED_BODY, 'the bet is cancelled: credit its stake back')
  async cancelByCommand(
    @Param('tableId', tableIdPipe) tableId: string,
    @Param('betCommandId', tableIdPipe) betCommandId: string,
    @Body(new SchemaPipe(CANCEL_BET_BODY)) body: CancelBody,
    @CurrentPlatform() platform: Platform,
  ) {
    return this.cancelled({ tableId, ...body, betCommandId, platformId: platform.id });
  }

  @ApiSummary("Take a player's decision (the Decide command)")
  @Post('decisions')
  @HttpCode(200)
  @ApiJsonBody(DECIDE_BODY)
  @ApiOk(ACCEPTED_BODY, 'the decision is taken')
  async decision(
    @Param('tableId', tableIdPipe) tableId: string,
    @Body(new SchemaPipe(DECIDE_BODY)) body: DecisionBody,
    @CurrentPlatform() platform: Platform,
  ) {
    const command = DecideCommand.create({ tableId, ...body, platformId: platform.id });
    return toHttp(isRejection(command) ? command : await this.decide.execute(command));
  }

  private async cancelled(fields: Parameters<typeof CancelBetCommand.create>[0]) {
    const command = CancelBetCommand.create(fields);
    return toHttp(isRejection(command) ? command : await this.cancelBet.execute(command));
  }
}
