import { DynamicModule, Module } from '@nestjs/common';
import { PlatformHttpController } from './platform-http.controller';
import { PlatformKeyGuard } from './platform-key.guard';

/** The casino platforms' HTTP API (bets and decisions with a platform's key). */
@Module({})
export class PlatformHttpModule {
  static forRoot(deps: { commands: DynamicModule; platforms: DynamicModule }): DynamicModule {
    return {
      module: PlatformHttpModule,
      imports: [deps.commands, deps.platforms],
      controllers: [PlatformHttpController],
      providers: [PlatformKeyGuard],
    };
  }
}
