import { DynamicModule, Module } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Clock } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { PlatformHttpController } from './platform-http.controller';
import { PlatformKeyGuard } from './platform-key.guard';
import { PlatformReportsController } from './platform-reports.controller';
import {
  PLATFORM_RATE_LIMITER,
  PLATFORM_REPORT_RATE_LIMITER,
  platformRateLimiter,
  PlatformReportThrottlerGuard,
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
    const { platformRateLimit, platformReportRateLimit } = deps.config.orchestrator;
    const limiter = {
      provide: PLATFORM_RATE_LIMITER,
      inject: [Reflector],
      useFactory: (reflector: Reflector) =>
        platformRateLimiter({ ...platformRateLimit, clock: deps.clock }, reflector),
    };
    const reportLimiter = {
      provide: PLATFORM_REPORT_RATE_LIMITER,
      inject: [Reflector],
      useFactory: (reflector: Reflector) =>
        platformRateLimiter(
          { ...platformReportRateLimit, clock: deps.clock, what: 'settlement reports' },
          reflector,
        ),
    };
    return {
      module: PlatformHttpModule,
      imports: [deps.commands, deps.platforms, deps.history],
      controllers: [PlatformHttpController, PlatformReportsController],
      providers: [
        PlatformKeyGuard,
        limiter,
        PlatformThrottlerGuard,
        reportLimiter,
        PlatformReportThrottlerGuard,
        // The reports' "now" (is the day over?), the service's one clock.
        { provide: Clock, useValue: deps.clock },
      ],
    };
  }
}
