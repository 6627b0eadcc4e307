import type { OpenRounds } from '../history/reader/platform-records.reader';

/** Whether a settlement report's figures are final, and what still keeps them from it. */
export interface ReportCompleteness {
  /**
   * True once the report's last day is over (by the clock) and none of its rounds holding the
   * platform's bets is still in progress: its figures will not change any more.
   */
  final: boolean;
  /** Rounds started on the report's days, still in progress, holding the platform's open bets. */
  openRounds: number;
  /** The same rounds per table (tables with none left out), ordered by table. */
  openRoundsByTable: OpenRounds[];
}

/**
 * The completeness of a report of the days before `end` (exclusive, UTC midnight) read at `now`
 * (the injected clock's): a day not over yet, or a round of those days still open, may still add
 * settlements or cancellations, so the report is not final.
 */
export function reportCompleteness(
  end: Date,
  now: Date,
  open: readonly OpenRounds[],
): ReportCompleteness {
  const byTable = open.filter((t) => t.rounds > 0);
  const openRounds = byTable.reduce((sum, t) => sum + t.rounds, 0);
  return {
    final: now.getTime() >= end.getTime() && openRounds === 0,
    openRounds,
    openRoundsByTable: byTable.map((t) => ({ tableId: t.tableId, rounds: t.rounds })),
  };
}
