import type { Decide, DecideCommand } from '../use-cases/decide.use-case';
import type { PlaceBet, PlaceBetCommand } from '../use-cases/place-bet.use-case';
import type { CommandResult } from '../use-cases/table-command';
import type { CommandInbox } from './inbox/command-inbox';

/**
 * The HTTP platform API's commands: applied here when this instance drives the table, otherwise
 * passed through the table's inbox to the instance that does, and answered with its answer.
 */
export class PlatformCommands {
  constructor(
    private readonly placeBet: PlaceBet,
    private readonly decide: Decide,
    private readonly inbox: CommandInbox,
  ) {}

  bet(command: PlaceBetCommand): Promise<CommandResult> {
    if (this.inbox.route(command.tableId) !== 'inbox') return this.placeBet.execute(command);
    return this.inbox.forwardHttp(command.tableId, { via: 'http', kind: 'bet', command });
  }

  decision(command: DecideCommand): Promise<CommandResult> {
    if (this.inbox.route(command.tableId) !== 'inbox') return this.decide.execute(command);
    return this.inbox.forwardHttp(command.tableId, { via: 'http', kind: 'decision', command });
  }
}
