import type { ScannerReading } from '@studio/scanner-protocol';
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

export class VoidRound extends TableCommand {
  async execute(tableId: string, by: string, reason: string): Promise<CommandResult> {
    if (!reason?.trim()) return rejected('reason-required', 'A void needs a reason');
    return this.submit(tableId, { type: 'void', by, reason: reason.trim() });
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
