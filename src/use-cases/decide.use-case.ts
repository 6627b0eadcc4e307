import type { BatchItem } from '../tables/table-runtime';
import { commandFingerprint } from './command-fingerprint';
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
    const prepared = this.prepare(command);
    if ('rejected' in prepared) return prepared.rejected;
    return this.submit(command.tableId, prepared.item.input, prepared.item.meta);
  }

  /** The checks that need no table state, and the table input (for single or batched submits). */
  prepare(command: DecideCommand): { item: BatchItem } | { rejected: CommandResult } {
    if (typeof command.action !== 'string' || command.action === '') {
      return { rejected: rejected('invalid-command', 'A decision needs an action') };
    }
    return {
      item: {
        input: {
          type: 'decide',
          decision: {
            commandId: command.commandId,
            roundId: command.roundId,
            playerId: command.playerId,
            action: command.action,
            seat: command.seat,
          },
        },
        meta: {
          commandId: command.commandId,
          kind: 'decide',
          fingerprint: command.commandId
            ? commandFingerprint('decide', [
                command.tableId,
                command.roundId,
                command.playerId,
                command.action,
                command.seat,
              ])
            : undefined,
        },
      },
    };
  }
}
