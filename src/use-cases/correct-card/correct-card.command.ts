import type { CommandRejection } from '../common/tables.port';
import { rejected, TableActor, trimmedText } from '../common/table-command';

/** A supervisor replaces a mis-scanned face-down card before it is revealed. */
export class CorrectCardCommand implements TableActor {
  private constructor(
    readonly tableId: string,
    readonly by: string,
    readonly slot: string,
    readonly card: string,
    readonly reason: string,
    /** The round the supervisor meant; another round in play refuses the correction. */
    readonly roundId?: string,
  ) {}

  static create(
    input: TableActor & { slot: string; card: string; reason: unknown; roundId?: string },
  ): CorrectCardCommand | CommandRejection {
    // Kept as written (the table records it with the correction); only a blank one is refused.
    const reason = typeof input.reason === 'string' ? input.reason : '';
    if (!trimmedText(reason)) return rejected('reason-required', 'A correction needs a reason');
    return new CorrectCardCommand(
      input.tableId,
      input.by,
      input.slot,
      input.card,
      reason,
      input.roundId,
    );
  }
}
