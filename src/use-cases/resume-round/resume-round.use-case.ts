import { TableCommand } from '../common/table-command';
import type { CommandResult } from '../common/tables.port';
import type { ResumeRoundCommand } from './resume-round.command';

export class ResumeRound extends TableCommand {
  execute(command: ResumeRoundCommand): Promise<CommandResult> {
    return this.submit(command.tableId, { type: 'resume', by: command.by });
  }
}
