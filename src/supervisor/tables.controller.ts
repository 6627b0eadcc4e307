import { Controller, Get, Inject, NotFoundException, Param } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser, Roles } from '../auth/roles.guard';
import type { StudioConfig } from '../config/studio-config';
import { ApiIdParams, ApiOk, ApiStaff, ApiSummary } from '../http/api-docs';
import { isDatabaseUnavailable } from '../common/database-unavailable';
import { ERROR_BODY, ID_PARAM, TABLE_VIEW } from '../http/http-schemas';
import { openApiSchema } from '../http/openapi-schema';
import { SchemaPipe } from '../http/schema-pipe';
import { STUDIO_CONFIG } from '../tokens';
import { TableStateReader } from '../history/table-state.reader';
import { DRIVEN_ELSEWHERE, storedTableRuntime } from '../tables/stored-table';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';
import type { TableRuntime } from '../tables/table-runtime';
import { tableView } from '../tables/table-view';

@Controller('tables')
@ApiStaff('tables', 'dealer', 'supervisor', 'auditor')
export class TablesController {
  constructor(
    @Inject(STUDIO_CONFIG) private readonly config: StudioConfig,
    private readonly tables: TableRuntimeRegistry,
    private readonly stored: TableStateReader,
  ) {}

  @ApiSummary('Every configured table, as the caller may see it')
  @Get()
  @Roles('dealer', 'supervisor', 'auditor')
  @ApiOk({ type: 'array', items: TABLE_VIEW }, 'every configured table')
  list(@CurrentUser() user: AuthenticatedUser) {
    return Promise.all(this.config.tables.map((t) => this.listed(t.id, user)));
  }

  @ApiSummary('One table: supervisors also see its face-down cards')
  @Get(':tableId')
  @Roles('dealer', 'supervisor', 'auditor')
  @ApiIdParams('tableId')
  @ApiOk(TABLE_VIEW, 'the table: supervisors also see its face-down cards')
  @ApiResponse({ status: 400, description: 'not an id', schema: openApiSchema(ERROR_BODY) })
  @ApiResponse({ status: 404, description: 'unknown table', schema: openApiSchema(ERROR_BODY) })
  one(
    @Param('tableId', new SchemaPipe(ID_PARAM)) tableId: string,
    @CurrentUser() user: AuthenticatedUser,
  ) {
    return this.view(tableId, user);
  }

  /**
   * In the list, a table another instance drives whose stored state cannot be read during a
   * database outage is marked so, rather than failing the whole list: the tables driven here stay
   * live on the dealers' and supervisors' screens through the outage.
   */
  private async listed(tableId: string, user: AuthenticatedUser) {
    try {
      return await this.view(tableId, user);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const table = this.config.tables.find((t) => t.id === tableId)!;
      return { ...tableView(table, undefined, false), unavailable: 'database-unavailable' };
    }
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
