import { DynamicModule, Module } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Clock } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { PlatformHttpController } from './platform-http.controller';
import { PlatformKeyGuard } from './platform-key.guard';
import { PlatformReportsController } from './platform-reports.controller';
import {
  PLATFORM_RATE_LIMITER,
  platformRateLimiter,
  PlatformThrottlerGuard,
} from './platform-throttler.guard';

/** The casino platforms' HTTP API (bets, decisions, reports and round lookups with a platform's key). */
@Module({})
export class PlatformHttpModule {
  static forRoot(deps: {
    commands: DynamicModule;
    platforms: DynamicModule;
    history: DynamicModule;
    config: StudioConfig;
    clock: Clock;
  }): DynamicModule {
    const { limit, windowMs } = deps.config.orchestrator.platformRateLimit;
    const limiter = {
      provide: PLATFORM_RATE_LIMITER,
      inject: [Reflector],
      useFactory: (reflector: Reflector) =>
        platformRateLimiter({ limit, windowMs, clock: deps.clock }, reflector),
    };
    return {
      module: PlatformHttpModule,
      imports: [deps.commands, deps.platforms, deps.history],
      controllers: [PlatformHttpController, PlatformReportsController],
      providers: [
        PlatformKeyGuard,
        limiter,
        PlatformThrottlerGuard,
        // The reports' "now" (is the day over?), the service's one clock.
        { provide: Clock, useValue: deps.clock },
      ],
    };
  }
}
