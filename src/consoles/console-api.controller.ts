import {
  BadRequestException,
  Controller,
  Get,
  Inject,
  NotFoundException,
  Param,
  Query,
  Res,
  ServiceUnavailableException,
} from '@nestjs/common';
import { ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser, Roles } from '../auth/roles.guard';
import type { StudioConfig } from '../config/studio-config';
import { ApiIdParams, ApiOk, ApiOptionalQuery, ApiStaff, ApiSummary } from '../http/api-docs';
import { ACTION_LOG_ENTRY, ERROR_BODY, ID_PARAM } from '../http/http-schemas';
import { openApiSchema } from '../http/openapi-schema';
import { STUDIO_CONFIG } from '../tokens';
import { ConsoleOutboxLag } from './console.tokens';
import { loadActionLog } from './console-queries';
import { HistoryReader } from '../history/reader/history-reader';
import { ConsoleStreamHub, StreamScope } from './console-stream.hub';

/**
 * What the consoles read beyond the existing API: live table views over Server-Sent Events, the
 * supervisors' action log and the outbox lag. The role checks are the RolesGuard's, as everywhere.
 */
@Controller('console/api')
export class ConsoleApiController {
  constructor(
    @Inject(STUDIO_CONFIG) private readonly config: StudioConfig,
    private readonly hub: ConsoleStreamHub,
    private readonly history: HistoryReader,
    private readonly outbox: ConsoleOutboxLag,
  ) {}

  /** Every table at a glance, plus the outbox lag every few seconds (supervisor overview). */
  @ApiSummary('Live views of every table (Server-Sent Events)')
  @Get('tables/stream')
  @Roles('supervisor')
  @ApiStaff('consoles', 'supervisor')
  @ApiProduces('text/event-stream')
  @ApiResponse({ status: 200, description: 'Server-Sent Events: table views and the outbox lag' })
  streamAll(@Res() response: Response): Promise<void> {
    return this.stream(response, { privileged: true });
  }

  /**
   * One table, role-filtered: supervisors get the face-down cards. `?view=dealer` asks for the
   * dealer's view whoever is signed in: the table-side screen never shows a face-down card, even
   * when a supervisor signs in at it.
   */
  @ApiSummary("Live view of one table, filtered by the caller's role (Server-Sent Events)")
  @Get('tables/:tableId/stream')
  @Roles('dealer', 'supervisor')
  @ApiStaff('consoles', 'dealer', 'supervisor')
  @ApiIdParams('tableId')
  @ApiQuery({ name: 'view', required: false, schema: { type: 'string', enum: ['dealer'] } })
  @ApiProduces('text/event-stream')
  @ApiResponse({ status: 200, description: 'Server-Sent Events: the table view, role-filtered' })
  @ApiResponse({ status: 404, description: 'unknown table', schema: openApiSchema(ERROR_BODY) })
  streamOne(
    @Param('tableId') tableId: string,
    @Query('view') view: string | undefined,
    @CurrentUser() user: AuthenticatedUser,
    @Res() response: Response,
  ): Promise<void> {
    if (!this.config.tables.some((t) => t.id === tableId)) {
      throw new NotFoundException({
        error: 'unknown-table',
        message: `No table "${tableId}" is configured`,
      });
    }
    if (view !== undefined && view !== 'dealer') {
      throw new BadRequestException({
        error: 'bad-request',
        message: `view must be "dealer" or left out (got "${view}")`,
      });
    }
    return this.stream(response, {
      tableId,
      privileged: user.role === 'supervisor' && view !== 'dealer',
    });
  }

  @ApiSummary("The supervisors' action log, newest first")
  @ApiResponse({ status: 404, description: 'unknown table', schema: openApiSchema(ERROR_BODY) })
  @Get('actions')
  @Roles('supervisor')
  @ApiStaff('consoles', 'supervisor')
  @ApiOptionalQuery('tableId', ID_PARAM, 'Only this table.')
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'string', pattern: '^[0-9]+$', default: '50' },
    description: 'How many entries, 1..500 (default 50).',
  })
  @ApiOk({ type: 'array', items: ACTION_LOG_ENTRY }, 'the newest actions first')
  @ApiResponse({ status: 400, description: 'a bad limit', schema: openApiSchema(ERROR_BODY) })
  actions(@Query('tableId') tableId?: string, @Query('limit') limit?: string) {
    if (tableId !== undefined && !this.config.tables.some((t) => t.id === tableId)) {
      throw new NotFoundException({
        error: 'unknown-table',
        message: `No table "${tableId}" is configured`,
      });
    }
    const count = limit === undefined ? 50 : Number(limit);
    if (!Number.isInteger(count) || count < 1 || count > 500) {
      throw new BadRequestException({
        error: 'bad-request',
        message: `limit must be a whole number from 1 to 500 (got "${limit}")`,
      });
    }
    return loadActionLog(this.history, { tableId, limit: count });
  }

  @ApiSummary('The outbox lag and whether publishing is on')
  @Get('outbox')
  @Roles('supervisor')
  @ApiStaff('consoles', 'supervisor')
  @ApiOk({ type: 'object' }, 'the outbox lag and whether publishing is on')
  outboxLag() {
    return this.outbox.lag();
  }

  private async stream(response: Response, scope: StreamScope): Promise<void> {
    if (!this.hub.accepting) {
      throw new ServiceUnavailableException({
        error: 'not-accepting',
        message: 'The service is starting or shutting down; reconnect in a moment',
      });
    }
    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    response.setHeader('Cache-Control', 'no-cache, no-transform');
    response.setHeader('Connection', 'keep-alive');
    response.setHeader('X-Accel-Buffering', 'no');
    response.flushHeaders();
    // The client may leave while the first views are being sent: stop as soon as both are known.
    const connection: { stop?: () => void; gone: boolean } = { gone: false };
    // The response closes when the client goes away (or the stream is ended at shutdown).
    const leave = () => {
      connection.gone = true;
      connection.stop?.();
    };
    response.on('close', leave);
    response.on('error', leave);
    // Gone before the listeners were attached (while the guards ran): 'close' will not come again.
    if (response.destroyed) leave();
    const stop = await this.hub.subscribe(response, scope);
    // Shutdown began in the meantime: end the stream; the page reconnects to another instance.
    if (stop === false) response.end();
    else if (connection.gone) stop();
    else connection.stop = stop;
  }
}
