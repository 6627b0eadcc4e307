import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/auth.use-cases';
import { CurrentUser, Roles } from '../auth/roles.guard';
import {
  ApproveVoid,
  CloseBetting,
  CorrectCard,
  DrawCutCard,
  EndShoe,
  PauseRound,
  ResumeRound,
  VoidRound,
} from '../use-cases/table-actions.use-cases';
import { toHttp } from './http-result';

type Body = Record<string, unknown> | undefined;
const text = (body: Body, key: string): string =>
  typeof body?.[key] === 'string' ? (body[key] as string) : '';

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
  async close(@Param('tableId') tableId: string, @CurrentUser() user: AuthenticatedUser) {
    return toHttp(await this.closeBetting.execute(tableId, user.username));
  }

  @Post('cut-card')
  @HttpCode(200)
  @Roles('dealer', 'supervisor')
  async cut(@Param('tableId') tableId: string, @CurrentUser() user: AuthenticatedUser) {
    return toHttp(await this.cutCard.execute(tableId, user.username));
  }

  @Post('pause')
  @HttpCode(200)
  @Roles('supervisor')
  async pause(
    @Param('tableId') tableId: string,
    @Body() body: Body,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    return toHttp(await this.pauseRound.execute(tableId, user.username, text(body, 'reason')));
  }

  @Post('resume')
  @HttpCode(200)
  @Roles('supervisor')
  async resume(@Param('tableId') tableId: string, @CurrentUser() user: AuthenticatedUser) {
    return toHttp(await this.resumeRound.execute(tableId, user.username));
  }

  @Post('void')
  @HttpCode(200)
  @Roles('supervisor')
  async void(
    @Param('tableId') tableId: string,
    @Body() body: Body,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    return toHttp(await this.voidRound.execute(tableId, user.username, text(body, 'reason')));
  }

  @Post('void-requests/:requestId/approve')
  @HttpCode(200)
  @Roles('supervisor')
  async approve(
    @Param('tableId') tableId: string,
    @Param('requestId') requestId: string,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    return toHttp(await this.approveVoid.execute(tableId, requestId, user.username));
  }

  @Post('correct-card')
  @HttpCode(200)
  @Roles('supervisor')
  async correct(
    @Param('tableId') tableId: string,
    @Body() body: Body,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    return toHttp(
      await this.correctCard.execute(tableId, user.username, {
        slot: text(body, 'slot'),
        card: text(body, 'card'),
        reason: text(body, 'reason'),
      }),
    );
  }

  @Post('end-shoe')
  @HttpCode(200)
  @Roles('supervisor')
  async end(
    @Param('tableId') tableId: string,
    @Body() body: Body,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    return toHttp(await this.endShoe.execute(tableId, user.username, text(body, 'reason')));
  }
}
