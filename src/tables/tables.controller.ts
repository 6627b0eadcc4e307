import { Controller, Get, Inject, NotFoundException, Param } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/auth.use-cases';
import { CurrentUser, Roles } from '../auth/roles.guard';
import type { StudioConfig } from '../config/studio-config';
import { STUDIO_CONFIG } from '../tokens';
import { TableRuntimeRegistry } from './table-runtime.registry';
import { tableView } from './table-view';

@Controller('tables')
export class TablesController {
  constructor(
    @Inject(STUDIO_CONFIG) private readonly config: StudioConfig,
    private readonly tables: TableRuntimeRegistry,
  ) {}

  @Get()
  @Roles('dealer', 'supervisor', 'auditor')
  list(@CurrentUser() user: AuthenticatedUser) {
    return this.config.tables.map((t) => this.view(t.id, user));
  }

  @Get(':tableId')
  @Roles('dealer', 'supervisor', 'auditor')
  one(@Param('tableId') tableId: string, @CurrentUser() user: AuthenticatedUser) {
    return this.view(tableId, user);
  }

  private view(tableId: string, user: AuthenticatedUser) {
    const table = this.config.tables.find((t) => t.id === tableId);
    if (!table) {
      throw new NotFoundException({
        error: 'unknown-table',
        message: `No table "${tableId}" is configured`,
      });
    }
    const lookup = this.tables.get(tableId);
    return tableView(table, lookup.ok ? lookup.runtime : undefined, user.role === 'supervisor');
  }
}
