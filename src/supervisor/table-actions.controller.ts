import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser, Roles } from '../auth/roles.guard';
import { ApproveVoidCommand } from '../use-cases/approve-void/approve-void.command';
import { ApproveVoid } from '../use-cases/approve-void/approve-void.use-case';
import { CloseBettingCommand } from '../use-cases/close-betting/close-betting.command';
import { CloseBetting } from '../use-cases/close-betting/close-betting.use-case';
import { CorrectCardCommand } from '../use-cases/correct-card/correct-card.command';
import { CorrectCard } from '../use-cases/correct-card/correct-card.use-case';
import { DrawCutCardCommand } from '../use-cases/draw-cut-card/draw-cut-card.command';
import { DrawCutCard } from '../use-cases/draw-cut-card/draw-cut-card.use-case';
import { EndShoeCommand } from '../use-cases/end-shoe/end-shoe.command';
import { EndShoe } from '../use-cases/end-shoe/end-shoe.use-case';
import { PauseRoundCommand } from '../use-cases/pause-round/pause-round.command';
import { PauseRound } from '../use-cases/pause-round/pause-round.use-case';
import { ResumeRoundCommand } from '../use-cases/resume-round/resume-round.command';
import { ResumeRound } from '../use-cases/resume-round/resume-round.use-case';
import { isRejection } from '../use-cases/common/table-command';
import type { CommandRejection, CommandResult } from '../use-cases/common/tables.port';
import { VoidRoundCommand } from '../use-cases/void-round/void-round.command';
import { VoidRound } from '../use-cases/void-round/void-round.use-case';
import {
  ApiIdParams,
  ApiJsonBody,
  ApiOk,
  ApiStaff,
  ApiSummary,
  ApiTableCommandErrors,
} from '../http/api-docs';
import {
  ACCEPTED_BODY,
  CORRECT_CARD_BODY,
  ID_PARAM,
  REASON_BODY,
  VOID_BODY,
} from '../http/http-schemas';
import { SchemaPipe } from '../http/schema-pipe';
import { toHttp } from './http-result';

interface ReasonBody {
  reason?: string;
}
interface VoidBody extends ReasonBody {
  roundId?: string;
}
interface CorrectCardBody extends ReasonBody {
  slot: string;
  card: string;
  roundId?: string;
}

const idPipe = new SchemaPipe(ID_PARAM);
const reasonPipe = new SchemaPipe(REASON_BODY);
const voidPipe = new SchemaPipe(VOID_BODY);
/** A card that is not a card code keeps the code the table answers to one. */
const correctionPipe = new SchemaPipe(CORRECT_CARD_BODY, { codes: { '/card': 'invalid-card' } });

/** A command that refused itself is answered at once; a valid one goes to its use case. */
async function run<C>(
  command: C | CommandRejection,
  execute: (command: C) => Promise<CommandResult>,
): Promise<Record<string, unknown>> {
  return toHttp(isRejection(command) ? command : await execute(command));
}

/** The dealer's controls and the supervisor's interventions on one table. */
@Controller('tables/:tableId')
@ApiIdParams('tableId')
@ApiOk(ACCEPTED_BODY, 'the table took the action')
@ApiTableCommandErrors()
export class TableActionsController {
  constructor(
    private readonly closeBetting: CloseBetting,
    private readonly cutCard: DrawCutCard,
    private readonly pauseRound: PauseRound,
    private readonly resumeRound: ResumeRound,
    private readonly voidRound: VoidRound,
    private readonly correctCard: CorrectCard,
    private readonly endShoe: EndShoe,
    private readonly approveVoid: ApproveVoid,
  ) {}

  @ApiSummary('Close betting for the round')
  @Post('close-betting')
  @HttpCode(200)
  @ApiStaff('table actions', 'dealer', 'supervisor')
  @Roles('dealer', 'supervisor')
  close(@Param('tableId', idPipe) tableId: string, @CurrentUser() user: AuthenticatedUser) {
    const command = CloseBettingCommand.create({ tableId, by: user.username });
    return run(command, (c) => this.closeBetting.execute(c));
  }

