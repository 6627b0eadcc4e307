import type { ScannerReading } from '@studio/scanner-protocol';
import { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';
import { CommandResult, rejected, TableCommand } from './table-command';

/**
 * The dealer's and the supervisor's actions on a table. Each records who did it; the role checks
 * are the HTTP layer's, the phase checks the table machine's (a refused action says why).
 */
export class CloseBetting extends TableCommand {
  execute(tableId: string, by: string): Promise<CommandResult> {
    return this.submit(tableId, { type: 'close-betting', by });
  }
}

export class DrawCutCard extends TableCommand {
  execute(tableId: string, by: string): Promise<CommandResult> {
    return this.submit(tableId, { type: 'cut-card', by });
  }
}

export class PauseRound extends TableCommand {
  async execute(tableId: string, by: string, reason: string): Promise<CommandResult> {
    if (!reason?.trim()) return rejected('reason-required', 'A pause needs a reason');
    return this.submit(tableId, { type: 'pause', by, reason: reason.trim() });
  }
}

export class ResumeRound extends TableCommand {
  execute(tableId: string, by: string): Promise<CommandResult> {
    return this.submit(tableId, { type: 'resume', by });
  }
}

/**
 * Voids the round in progress and refunds every bet. When second-supervisor approval is switched
 * on (VOID_REQUIRES_APPROVAL), the first supervisor's void is recorded as a pending request and
 * takes effect only when a different supervisor approves it (ApproveVoid).
 */
export class VoidRound extends TableCommand {
  private readonly requestListeners: Array<(tableId: string) => void> = [];

  constructor(
    tables: TableRuntimeRegistry,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly requiresApproval: boolean,
  ) {
    super(tables);
  }

  /**
   * A pending request is recorded outside any table transition, so the transition listeners never
   * hear of it: the supervisor consoles listen here to show it (and its Approve button) at once.
   */
  onRequestRecorded(listener: (tableId: string) => void): void {
    this.requestListeners.push(listener);
  }

  async execute(tableId: string, by: string, reason: string): Promise<CommandResult> {
    if (!reason?.trim()) return rejected('reason-required', 'A void needs a reason');
    if (!this.requiresApproval)
      return this.submit(tableId, { type: 'void', by, reason: reason.trim() });
    const lookup = this.tables.get(tableId);
    if (!lookup.ok) return rejected(lookup.code, lookup.message);
    const round = lookup.runtime.snapshot.round;
    if (!round) return rejected('no-round', 'No round is in progress to void');
    const [row] = await this.dataSource.query(
      `INSERT INTO supervisor_actions (table_id, round_id, action, reason, actor_user_id, actor_name, status, details, created_at)
       VALUES ($1, $2, 'void', $3, (SELECT id FROM users WHERE username = $4), $4, 'pending-approval', '{}', $5)
       RETURNING id`,
      [tableId, round.id, reason.trim(), by, this.clock.now()],
    );
    // The request is stored: a failing listener must not turn that into an error for the caller.
    for (const listener of this.requestListeners) {
      try {
        listener(tableId);
      } catch {
        // consoles catch up at their next reload
      }
    }
    return {
      accepted: true,
      reply: { pendingApproval: true, requestId: String(row.id), roundId: round.id },
    };
  }
}

/** A second supervisor approves a pending void request; the same supervisor cannot. */
export class ApproveVoid extends TableCommand {
  constructor(
    tables: TableRuntimeRegistry,
    private readonly dataSource: DataSource,
  ) {
    super(tables);
  }

  async execute(tableId: string, requestId: string, approver: string): Promise<CommandResult> {
    if (!/^\d+$/.test(requestId))
      return rejected('unknown-request', `No void request ${requestId}`);
    const [request] = await this.dataSource.query(
      `SELECT id, round_id, reason, actor_name, status FROM supervisor_actions
        WHERE id = $1 AND table_id = $2 AND action = 'void'`,
      [requestId, tableId],
    );
    if (!request)
      return rejected('unknown-request', `No void request ${requestId} at table ${tableId}`);
    if (request.status !== 'pending-approval') {
      return rejected('request-not-pending', `Void request ${requestId} is ${request.status}`);
    }
    if (request.actor_name === approver) {
      return rejected(
        'second-supervisor-required',
        'A different supervisor must approve this void',
      );
    }
    return this.submit(tableId, {
      type: 'void',
      by: request.actor_name,
      reason: request.reason,
      approval: { requestId, approvedBy: approver, roundId: request.round_id },
    });
  }
}

export class CorrectCard extends TableCommand {
  async execute(
    tableId: string,
    by: string,
    correction: { slot: string; card: string; reason: string },
  ): Promise<CommandResult> {
    if (!correction.reason?.trim())
      return rejected('reason-required', 'A correction needs a reason');
    return this.submit(tableId, { type: 'correct-card', by, ...correction });
  }
}

export class EndShoe extends TableCommand {
  async execute(tableId: string, by: string, reason: string): Promise<CommandResult> {
    if (!reason?.trim()) return rejected('reason-required', 'Ending a shoe needs a reason');
    return this.submit(tableId, { type: 'end-shoe', by, reason: reason.trim() });
  }
}

/** A decoded scanner reading, already stored raw, applied to its table. */
export class RecordReading extends TableCommand {
  execute(
    tableId: string,
    readingId: string | null,
    reading: ScannerReading,
  ): Promise<CommandResult> {
    return this.submit(tableId, { type: 'reading', readingId, reading });
  }
}
