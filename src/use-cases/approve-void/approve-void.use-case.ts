import { rejected, TableCommand } from '../common/table-command';
import type { CommandResult, Tables, VoidRequests } from '../common/tables.port';
import type { ApproveVoidCommand } from './approve-void.command';

/**
 * A second supervisor approves a pending void request. The table decides (the request must still
 * be pending in its round, and the approver must not be who asked); the record only tells an
 * unknown request from one that was already applied or lapsed.
 */
export class ApproveVoid extends TableCommand {
  constructor(
    tables: Tables,
    private readonly requests: VoidRequests,
  ) {
    super(tables);
  }

  async execute(command: ApproveVoidCommand): Promise<CommandResult> {
    const { tableId, by, requestId } = command;
    const request = await this.requests.findVoidRequest(tableId, requestId);
    if (!request)
      return rejected('unknown-request', `No void request ${requestId} at table ${tableId}`);
    if (request.status !== 'pending-approval') {
      return rejected('request-not-pending', `Void request ${requestId} is ${request.status}`);
    }
    return this.submit(tableId, { type: 'approve-void', requestId, by });
  }
}
