import {
  CanActivate,
  ExecutionContext,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
} from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import type { Clock } from '../clock/clock';
import type { Platform } from '../platforms/platform-directory';
import { PlatformRateStorage } from './platform-rate-storage';

/** Throttled per platform (the key's), after PlatformKeyGuard named it. */
export function platformTracker(request: Record<string, unknown>): string {
  const platform = (request as unknown as Request & { platform?: Platform }).platform;
  return `platform:${platform?.id ?? 'unauthenticated'}`;
}

/**
 * @nestjs/throttler per platform: each platform has its own budget of requests per window, so one
 * platform's burst cannot starve the others (each is refused alone with 429 and `Retry-After`).
 * Counted in memory per instance (a database count would add a round trip to every bet): with N
 * instances behind a balancer a platform gets at most N times the limit.
 */
class PlatformRateLimiter extends ThrottlerGuard {
  constructor(
    options: ConstructorParameters<typeof ThrottlerGuard>[0],
    storage: ConstructorParameters<typeof ThrottlerGuard>[1],
    reflector: Reflector,
    /** What the budget counts, as the refusal names it ("requests", "settlement reports"). */
    private readonly what: string,
  ) {
    super(options, storage, reflector);
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const response = context.switchToHttp().getResponse<Response>();
    const retryAfter = Math.max(1, detail.timeToBlockExpire);
    response.setHeader('Retry-After', String(retryAfter));
    throw new HttpException(
      {
        error: 'rate-limited',
        message: `Too many ${this.what} from this platform; try again in ${retryAfter} s`,
        retryAfterSeconds: retryAfter,
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}

export const PLATFORM_RATE_LIMITER = Symbol('PLATFORM_RATE_LIMITER');
export const PLATFORM_REPORT_RATE_LIMITER = Symbol('PLATFORM_REPORT_RATE_LIMITER');

/** A platform's budget: `limit` per `windowMs`, counting `what` (named by its refusals). */
export interface PlatformBudget {
  limit: number;
  windowMs: number;
  clock: Clock;
  what?: string;
}

/** The limiter with its own options and storage (ThrottlerModule's are global: sign-in's). */
export async function platformRateLimiter(
  budget: PlatformBudget,
  reflector: Reflector,
): Promise<CanActivate> {
  const { limit, windowMs, clock } = budget;
  const limiter = new PlatformRateLimiter(
    {
      throttlers: [{ name: 'platform', limit, ttl: windowMs, getTracker: platformTracker }],
      // One budget per platform across its routes (the default key is per route).
      generateKey: (_context, tracker) => tracker,
    },
    new PlatformRateStorage(clock),
    reflector,
    budget.what ?? 'requests',
  );
  await limiter.onModuleInit();
  return limiter;
}

/**
 * The platform routes' guard (after PlatformKeyGuard). A guard class extending ThrottlerGuard
 * would be built by Nest with the global throttler options, so this one delegates to the limiter.
 */
@Injectable()
export class PlatformThrottlerGuard implements CanActivate {
  constructor(@Inject(PLATFORM_RATE_LIMITER) private readonly limiter: CanActivate) {}

  canActivate(context: ExecutionContext) {
    return this.limiter.canActivate(context);
  }
}

/**
 * The settlement report's own budget per platform (after PlatformThrottlerGuard): a report of up
 * to 92 days aggregates every settlement of the platform in them, so a platform calling it at its
 * whole request budget would load the database the other platforms' bets commit to.
 */
@Injectable()
export class PlatformReportThrottlerGuard implements CanActivate {
  constructor(@Inject(PLATFORM_REPORT_RATE_LIMITER) private readonly limiter: CanActivate) {}

  canActivate(context: ExecutionContext) {
    return this.limiter.canActivate(context);
  }
}
