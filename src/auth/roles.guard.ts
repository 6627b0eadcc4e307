import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { UserRole } from '@studio/persistence';
import type { Request } from 'express';
import type { AuthenticatedUser } from './authenticated-user';
import { AuthenticateToken } from './authenticate-token/authenticate-token.use-case';

const ROLES_KEY = 'studio:roles';

/** Marks a route as needing a signed-in user with one of these roles. */
export const Roles = (...roles: UserRole[]) => SetMetadata(ROLES_KEY, roles);

/**
 * The signed-in session behind a request, for answers that outlive the request's check (console
 * streams): whose it is, and whether its token is still good (not logged out, expired or disabled)
 * for the role it was opened with.
 */
export interface RequestSession {
  userId: string;
  isActive(): Promise<boolean>;
}

export type AuthenticatedRequest = Request & {
  user?: AuthenticatedUser;
  token?: string;
  studioSession?: RequestSession;
};

export const CurrentUser = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<AuthenticatedRequest>().user,
);

export function bearerToken(request: Request): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(header) : null;
  return match?.[1];
}

/**
 * Every route with @Roles needs `Authorization: Bearer <token>`: 401 when the token is missing or
 * invalid, 403 with the roles required when the user's role is not among them.
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticate: AuthenticateToken,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const roles = this.reflector.getAllAndOverride<UserRole[] | undefined>(ROLES_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!roles) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request);
    if (!token) {
      throw new UnauthorizedException({
        error: 'unauthenticated',
        message: 'Sign in first: send Authorization: Bearer <token> from POST /auth/login',
      });
    }
    const user = await this.authenticate.execute(token);
    if (!user) {
      throw new UnauthorizedException({
        error: 'unauthenticated',
        message: 'The token is unknown, expired or revoked; sign in again',
      });
    }
    request.user = user;
    request.token = token;
    // A stream opened by this request shows what its role may see (a supervisor's, the face-down
    // cards): it ends with the token, and also once the user's role is another.
    request.studioSession = {
      userId: user.id,
      isActive: async () => (await this.authenticate.execute(token))?.role === user.role,
    };
    if (!roles.includes(user.role)) {
      throw new ForbiddenException({
        error: 'forbidden',
        message: `This action needs the role ${roles.join(' or ')}; you are signed in as ${user.role}`,
      });
    }
    return true;
  }
}
