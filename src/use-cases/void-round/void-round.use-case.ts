import { TableCommand } from '../common/table-command';
import type { CommandResult, Tables, VoidRequests } from '../common/tables.port';
import type { VoidRoundCommand } from './void-round.command';

/**
 * Voids the round in progress and refunds every bet. When second-supervisor approval is switched
 * on (VOID_REQUIRES_APPROVAL), the void becomes a request the table keeps with the round until a
 * different supervisor approves it (ApproveVoid) or the round ends.
 */
export class VoidRound extends TableCommand {
  constructor(
    tables: Tables,
    private readonly requests: VoidRequests,
    private readonly requiresApproval: boolean,
  ) {
    super(tables);
  }

  async execute(command: VoidRoundCommand): Promise<CommandResult> {
    const { tableId, by, reason } = command;
    const meant = command.roundId ? { roundId: command.roundId } : {};
    if (!this.requiresApproval) return this.submit(tableId, { type: 'void', by, reason, ...meant });
    const lookup = this.tables.get(tableId);
    if (!lookup.ok && lookup.code === 'unknown-table') {
      return { accepted: false, code: lookup.code, message: lookup.message };
    }
    // The request's record id is allocated first so the table can name it in its answer (the
    // table may be driven by another instance: the id comes from the shared database).
    const requestId = await this.requests.newRequestId();
    return this.submit(tableId, { type: 'request-void', requestId, by, reason, ...meant });
  }
}
