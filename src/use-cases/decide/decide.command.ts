import { commandKeyOf, PLATFORM_ID_PATTERN, playerKey } from '../../common/player-key';
import { commandFingerprint } from '../common/command-fingerprint';
import { rejected } from '../common/table-command';
import type { BatchItem, CommandRejection, DecideFields } from '../common/tables.port';

/**
 * A player's decision (hit, stand, double, split, surrender, insurance, a Lux seat left, a bet
 * behind chosen) in the open window.
 */
export class DecideCommand {
  private constructor(readonly fields: DecideFields) {}

  static create(fields: DecideFields): DecideCommand | CommandRejection {
    if (typeof fields.action !== 'string' || fields.action === '') {
      return rejected('invalid-command', 'A decision needs an action');
    }
    if (typeof fields.platformId !== 'string' || !PLATFORM_ID_PATTERN.test(fields.platformId)) {
      return rejected('invalid-command', 'A decision needs the platform that sends it');
    }
    return new DecideCommand(fields);
  }

  get tableId(): string {
    return this.fields.tableId;
  }

  /** The table input (a decision needs no check before the table's state). */
  toItem(): { item: BatchItem } {
    const c = this.fields;
    const player = playerKey(c.platformId, c.playerId);
    const commandId = commandKeyOf(c.platformId, c.commandId);
    return {
      item: {
        input: {
          type: 'decide',
          decision: {
            commandId,
            roundId: c.roundId,
            playerId: player,
            action: c.action,
            seat: c.seat,
          },
        },
        meta: {
          commandId,
          kind: 'decide',
          fingerprint: commandId
            ? commandFingerprint('decide', [c.tableId, c.roundId, player, c.action, c.seat])
            : undefined,
        },
      },
    };
  }
}
