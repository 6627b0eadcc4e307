import { SinglePlatformCommand } from '../common/platform-command';
import type { ForwardedCommand } from '../common/tables.port';
import type { DecideCommand } from './decide.command';

/** A player's decision over HTTP, in the open window. Repeating a command id returns the first answer. */
export class Decide extends SinglePlatformCommand<DecideCommand> {
  protected forwarded(command: DecideCommand): ForwardedCommand {
    return { kind: 'decision', command: command.fields };
  }
}
