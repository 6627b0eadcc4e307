import type { TableActor } from '../common/table-command';

/** A supervisor resumes a paused table (its timers restart with what they had left). */
export class ResumeRoundCommand implements TableActor {
  private constructor(
    readonly tableId: string,
    readonly by: string,
  ) {}

  static create(input: TableActor): ResumeRoundCommand {
    return new ResumeRoundCommand(input.tableId, input.by);
  }
}
