import { ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { SecurityLog } from './auth.use-cases';

/** The throttled counter's key for the account: the username as sign-in compares it. */
export function accountTracker(request: Record<string, unknown>): string {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const username = typeof body.username === 'string' ? body.username : '';
  return `account:${username.trim().toLowerCase().slice(0, 200)}`;
}

export function addressTracker(request: Record<string, unknown>): string {
  return `address:${(request as unknown as Request).ip ?? 'unknown'}`;
}

/**
 * @nestjs/throttler on POST /auth/login with two throttlers (per account and per address): an
 * exceeded one answers 429 with a plain `Retry-After` (seconds) and a JSON body, and is logged.
 */
@Injectable()
export class SignInThrottlerGuard extends ThrottlerGuard {
  private readonly security = new SecurityLog();

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const retryAfter = Math.max(1, detail.timeToBlockExpire);
    response.setHeader('Retry-After', String(retryAfter));
    const account = accountTracker(request as unknown as Record<string, unknown>).slice(8);
    const by = detail.tracker.startsWith('account:') ? 'account' : 'address';
    this.security.signInRefused(account, request.ip ?? 'unknown', `throttled-per-${by}`);
    throw new HttpException(
      {
        error: 'too-many-attempts',
        message: `Too many sign-in attempts for this ${by}; try again in ${retryAfter} s`,
        retryAfterSeconds: retryAfter,
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}
