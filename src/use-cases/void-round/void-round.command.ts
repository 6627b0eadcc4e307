import type { CommandRejection } from '../common/tables.port';
import { rejected, TableActor, trimmedText } from '../common/table-command';

/** A supervisor voids the round in progress (every bet refunded), saying why. */
export class VoidRoundCommand implements TableActor {
  private constructor(
    readonly tableId: string,
    readonly by: string,
    readonly reason: string,
    /** The round the supervisor meant; another round in play refuses the void. */
    readonly roundId?: string,
  ) {}

  static create(
    input: TableActor & { reason: unknown; roundId?: string },
  ): VoidRoundCommand | CommandRejection {
    const reason = trimmedText(input.reason);
    if (!reason) return rejected('reason-required', 'A void needs a reason');
    return new VoidRoundCommand(input.tableId, input.by, reason, input.roundId);
  }
}
