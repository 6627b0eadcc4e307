import type { CommandRejection } from '../common/tables.port';
import { rejected, TableActor } from '../common/table-command';

/** A second supervisor approves a pending void request. */
export class ApproveVoidCommand implements TableActor {
  private constructor(
    readonly tableId: string,
    readonly by: string,
    readonly requestId: string,
  ) {}

  static create(input: TableActor & { requestId: string }): ApproveVoidCommand | CommandRejection {
    if (!/^\d+$/.test(input.requestId)) {
      return rejected('unknown-request', `No void request ${input.requestId}`);
    }
    return new ApproveVoidCommand(input.tableId, input.by, input.requestId);
  }
}
