import { Logger } from '@nestjs/common';
import type { TableDefinition } from '../config/tables-config';
import type { MachineOutcome } from '../table-core/table-machine';
import { summariseTransition, TransitionNote } from './transition-summary';

/** The part of a logger this listener uses (Nest's Logger; a fake in unit tests). */
export interface NoteLogger {
  log(message: string): void;
  warn(message: string): void;
}

type Note<K extends TransitionNote['kind']> = Extract<TransitionNote, { kind: K }>;

/**
 * One info line per completed or voided round and per supervisor action, one warn line per
 * automatic pause and per supervisor alert: what a person reading the service's log needs to
 * follow the floor. A void is one line: the round it ended, who voided it and why.
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
    const notes = summariseTransition(outcome);
    const ended = notes.find((n): n is Note<'round-ended'> => n.kind === 'round-ended');
    const voider = notes.find(
      (n): n is Note<'supervisor-action'> =>
        n.kind === 'supervisor-action' && n.action === 'void' && n.roundId === ended?.roundId,
    );
    for (const note of notes) {
      if (note === voider && ended?.status === 'voided') continue; // told with the round's end
      this.write(tableId, note, note === ended ? voider : undefined);
    }
  }

  private write(tableId: string, note: TransitionNote, voider?: Note<'supervisor-action'>): void {
    const at = this.where(tableId);
    const round = (roundId: string | null) => (roundId ? ` [round ${roundId}]` : '');
    switch (note.kind) {
      case 'round-started':
        this.rounds.set(note.roundId, {
          roundNumber: note.roundNumber,
          shoeNumber: note.shoeNumber,
        });
        return;
      case 'round-ended':
        this.logger.log(`${at}: ${this.roundEnded(tableId, note, voider)}${round(note.roundId)}`);
        return;
      case 'automatic-pause':
        this.logger.warn(
          `${at}: paused automatically after a ${note.cause}: ${note.reason}${round(note.roundId)}`,
        );
        return;
      case 'alert':
        this.logger.warn(`${at}: supervisor alert: ${note.message}${round(note.roundId)}`);
        return;
      case 'supervisor-action':
        this.logger.log(`${at}: ${supervisorAction(note)}${round(note.roundId)}`);
        return;
    }
  }

  private where(tableId: string): string {
    const table = this.tables.get(tableId);
    return `${table?.name ?? tableId} (${tableId})`;
  }

  private roundEnded(
    tableId: string,
    note: Note<'round-ended'>,
    voider: Note<'supervisor-action'> | undefined,
  ): string {
    const started = this.rounds.get(note.roundId);
    this.rounds.delete(note.roundId);
    const numbers =
      note.roundNumber !== undefined && note.shoeNumber !== undefined
        ? { roundNumber: note.roundNumber, shoeNumber: note.shoeNumber }
        : started;
    const which = numbers
      ? `round ${numbers.roundNumber} of shoe ${numbers.shoeNumber}`
      : 'a round started before this service took the table';
    // Each currency on its own (a settlement names its own; the table's for older notes).
    const tableCurrency = this.tables.get(tableId)?.currency ?? '';
    const per = (line: (m: (typeof note.money)[number]) => string) =>
      note.money.map((m) => line({ ...m, currency: m.currency || tableCurrency })).join('; ');
    const bets = `${count(note.bets, 'bet')} by ${count(note.players, 'player')}`;
    if (note.status === 'completed') {
      const summary =
        note.bets === 0
          ? 'no bets'
          : `${bets}, ${per(
              (m) =>
                `staked ${formatMinor(m.staked, m.currency)}, players net ${formatMinor(m.playersNet, m.currency)}`,
            )}`;
      return `${which} completed: ${summary}`;
    }
    const by = voider ? ` by ${supervisor(voider.actor)}${approval(voider)}` : '';
    const why = note.voidReason ? ` (${note.voidReason})` : '';
    const refunds =
      note.bets === 0
        ? 'no bets'
        : `${bets} refunded, ${per((m) => formatMinor(m.staked, m.currency))}`;
    return `${which} voided${by}${why}: ${refunds}`;
  }
}

function supervisorAction(note: Note<'supervisor-action'>): string {
  const who = supervisor(note.actor);
  const why = note.reason ? `: ${note.reason}` : '';
  if (note.action === 'void' && note.pending) {
    return `${who} asked to void the round${why} (a second supervisor must approve it)`;
  }
  return `${who} ${done(note.action, note.roundId)}${approval(note)}${why}`;
}

/** A supervisor action in words (an action the service does not know: its name). */
function done(action: string, roundId: string | null): string {
  // A pause between rounds holds the table: no round starts until the resume.
  const held = roundId ? 'the round' : 'the table';
  switch (action) {
    case 'pause':
      return `paused ${held}`;
    case 'resume':
      return `resumed ${held}`;
    case 'void':
      return 'voided the round';
    case 'correct-card':
      return 'corrected a card';
    case 'end-shoe':
      return 'ended the shoe';
    default:
      return action;
  }
}

/** `supervisor "alice"`: the quotes keep a user named "supervisor" from reading as a stutter. */
function supervisor(actor: string): string {
  return `supervisor "${actor}"`;
}

function approval(note: Note<'supervisor-action'>): string {
  return note.approvedBy ? `, approved by ${supervisor(note.approvedBy)}` : '';
}

function count(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}

/** Minor units as major with two decimals and the currency code: `-1,250.50 THB`. */
export function formatMinor(minor: number, currency: string): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const major = Math.floor(abs / 100).toLocaleString('en-US');
  const cents = String(abs % 100).padStart(2, '0');
  return `${sign}${major}.${cents}${currency ? ` ${currency}` : ''}`;
}
