import { BetsReader } from './bets.reader';
import type { HistoryQuery } from './history-query';
import { PlatformRecordsReader } from './platform-records.reader';
import { ReadingsReader } from './readings.reader';
import { RoundCardsReader } from './round-cards.reader';
import { RoundEventsReader } from './round-events.reader';
import { RoundsReader } from './rounds.reader';
import { SupervisorActionsReader } from './supervisor-actions.reader';

/**
 * The one read side of the history: every query on rounds, cards, readings, bets, events and
 * supervisor actions, typed. The audit API, the consoles and replay read through it, so a query
 * (and a fix to it) exists once.
 */
export class HistoryReader {
  readonly rounds: RoundsReader;
  readonly cards: RoundCardsReader;
  readonly readings: ReadingsReader;
  readonly bets: BetsReader;
  readonly events: RoundEventsReader;
  readonly supervisorActions: SupervisorActionsReader;
  /** What one platform may read of the history (its own players' rows only). */
  readonly platforms: PlatformRecordsReader;

  constructor(q: HistoryQuery) {
    this.rounds = new RoundsReader(q);
    this.cards = new RoundCardsReader(q);
    this.readings = new ReadingsReader(q);
    this.bets = new BetsReader(q);
    this.events = new RoundEventsReader(q);
    this.supervisorActions = new SupervisorActionsReader(q);
    this.platforms = new PlatformRecordsReader(q);
  }
}

/** A reader, or the query function to build one over (callers wired with a bare query). */
export type HistorySource = HistoryReader | HistoryQuery;

const readers = new WeakMap<HistoryQuery, HistoryReader>();

/** The reader of a source; one per query function, so callers may pass the function each time. */
export function historyReader(source: HistorySource): HistoryReader {
  if (source instanceof HistoryReader) return source;
  let reader = readers.get(source);
  if (!reader) {
    reader = new HistoryReader(source);
    readers.set(source, reader);
  }
  return reader;
}
