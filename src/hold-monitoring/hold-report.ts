import type { GameKind } from '@studio/contracts';
import { TableDefinition, tableCurrencyCodes } from '../config/tables-config';
import type { HourlyRounds, RoundStakes, ScannerCounts } from '../history/hold-statistics.reader';
import { EXPECTED_RETURN_SOURCES, expectedReturn, maxReturn, SD_FLOORS } from './expected-returns';
import {
  RescanBand,
  rescanBand,
  ReturnBand,
  returnBand,
  RoundResult,
  returnSeries,
} from './hold-band';

export interface HoldAlert {
  kind: 'return-above' | 'return-below' | 'rescans-above' | 'scanner-outages';
  message: string;
}

/** A table's or game's return in one currency: stakes of two currencies are never added. */
export interface CurrencyHold {
  currency: string;
  returns: ReturnBand;
  /** Stakes on bet types without an expected figure, left out of the comparison. */
  unratedStake: number;
}

export interface TableHold {
  tableId: string;
  name: string;
  game: GameKind;
  /** The table's default currency: `returns`, `unratedStake` and `series` are in it. */
  currency: string;
  /** False for tables without a physical reader (the practice table): no rescan figures. */
  scanner: boolean;
  returns: ReturnBand;
  /** Stakes on bet types without an expected figure, left out of the comparison. */
  unratedStake: number;
  /** Every currency of the table (its default first), each measured on its own bets alone. */
  currencies: CurrencyHold[];
  /** After each round; the band only once it is narrow enough to judge (null before). */
  series: Array<{
    endedAt: string;
    observed: number;
    low: number | null;
    high: number | null;
    expected: number;
  }>;
  roundsPerHour: Array<{ hour: string; rounds: number }>;
  rescans: RescanBand | null;
  /** Times the reader went disconnected or stale; null for a table without one. */
  outages: number | null;
  alerts: HoldAlert[];
}

export interface GameHold {
  game: GameKind;
  /** A game's tables are measured together per currency (one line each). */
  currency: string;
  tables: number;
  source: string;
  returns: ReturnBand;
}

export interface HoldReport {
  generatedAt: string;
  /** The last N rounds per table the returns are measured over. */
  rounds: number;
  /** Scanner figures and rounds per hour cover this many hours back. */
  hours: number;
  confidence: 0.99;
  tables: TableHold[];
  games: GameHold[];
}

export interface HoldInputs {
  lastRounds: ReadonlyMap<string, readonly RoundStakes[]>;
  hourly: readonly HourlyRounds[];
  scanners: readonly ScannerCounts[];
}

/** Puts each table's stakes against its game's expected returns and raises the alerts. */
export function holdReport(
  tables: readonly TableDefinition[],
  inputs: HoldInputs,
  settings: { now: Date; rounds: number; hours: number },
): HoldReport {
  const perTable = tables.map((table) => tableHold(table, inputs, settings.hours));
  const games = [...new Set(tables.map((t) => t.game))].flatMap((game) => {
    const own = tables.filter((t) => t.game === game);
    const currencies = [...new Set(own.flatMap((t) => currenciesOfTable(t, inputs)))];
    return currencies.map((currency) => {
      const rounds = own.flatMap(
        (t) => roundResults(game, inputs.lastRounds.get(t.id) ?? [], currency).rated,
      );
      return {
        game,
        currency,
        tables: own.filter((t) => currenciesOfTable(t, inputs).includes(currency)).length,
        source: EXPECTED_RETURN_SOURCES[game],
        returns: returnBand(rounds, { sdFloor: SD_FLOORS[game] }),
      };
    });
  });
  return {
    generatedAt: settings.now.toISOString(),
    rounds: settings.rounds,
    hours: settings.hours,
    confidence: 0.99,
    tables: perTable,
    games,
  };
}

/** The table's configured currencies (its default first), then any other its rounds were bet in. */
function currenciesOfTable(table: TableDefinition, inputs: HoldInputs): string[] {
  const rows = inputs.lastRounds.get(table.id) ?? [];
  return [...new Set([...tableCurrencyCodes(table), ...rows.map((r) => r.currency)])];
}

