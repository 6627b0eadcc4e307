import { ExecutionContext, HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { SecurityLog } from './security-log';

export function addressTracker(request: Record<string, unknown>): string {
  return `address:${(request as unknown as Request).ip ?? 'unknown'}`;
}

/**
 * @nestjs/throttler on POST /auth/login per client address (`request.ip`: the client's own behind
 * a trusted proxy), whatever the account: past the limit in a window the address answers 429 with
 * a plain `Retry-After` (seconds) and a JSON body, and is logged. There is no throttler per account
 * here: one would keep the owner out with the attacker (see sign-in-policy.ts).
 */
@Injectable()
export class SignInThrottlerGuard extends ThrottlerGuard {
  @Inject(SecurityLog) private readonly security!: SecurityLog;

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const retryAfter = Math.max(1, detail.timeToBlockExpire);
    response.setHeader('Retry-After', String(retryAfter));
    const body = (request.body ?? {}) as Record<string, unknown>;
    const username = typeof body.username === 'string' ? body.username : '';
    this.security.signInRefused(
      username.trim().toLowerCase().slice(0, 200),
      request.ip ?? 'unknown',
      'throttled-per-address',
    );
    throw new HttpException(
      {
        error: 'too-many-attempts',
        message: `Too many sign-in attempts from this address; try again in ${retryAfter} s`,
        retryAfterSeconds: retryAfter,
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}
