import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/auth.use-cases';
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
import { CommandRejection, CommandResult, isRejection } from '../use-cases/table-command';
import { VoidRoundCommand } from '../use-cases/void-round/void-round.command';
import { VoidRound } from '../use-cases/void-round/void-round.use-case';
import { toHttp } from './http-result';

type Body = Record<string, unknown> | undefined;
const text = (body: Body, key: string): string =>
  typeof body?.[key] === 'string' ? (body[key] as string) : '';

/** A command that refused itself is answered at once; a valid one goes to its use case. */
async function run<C>(
  command: C | CommandRejection,
  execute: (command: C) => Promise<CommandResult>,
): Promise<Record<string, unknown>> {
  return toHttp(isRejection(command) ? command : await execute(command));
}

/** The dealer's controls and the supervisor's interventions on one table. */
@Controller('tables/:tableId')
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

  @Post('close-betting')
  @HttpCode(200)
  @Roles('dealer', 'supervisor')
  close(@Param('tableId') tableId: string, @CurrentUser() user: AuthenticatedUser) {
    const command = CloseBettingCommand.create({ tableId, by: user.username });
    return run(command, (c) => this.closeBetting.execute(c));
  }

  @Post('cut-card')
  @HttpCode(200)
  @Roles('dealer', 'supervisor')
  cut(@Param('tableId') tableId: string, @CurrentUser() user: AuthenticatedUser) {
    const command = DrawCutCardCommand.create({ tableId, by: user.username });
    return run(command, (c) => this.cutCard.execute(c));
  }

  @Post('pause')
  @HttpCode(200)
  @Roles('supervisor')
  pause(
    @Param('tableId') tableId: string,
    @Body() body: Body,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    const command = PauseRoundCommand.create({
      tableId,
      by: user.username,
      reason: text(body, 'reason'),
    });
    return run(command, (c) => this.pauseRound.execute(c));
  }

  @Post('resume')
  @HttpCode(200)
  @Roles('supervisor')
  resume(@Param('tableId') tableId: string, @CurrentUser() user: AuthenticatedUser) {
    const command = ResumeRoundCommand.create({ tableId, by: user.username });
    return run(command, (c) => this.resumeRound.execute(c));
  }

  @Post('void')
  @HttpCode(200)
  @Roles('supervisor')
  void(
    @Param('tableId') tableId: string,
    @Body() body: Body,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    const command = VoidRoundCommand.create({
      tableId,
      by: user.username,
      reason: text(body, 'reason'),
    });
    return run(command, (c) => this.voidRound.execute(c));
  }

  @Post('void-requests/:requestId/approve')
  @HttpCode(200)
  @Roles('supervisor')
  approve(
    @Param('tableId') tableId: string,
    @Param('requestId') requestId: string,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    const command = ApproveVoidCommand.create({ tableId, by: user.username, requestId });
    return run(command, (c) => this.approveVoid.execute(c));
  }

  @Post('correct-card')
  @HttpCode(200)
  @Roles('supervisor')
  correct(
    @Param('tableId') tableId: string,
    @Body() body: Body,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    const command = CorrectCardCommand.create({
      tableId,
      by: user.username,
      slot: text(body, 'slot'),
      card: text(body, 'card'),
      reason: text(body, 'reason'),
    });
    return run(command, (c) => this.correctCard.execute(c));
  }

  @Post('end-shoe')
  @HttpCode(200)
  @Roles('supervisor')
  end(
    @Param('tableId') tableId: string,
    @Body() body: Body,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    const command = EndShoeCommand.create({
      tableId,
      by: user.username,
      reason: text(body, 'reason'),
    });
    return run(command, (c) => this.endShoe.execute(c));
  }
}
