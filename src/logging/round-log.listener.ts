import { Logger } from '@nestjs/common';
import type { TableDefinition } from '../config/tables-config';
import type { MachineOutcome } from '../table-core/table-machine';
import { summariseTransition, TransitionNote } from './transition-summary';

/** The part of a logger this listener uses (Nest's Logger; a fake in unit tests). */
export interface NoteLogger {
  log(message: string): void;
  warn(message: string): void;
}

/**
 * One info line per completed or voided round and per supervisor action, one warn line per
 * automatic pause: what a person reading the service's log needs to follow the floor.
 */
export class RoundLogListener {
  private readonly rounds = new Map<string, { roundNumber: number; shoeNumber: number }>();
  private readonly tables: Map<string, TableDefinition>;

  constructor(
    tables: readonly TableDefinition[],
    private readonly logger: NoteLogger = new Logger('Rounds'),
  ) {
    this.tables = new Map(tables.map((t) => [t.id, t]));
  }

  onTransition(tableId: string, outcome: MachineOutcome): void {
    for (const note of summariseTransition(outcome)) this.write(tableId, note);
  }

  private write(tableId: string, note: TransitionNote): void {
    const table = this.tables.get(tableId);
    const at = `${table?.name ?? tableId} (${tableId})`;
    switch (note.kind) {
      case 'round-started':
        this.rounds.set(note.roundId, {
          roundNumber: note.roundNumber,
          shoeNumber: note.shoeNumber,
        });
        return;
      case 'round-ended': {
        const known = this.rounds.get(note.roundId);
        this.rounds.delete(note.roundId);
        const which = known ? `round ${known.roundNumber} of shoe ${known.shoeNumber}` : 'round';
        const money = (minor: number) => formatMinor(minor, table?.currency ?? '');
        const bets =
          note.bets === 0
            ? 'no bets'
            : `${note.bets} ${note.bets === 1 ? 'bet' : 'bets'} by ${note.players} ${note.players === 1 ? 'player' : 'players'}, staked ${money(note.staked)}, players net ${money(note.playersNet)}`;
        const why = note.voidReason ? ` (${note.voidReason})` : '';
        this.logger.log(`${at}: ${which} ${note.status}${why}: ${bets} [round ${note.roundId}]`);
        return;
      }
      case 'automatic-pause':
        this.logger.warn(
          `${at}: paused automatically after a ${note.cause}: ${note.reason}${note.roundId ? ` [round ${note.roundId}]` : ''}`,
        );
        return;
      case 'supervisor-action':
        this.logger.log(
          `${at}: supervisor ${note.actor} ${note.action}${note.reason ? `: ${note.reason}` : ''}${note.roundId ? ` [round ${note.roundId}]` : ''}`,
        );
        return;
    }
  }
}

/** Minor units as major with two decimals and the currency code: `-1,250.50 THB`. */
export function formatMinor(minor: number, currency: string): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const major = Math.floor(abs / 100).toLocaleString('en-US');
  const cents = String(abs % 100).padStart(2, '0');
  return `${sign}${major}.${cents}${currency ? ` ${currency}` : ''}`;
}
