import type { TableActor } from '../common/table-command';

/** The dealer reports the cut card: the round in progress (or the next) is the shoe's last. */
export class DrawCutCardCommand implements TableActor {
  private constructor(
    readonly tableId: string,
    readonly by: string,
  ) {}

  static create(input: TableActor): DrawCutCardCommand {
    return new DrawCutCardCommand(input.tableId, input.by);
  }
}
