import { SinglePlatformCommand } from '../common/platform-command';
import type { ForwardedCommand } from '../common/tables.port';
import type { CancelBetCommand } from './cancel-bet.command';

/**
 * A platform cancels its player's bet over HTTP while betting is open. Repeating a command id
 * returns the first answer; another platform's bet answers as an unknown one.
 */
export class CancelBet extends SinglePlatformCommand<CancelBetCommand> {
  protected forwarded(command: CancelBetCommand): ForwardedCommand {
    return { kind: 'cancel-bet', command: command.fields };
  }
}
