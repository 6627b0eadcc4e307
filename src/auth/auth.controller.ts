import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  Post,
  Req,
  UnauthorizedException,
} from '@nestjs/common';
import { UserEntity, USER_ROLES } from '@studio/persistence';
import { DataSource } from 'typeorm';
import { SignIn, SignOut } from './auth.use-cases';
import { AuthenticatedRequest, CurrentUser, Roles } from './roles.guard';
import type { AuthenticatedUser } from './auth.use-cases';

@Controller('auth')
export class AuthController {
  constructor(
    private readonly signIn: SignIn,
    private readonly signOut: SignOut,
    private readonly dataSource: DataSource,
  ) {}

  @Post('login')
  @HttpCode(200)
  async login(@Body() body: unknown) {
    const { username, password } = (body ?? {}) as Record<string, unknown>;
    if (typeof username !== 'string' || typeof password !== 'string') {
      throw new BadRequestException({
        error: 'invalid-request',
        message: 'Send JSON {"username": "...", "password": "..."}',
      });
    }
    const result = await this.signIn.execute(username, password);
    if (!result.ok) {
      throw new UnauthorizedException({
        error: result.reason,
        message: 'Unknown username or wrong password',
      });
    }
    return { token: result.token, expiresAt: result.expiresAt.toISOString(), user: result.user };
  }

  @Post('logout')
  @HttpCode(204)
  @Roles(...USER_ROLES)
  async logout(@Req() request: AuthenticatedRequest): Promise<void> {
    await this.signOut.execute(request.token!);
  }

  /** Who may use the consoles: supervisors only. */
  @Get('users')
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
  @Roles(...USER_ROLES)
  me(@CurrentUser() user: AuthenticatedUser) {
    return user;
  }
}
