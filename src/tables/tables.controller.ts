import { Controller, Get, Inject, NotFoundException, Param } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/auth.use-cases';
import { CurrentUser, Roles } from '../auth/roles.guard';
import type { StudioConfig } from '../config/studio-config';
import { STUDIO_CONFIG } from '../tokens';
import { TableStateReader } from '../history/table-state.reader';
import { DRIVEN_ELSEWHERE, storedTableRuntime } from './stored-table';
import { TableRuntimeRegistry } from './table-runtime.registry';
import type { TableRuntime } from './table-runtime';
import { tableView } from './table-view';

@Controller('tables')
export class TablesController {
  constructor(
    @Inject(STUDIO_CONFIG) private readonly config: StudioConfig,
    private readonly tables: TableRuntimeRegistry,
    private readonly stored: TableStateReader,
  ) {}

  @Get()
  @Roles('dealer', 'supervisor', 'auditor')
  list(@CurrentUser() user: AuthenticatedUser) {
    return Promise.all(this.config.tables.map((t) => this.view(t.id, user)));
  }

  @Get(':tableId')
  @Roles('dealer', 'supervisor', 'auditor')
  one(@Param('tableId') tableId: string, @CurrentUser() user: AuthenticatedUser) {
    return this.view(tableId, user);
  }

  private async view(tableId: string, user: AuthenticatedUser) {
    const table = this.config.tables.find((t) => t.id === tableId);
    if (!table) {
      throw new NotFoundException({
        error: 'unknown-table',
        message: `No table "${tableId}" is configured`,
      });
    }
    const privileged = user.role === 'supervisor';
    const lookup = this.tables.get(tableId);
    if (lookup.ok) return tableView(table, lookup.runtime, privileged);
    // Driven by another instance (or by none yet): its state as last committed.
    const stored = await this.stored.load(tableId);
    if (!stored) return tableView(table, undefined, privileged);
    const runtime = storedTableRuntime(table, stored.state) as TableRuntime;
    return { ...tableView(table, runtime, privileged), ...DRIVEN_ELSEWHERE };
  }
}
