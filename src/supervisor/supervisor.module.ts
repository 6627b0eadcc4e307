import { DynamicModule, Module } from '@nestjs/common';
import { TableActionsController } from './table-actions.controller';

/** The dealer's and the supervisor's table actions over HTTP (pause, void, correct ...). */
@Module({})
export class SupervisorModule {
  static forRoot(deps: { tables: DynamicModule }): DynamicModule {
    return {
      module: SupervisorModule,
      imports: [deps.tables],
      controllers: [TableActionsController],
    };
  }
}
