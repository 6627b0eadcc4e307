import { DynamicModule, Module } from '@nestjs/common';
import type { StudioConfig } from '../config/studio-config';
import { STUDIO_CONFIG } from '../tokens';
import { TableActionsController } from './table-actions.controller';
import { TablesController } from './tables.controller';

/** The staff's tables over HTTP: the tables' views (`GET /tables`) and the dealer's and the
 * supervisor's table actions (pause, void, correct ...). */
@Module({})
export class SupervisorModule {
  static forRoot(deps: {
    config: StudioConfig;
    tables: DynamicModule;
    history: DynamicModule;
  }): DynamicModule {
    return {
      module: SupervisorModule,
      imports: [deps.tables, deps.history],
      controllers: [TablesController, TableActionsController],
      providers: [{ provide: STUDIO_CONFIG, useValue: deps.config }],
    };
  }
}
