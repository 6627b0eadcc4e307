import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AuthenticateToken } from '../auth/authenticate-token/authenticate-token.use-case';
import { bearerToken } from '../auth/roles.guard';
import type { StudioConfig } from '../config/studio-config';
import { STUDIO_CONFIG } from '../tokens';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * GET /metrics shows traffic, lag and table activity: it needs `Authorization: Bearer <token>`
 * with either the static METRICS_TOKEN (Prometheus) or a signed-in supervisor's token.
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  private readonly scrapeToken?: Buffer;

  constructor(
    @Inject(STUDIO_CONFIG) config: StudioConfig,
    private readonly authenticate: AuthenticateToken,
  ) {
    if (config.metricsToken) this.scrapeToken = digest(config.metricsToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const token = bearerToken(context.switchToHttp().getRequest<Request>());
    if (!token) {
      throw new UnauthorizedException({
        error: 'unauthenticated',
        message:
          'Send Authorization: Bearer <METRICS_TOKEN> (Prometheus) or a supervisor token from POST /auth/login',
      });
    }
    if (this.scrapeToken && timingSafeEqual(this.scrapeToken, digest(token))) return true;
    const user = await this.authenticate.execute(token);
    if (!user) {
      throw new UnauthorizedException({
        error: 'unauthenticated',
        message: 'The token is neither METRICS_TOKEN nor a valid sign-in token',
      });
    }
    if (user.role !== 'supervisor') {
      throw new ForbiddenException({
        error: 'forbidden',
        message: `Metrics are for supervisors and Prometheus; you are signed in as ${user.role}`,
      });
    }
    return true;
  }
}
