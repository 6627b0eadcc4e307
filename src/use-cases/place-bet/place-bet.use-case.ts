import { SinglePlatformCommand } from '../common/platform-command';
import type { ForwardedCommand } from '../common/tables.port';
import type { PlaceBetCommand } from './place-bet.command';

/** A platform places a player's bet over HTTP. Repeating a command id returns the first answer. */
export class PlaceBet extends SinglePlatformCommand<PlaceBetCommand> {
  protected forwarded(command: PlaceBetCommand): ForwardedCommand {
    return { kind: 'bet', command: command.fields };
  }
}