  @ApiSummary('Draw the cut card: the shoe ends after this round')
  @Post('cut-card')
  @HttpCode(200)
  @ApiStaff('table actions', 'dealer', 'supervisor')
  @Roles('dealer', 'supervisor')
  cut(@Param('tableId', idPipe) tableId: string, @CurrentUser() user: AuthenticatedUser) {
    const command = DrawCutCardCommand.create({ tableId, by: user.username });
    return run(command, (c) => this.cutCard.execute(c));
  }

  @ApiSummary('Pause the round, with a reason')
  @Post('pause')
  @HttpCode(200)
  @ApiStaff('table actions', 'supervisor')
  @ApiJsonBody(REASON_BODY)
  @Roles('supervisor')
  pause(
    @Param('tableId', idPipe) tableId: string,
    @Body(reasonPipe) body: ReasonBody,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    const command = PauseRoundCommand.create({
      tableId,
      by: user.username,
      reason: body.reason ?? '',
    });
    return run(command, (c) => this.pauseRound.execute(c));
  }

  @ApiSummary('Resume a paused round')
  @Post('resume')
  @HttpCode(200)
  @ApiStaff('table actions', 'supervisor')
  @Roles('supervisor')
  resume(@Param('tableId', idPipe) tableId: string, @CurrentUser() user: AuthenticatedUser) {
    const command = ResumeRoundCommand.create({ tableId, by: user.username });
    return run(command, (c) => this.resumeRound.execute(c));
  }

  @ApiSummary('Void the round (or request a void), with a reason')
  @Post('void')
  @HttpCode(200)
  @ApiStaff('table actions', 'supervisor')
  @ApiJsonBody(VOID_BODY)
  @Roles('supervisor')
  void(
    @Param('tableId', idPipe) tableId: string,
    @Body(voidPipe) body: VoidBody,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    const command = VoidRoundCommand.create({
      tableId,
      by: user.username,
      reason: body.reason ?? '',
      roundId: body.roundId,
    });
    return run(command, (c) => this.voidRound.execute(c));
  }

  @ApiSummary("Approve another supervisor's void request")
  @Post('void-requests/:requestId/approve')
  @ApiIdParams('requestId')
  @HttpCode(200)
  @ApiStaff('table actions', 'supervisor')
  @Roles('supervisor')
  approve(
    @Param('tableId', idPipe) tableId: string,
    @Param('requestId', idPipe) requestId: string,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    const command = ApproveVoidCommand.create({ tableId, by: user.username, requestId });
    return run(command, (c) => this.approveVoid.execute(c));
  }

  @ApiSummary('Replace a mis-scanned card before the round settles')
  @Post('correct-card')
  @HttpCode(200)
  @ApiStaff('table actions', 'supervisor')
  @ApiJsonBody(CORRECT_CARD_BODY)
  @Roles('supervisor')
  correct(
    @Param('tableId', idPipe) tableId: string,
    @Body(correctionPipe) body: CorrectCardBody,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    const command = CorrectCardCommand.create({
      tableId,
      by: user.username,
      slot: body.slot,
      card: body.card,
      reason: body.reason ?? '',
      roundId: body.roundId,
    });
    return run(command, (c) => this.correctCard.execute(c));
  }

  @ApiSummary('End the shoe now, with a reason')
  @Post('end-shoe')
  @HttpCode(200)
  @ApiStaff('table actions', 'supervisor')
  @ApiJsonBody(REASON_BODY)
  @Roles('supervisor')
  end(
    @Param('tableId', idPipe) tableId: string,
    @Body(reasonPipe) body: ReasonBody,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    const command = EndShoeCommand.create({
      tableId,
      by: user.username,
      reason: body.reason ?? '',
    });
    return run(command, (c) => this.endShoe.execute(c));
  }
}
