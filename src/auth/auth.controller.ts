import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  HttpException,
  HttpStatus,
  Post,
  Req,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { USER_ROLES } from '@studio/persistence';
import {
  ApiJsonBody,
  ApiOk,
  ApiPublic,
  ApiStaff,
  ApiSummary,
  ApiThrottled,
} from '../http/api-docs';
import {
  ERROR_BODY,
  LISTED_USER,
  LOGIN_BODY,
  SIGN_IN_BODY,
  STAFF_USER,
} from '../http/http-schemas';
import { openApiSchema } from '../http/openapi-schema';
import { Clock } from '../clock/clock';
import type { AuthenticatedUser } from './authenticated-user';
import { ListUsers } from './list-users/list-users.use-case';
import { AuthenticatedRequest, CurrentUser, Roles } from './roles.guard';
import { SignInCommand } from './sign-in/sign-in.command';
import { SignIn, SignInResult } from './sign-in/sign-in.use-case';
import { SignInThrottlerGuard } from './sign-in-throttler.guard';
import { SignOut } from './sign-out/sign-out.use-case';

@Controller('auth')
export class AuthController {
  constructor(
    private readonly signIn: SignIn,
    private readonly signOut: SignOut,
    private readonly listUsers: ListUsers,
    private readonly clock: Clock,
  ) {}

  /**
   * Throttled per client address, delayed and locked out per (account, address), slowed per
   * account past its ceiling: each a 429 with Retry-After (docs/security.md).
   */
  @ApiPublic('auth', 'Sign in: a bearer token for the staff routes')
  @ApiOk(SIGN_IN_BODY, 'signed in')
  @ApiResponse({
    status: 401,
    description: 'unknown username or wrong password',
    schema: openApiSchema(ERROR_BODY),
  })
  @ApiThrottled()
  @Post('login')
  @ApiJsonBody(LOGIN_BODY)
  @HttpCode(200)
  @UseGuards(SignInThrottlerGuard)
  async login(@Body() body: unknown, @Req() request: Request) {
    const command = SignInCommand.create(body, request.ip);
    if (!(command instanceof SignInCommand)) {
      throw new BadRequestException({ error: command.reason, message: command.message });
    }
    const result = await this.signIn.execute(command);
    if (result.ok) {
      return { token: result.token, expiresAt: result.expiresAt.toISOString(), user: result.user };
    }
    if (result.reason === 'invalid-credentials') {
      throw new UnauthorizedException({
        error: result.reason,
        message: 'Unknown username or wrong password',
      });
    }
    const seconds = Math.max(
      1,
      Math.ceil((result.retryAt.getTime() - this.clock.now().getTime()) / 1000),
    );
    request.res?.setHeader('Retry-After', String(seconds));
    throw new HttpException(
      { error: result.reason, message: refusal(result, seconds), retryAfterSeconds: seconds },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }

  @ApiSummary('Sign out: the token is revoked')
  @ApiResponse({ status: 204, description: 'signed out' })
  @Post('logout')
  @ApiStaff('auth', ...USER_ROLES)
  @HttpCode(204)
  @Roles(...USER_ROLES)
  async logout(@Req() request: AuthenticatedRequest): Promise<void> {
    await this.signOut.execute(request.token!);
  }

  /** Who may use the consoles: supervisors only. */
  @ApiSummary('The staff accounts')
  @ApiOk({ type: 'array', items: LISTED_USER }, 'every account')
  @Get('users')
  @ApiStaff('auth', 'supervisor')
  @Roles('supervisor')
  users() {
    return this.listUsers.execute();
  }

  @ApiSummary('Who is signed in')
  @ApiOk(STAFF_USER, 'the signed-in user')
  @Get('me')
  @ApiStaff('auth', ...USER_ROLES)
  @Roles(...USER_ROLES)
  me(@CurrentUser() user: AuthenticatedUser) {
    return user;
  }
}

function refusal(result: Exclude<SignInResult, { ok: true }>, seconds: number): string {
  if (result.reason === 'account-locked') {
    return `Too many failed sign-ins to this account from your address: it is locked here; try again in ${seconds} s`;
  }
  return result.reason === 'too-many-attempts' && result.scope === 'account'
    ? `This account has had many failed sign-ins; attempts are slowed; try again in ${seconds} s`
    : `Too many failed sign-ins from your address; try again in ${seconds} s`;
}
