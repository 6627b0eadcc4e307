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
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiJsonBody, ApiStaff } from '../http/api-docs';
import { LOGIN_BODY } from '../http/http-schemas';
import { UserEntity, USER_ROLES } from '@studio/persistence';
import { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import { SignIn, SignOut } from './auth.use-cases';
import { isTypedText, MAX_PASSWORD_LENGTH, MAX_USERNAME_LENGTH } from './password-policy';
import { SignInThrottlerGuard } from './sign-in-throttler.guard';
import { AuthenticatedRequest, CurrentUser, Roles } from './roles.guard';
import type { AuthenticatedUser } from './auth.use-cases';

@Controller('auth')
@ApiTags('auth')
export class AuthController {
  constructor(
    private readonly signIn: SignIn,
    private readonly signOut: SignOut,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** Throttled per account and per address (429 + Retry-After); locked accounts get 429 too. */
  @Post('login')
  @ApiJsonBody(LOGIN_BODY)
  @HttpCode(200)
  @UseGuards(SignInThrottlerGuard)
  async login(@Body() body: unknown, @Req() request: Request) {
    const { username, password } = signInInput(body);
    const address = request.ip ?? 'unknown';
    const result = await this.signIn.execute(username, password, address);
    if (result.ok) {
      return { token: result.token, expiresAt: result.expiresAt.toISOString(), user: result.user };
    }
    if (result.reason === 'account-locked') {
      const seconds = Math.max(
        1,
        Math.ceil((result.lockedUntil.getTime() - this.clock.now().getTime()) / 1000),
      );
      request.res?.setHeader('Retry-After', String(seconds));
      throw new HttpException(
        {
          error: 'account-locked',
          message: `Too many failed sign-ins: this account is locked; try again in ${seconds} s`,
          retryAfterSeconds: seconds,
        },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    throw new UnauthorizedException({
      error: result.reason,
      message: 'Unknown username or wrong password',
    });
  }

  @Post('logout')
  @ApiStaff('auth', ...USER_ROLES)
  @HttpCode(204)
  @Roles(...USER_ROLES)
  async logout(@Req() request: AuthenticatedRequest): Promise<void> {
    await this.signOut.execute(request.token!);
  }

  /** Who may use the consoles: supervisors only. */
  @Get('users')
  @ApiStaff('auth', 'supervisor')
  @Roles('supervisor')
  async users() {
    const users = await this.dataSource
      .getRepository(UserEntity)
      .find({ order: { username: 'ASC' } });
    return users.map((u) => ({
      id: u.id,
      username: u.username,
      displayName: u.displayName,
      role: u.role,
      disabled: u.disabledAt !== null,
    }));
  }

  @Get('me')
  @ApiStaff('auth', ...USER_ROLES)
  @Roles(...USER_ROLES)
  me(@CurrentUser() user: AuthenticatedUser) {
    return user;
  }
}

/** Two strings a person could type, of sane length; anything else is a 400, never a 500. */
function signInInput(body: unknown): { username: string; password: string } {
  const { username, password } = (body !== null && typeof body === 'object' ? body : {}) as Record<
    string,
    unknown
  >;
  const valid = (value: unknown, max: number): value is string =>
    typeof value === 'string' && value.length > 0 && value.length <= max && isTypedText(value);
  if (!valid(username, MAX_USERNAME_LENGTH) || !valid(password, MAX_PASSWORD_LENGTH)) {
    throw new BadRequestException({
      error: 'invalid-request',
      message: `Send JSON {"username": "...", "password": "..."}: strings without control characters, at most ${MAX_USERNAME_LENGTH} and ${MAX_PASSWORD_LENGTH} characters`,
    });
  }
  return { username, password };
}
