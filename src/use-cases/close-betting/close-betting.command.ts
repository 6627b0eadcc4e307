import type { TableActor } from '../common/table-command';

/** The dealer (or a supervisor) closes betting before the window runs out. */
export class CloseBettingCommand implements TableActor {
  private constructor(
    readonly tableId: string,
    readonly by: string,
  ) {}

  static create(input: TableActor): CloseBettingCommand {
    return new CloseBettingCommand(input.tableId, input.by);
  }
}
