import { DynamicModule, Module } from '@nestjs/common';
import type { StudioConfig } from '../config/studio-config';
import {
  PLATFORM_KEYS,
  PlatformHttpController,
  PlatformKeyGuard,
} from './platform-http.controller';

/** The casino platforms' HTTP API (bets and decisions with a platform key). */
@Module({})
export class PlatformHttpModule {
  static forRoot(deps: { config: StudioConfig; commands: DynamicModule }): DynamicModule {
    return {
      module: PlatformHttpModule,
      imports: [deps.commands],
      controllers: [PlatformHttpController],
      providers: [
        { provide: PLATFORM_KEYS, useValue: deps.config.orchestrator.platformKeys },
        PlatformKeyGuard,
      ],
    };
  }
}