function tableHold(table: TableDefinition, inputs: HoldInputs, hours: number): TableHold {
  const sdFloor = SD_FLOORS[table.game];
  const rows = inputs.lastRounds.get(table.id) ?? [];
  const currencies = currenciesOfTable(table, inputs).map((currency) => {
    const { rated, unratedStake } = roundResults(table.game, rows, currency);
    return { currency, rated, unratedStake, returns: returnBand(rated, { sdFloor }) };
  });
  const { rated, unratedStake, returns } = currencies[0];
  const counts = inputs.scanners.find((s) => s.tableId === table.id);
  const scanner = table.scanner !== undefined;
  const rescans = scanner && counts ? rescanBand(counts.cards, counts.unrecognised) : null;
  const outages = scanner ? (counts?.outages ?? 0) : null;
  return {
    tableId: table.id,
    name: table.name,
    game: table.game,
    currency: table.currency,
    scanner,
    returns,
    unratedStake,
    currencies: currencies.map((c) => ({
      currency: c.currency,
      returns: c.returns,
      unratedStake: c.unratedStake,
    })),
    series: returnSeries(rated, { sdFloor }).map((b, i) => {
      const judged = b.verdict !== 'too-few-rounds';
      return {
        endedAt: rated[i].endedAt,
        observed: b.observed ?? 0,
        low: judged ? b.low : null,
        high: judged ? b.high : null,
        expected: b.expected ?? 0,
      };
    }),
    roundsPerHour: inputs.hourly
      .filter((h) => h.tableId === table.id)
      .map((h) => ({ hour: h.hour, rounds: h.rounds })),
    rescans,
    outages,
    alerts: [
      ...alertsOf(returns, rescans, outages, hours),
      // Each other currency's bets are judged alone (their alerts name the currency).
      ...currencies.slice(1).flatMap((c) =>
        alertsOf(c.returns, null, null, hours).map((a) => ({
          ...a,
          message: `${c.currency} bets: ${a.message}`,
        })),
      ),
    ],
  };
}

const pct = (share: number) => `${(share * 100).toFixed(2)}%`;

function alertsOf(
  returns: ReturnBand,
  rescans: RescanBand | null,
  outages: number | null,
  hours: number,
): HoldAlert[] {
  const alerts: HoldAlert[] = [];
  if (returns.verdict === 'above' || returns.verdict === 'below') {
    const where = returns.verdict === 'above' ? 'above' : 'below';
    alerts.push({
      kind: returns.verdict === 'above' ? 'return-above' : 'return-below',
      message:
        `Players' return ${pct(returns.observed!)} over the last ${returns.rounds} rounds is ${where} ` +
        `the 99% band ${pct(returns.low!)}–${pct(returns.high!)} around the expected ${pct(returns.expected!)}: ` +
        `check the shoe, the scanner and the table's settings`,
    });
  }
  if (rescans?.verdict === 'above') {
    alerts.push({
      kind: 'rescans-above',
      message: `Rescan rate ${pct(rescans.rate!)} is above the ${pct(rescans.norm)} norm (99% sure): check the reader and the cards`,
    });
  }
  if (outages) {
    alerts.push({
      kind: 'scanner-outages',
      message: `The scanner was disconnected or stale ${outages} ${outages === 1 ? 'time' : 'times'} in the last ${hours} hours: check its cable and power`,
    });
  }
  return alerts;
}

/**
 * One result per round from the per-bet-type rows of one currency (oldest first), rated bet types
 * only.
 */
function roundResults(
  game: GameKind,
  rows: readonly RoundStakes[],
  currency: string,
): { rated: RoundResult[]; unratedStake: number } {
  const byRound = new Map<string, RoundResult>();
  let unratedStake = 0;
  for (const row of rows) {
    if (row.currency !== currency) continue;
    const figure = expectedReturn(game, row.betType);
    if (figure === undefined) {
      unratedStake += row.stake;
      continue;
    }
    const round = byRound.get(row.roundId) ?? {
      roundId: row.roundId,
      endedAt: row.endedAt,
      stake: 0,
      net: 0,
      expectedNet: 0,
      maxReturned: 0,
    };
    round.stake += row.stake;
    round.net += row.net;
    round.expectedNet += row.stake * (figure - 1);
    round.maxReturned += row.stake * (maxReturn(game, row.betType) ?? Infinity);
    byRound.set(row.roundId, round);
  }
  return { rated: [...byRound.values()], unratedStake };
}
