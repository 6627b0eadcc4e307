import { Clock } from '../clock/clock';
import type { TableDefinition } from '../config/tables-config';
import { HoldStatisticsReader } from '../history/hold-statistics.reader';
import { holdReport, HoldReport } from './hold-report';

/** The live hold monitoring report: reads the history, compares it with the expected returns. */
export class GetHoldReport {
  constructor(
    private readonly tables: readonly TableDefinition[],
    private readonly reader: HoldStatisticsReader,
    private readonly clock: Clock,
  ) {}

  async execute(input: { rounds: number; hours: number }): Promise<HoldReport> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - input.hours * 3_600_000);
    // Every table's last rounds in one statement: one pooled connection, shared with the tables'
    // own work, and one round trip instead of one per table.
    const lastRounds = await this.reader.lastRoundsOf(
      this.tables.map((t) => t.id),
      input.rounds,
    );
    const hourly = await this.reader.roundsPerHour(since);
    const scanners = await this.reader.scannerCounts(since);
    return holdReport(this.tables, { lastRounds, hourly, scanners }, { now, ...input });
  }
}
