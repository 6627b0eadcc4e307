import type { CommandRejection } from '../common/tables.port';
import { rejected, TableActor } from '../common/table-command';

const MAX_BIGINT = 2n ** 63n - 1n;

/** A second supervisor approves a pending void request. */
export class ApproveVoidCommand implements TableActor {
  private constructor(
    readonly tableId: string,
    readonly by: string,
    readonly requestId: string,
  ) {}

  static create(input: TableActor & { requestId: string }): ApproveVoidCommand | CommandRejection {
    // A request id is a bigint: a longer number names no record (and PostgreSQL refuses it).
    if (!/^\d+$/.test(input.requestId) || BigInt(input.requestId) > MAX_BIGINT) {
      return rejected('unknown-request', `No void request ${input.requestId}`);
    }
    return new ApproveVoidCommand(input.tableId, input.by, input.requestId);
  }
}
