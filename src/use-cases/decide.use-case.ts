import { CommandResult, rejected, TableCommand } from './table-command';

export interface DecideCommand {
  tableId: string;
  commandId?: string;
  roundId?: string;
  playerId: string;
  action: string;
  seat?: string;
}

/** A player's decision (hit, stand, double, split, surrender, insurance) in the open window. */
export class Decide extends TableCommand {
  async execute(command: DecideCommand): Promise<CommandResult> {
    if (typeof command.action !== 'string' || command.action === '') {
      return rejected('invalid-command', 'A decision needs an action');
    }
    return this.submit(
      command.tableId,
      {
        type: 'decide',
        decision: {
          commandId: command.commandId,
          roundId: command.roundId,
          playerId: command.playerId,
          action: command.action,
          seat: command.seat,
        },
      },
      { commandId: command.commandId, kind: 'decide' },
    );
  }
}
