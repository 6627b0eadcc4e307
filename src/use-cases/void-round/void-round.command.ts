import type { CommandRejection } from '../common/tables.port';
import { rejected, TableActor, trimmedText } from '../common/table-command';

/** A supervisor voids the round in progress (every bet refunded), saying why. */
export class VoidRoundCommand implements TableActor {
  private constructor(
    readonly tableId: string,
    readonly by: string,
    readonly reason: string,
  ) {}

  static create(input: TableActor & { reason: unknown }): VoidRoundCommand | CommandRejection {
    const reason = trimmedText(input.reason);
    if (!reason) return rejected('reason-required', 'A void needs a reason');
    return new VoidRoundCommand(input.tableId, input.by, reason);
  }
}
