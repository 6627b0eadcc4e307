import { Counter, Gauge, Registry } from 'prom-client';
import type { ScannerConnectionStatus } from '@studio/contracts';
import type { BuildInfo } from './build-info';

/** The states a reader can be in: every one is exposed (0 or 1), so a dashboard sees them all. */
export const SCANNER_STATES: readonly ScannerConnectionStatus[] = [
  'connecting',
  'connected',
  'stale',
  'disconnected',
  'stopped',
];
export const HOLD_VERDICTS = ['too-few-rounds', 'inside', 'above', 'below'] as const;

/** A configured table's reader as this instance sees it. */
export interface ScannerReading {
  tableId: string;
  status: ScannerConnectionStatus;
  /** Another instance drives the table: this one keeps off its reader. */
  drivenElsewhere?: boolean;
}

/** A table this instance drives. */
export interface DrivenTableReading {
  tableId: string;
  paused: boolean;
  /** When the lease this instance holds expires (renewed every third of the TTL). */
  leaseExpiresAt?: Date;
}

export interface HoldReading {
  tableId: string;
  verdict: (typeof HOLD_VERDICTS)[number];
  observed: number | null;
  expected: number | null;
  low: number | null;
  high: number | null;
}

export interface PoolReading {
  total: number;
  idle: number;
  waiting: number;
}

/** What the database says, read once per scrape with a deadline (see DatabaseSnapshot). */
export interface DatabaseReadings {
  inboxWaiting: ReadonlyArray<{ tableId: string; waiting: number }>;
  hold: readonly HoldReading[];
}

/** The operator's first questions, read at scrape time from the modules that know the answers. */
export interface OperationalSources {
  build: BuildInfo;
  /** Every configured table id: the label set of the per-table series. */
  tableIds: readonly string[];
  leaseTtlMs: number;
  scanners(): readonly ScannerReading[];
  drivenTables(): readonly DrivenTableReading[];
  pool(): PoolReading | undefined;
  /** Whether the last database round trip answered, and what it read (undefined when not). */
  database(): { up: boolean; readings?: DatabaseReadings };
  now(): Date;
}

/**
 * Scanner state and rescans per table, paused tables, tables and lease age of this instance,
 * inbox depth, hold verdicts, the database pool and build_info. Label sets are bounded by the
 * configured tables and fixed enumerations: no player, round or command id becomes a label.
 */
export class OperationalMetrics {
  readonly rescans: Counter<'table'>;

  constructor(sources: OperationalSources, registers: Registry[]) {
    new Gauge({
      name: 'studio_build_info',
      help: 'Always 1; the labels say which build runs (version from package.json, commit from REVISION).',
      labelNames: ['version', 'commit'],
      registers,
    }).set({ version: sources.build.version, commit: sources.build.commit }, 1);
    this.rescans = new Counter({
      name: 'studio_scanner_rescans_total',
      help: 'Rescans the table asked the dealer for (a card unreadable, out of place or a duplicate) on tables this instance drives.',
      labelNames: ['table'],
      registers,
    });
    for (const table of sources.tableIds) this.rescans.inc({ table }, 0);
    this.scannerMetrics(sources, registers);
    this.tableMetrics(sources, registers);
    this.databaseMetrics(sources, registers);
  }

  private scannerMetrics(sources: OperationalSources, registers: Registry[]): void {
    new Gauge({
      name: 'studio_scanner_state',
      help: "1 for the reader's current state, 0 for the others, per table with a scanner; tables driven elsewhere are left out (their owner reports them).",
      labelNames: ['table', 'state'],
      registers,
      collect() {
        this.reset();
        for (const scanner of sources.scanners()) {
          if (scanner.drivenElsewhere) continue;
          for (const state of SCANNER_STATES) {
            this.set({ table: scanner.tableId, state }, scanner.status === state ? 1 : 0);
          }
        }
      },
    });
  }

  private tableMetrics(sources: OperationalSources, registers: Registry[]): void {
    new Gauge({
      name: 'studio_tables_driven',
      help: 'Tables this instance drives (holds the lease of).',
      registers,
      collect() {
        this.set(sources.drivenTables().length);
      },
    });
    new Gauge({
      name: 'studio_table_paused',
      help: 'Per table this instance drives: 1 while paused (by a supervisor or the service), else 0.',
      labelNames: ['table'],
      registers,
      collect() {
        this.reset();
        for (const t of sources.drivenTables()) this.set({ table: t.tableId }, t.paused ? 1 : 0);
      },
    });
    const ttlSeconds = sources.leaseTtlMs / 1000;
    new Gauge({
      name: 'studio_table_lease_age_seconds',
      help: "Since this instance last renewed a table's lease (renewed every third of TABLE_LEASE_TTL_MS; at the TTL the table passes to another instance).",
      labelNames: ['table'],
      registers,
      collect() {
        this.reset();
        const now = sources.now().getTime();
        for (const t of sources.drivenTables()) {
          if (!t.leaseExpiresAt) continue;
          const left = (t.leaseExpiresAt.getTime() - now) / 1000;
          this.set({ table: t.tableId }, Math.max(0, ttlSeconds - left));
        }
      },
    });
    new Gauge({
      name: 'studio_table_lease_ttl_seconds',
      help: 'TABLE_LEASE_TTL_MS: a lease not renewed for this long passes to another instance.',
      registers,
    }).set(ttlSeconds);
  }

  private databaseMetrics(sources: OperationalSources, registers: Registry[]): void {
    new Gauge({
      name: 'studio_database_up',
      help: "1 when this instance's last database round trip (at this scrape) answered in time, else 0.",
      registers,
      collect() {
        this.set(sources.database().up ? 1 : 0);
      },
    });
    const pool = (name: string, help: string, read: (p: PoolReading) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const p = sources.pool();
          if (p) this.set(read(p));
        },
      });
    pool('studio_db_pool_connections', 'Connections open in the database pool.', (p) => p.total);
    pool('studio_db_pool_idle_connections', 'Open pool connections not in use.', (p) => p.idle);
    pool(
      'studio_db_pool_waiting_requests',
      'Queries waiting for a pool connection (all in use).',
      (p) => p.waiting,
    );
    new Gauge({
      name: 'studio_command_inbox_waiting',
      help: "Commands stored in a table's inbox and not yet answered (all instances'; the same on every instance).",
      labelNames: ['table'],
      registers,
      collect() {
        const readings = sources.database().readings;
        if (!readings) return; // the database did not answer: the last values stay
        this.reset();
        for (const table of sources.tableIds) this.set({ table }, 0);
        for (const w of readings.inboxWaiting) this.set({ table: w.tableId }, w.waiting);
      },
    });
    holdMetrics(sources, registers);
  }
}

function holdMetrics(sources: OperationalSources, registers: Registry[]): void {
  new Gauge({
    name: 'studio_hold_verdict',
    help: "1 for the table's return verdict over its last 200 rounds (too-few-rounds, inside, above, below its 99% band), 0 for the others; as the hold monitoring console shows it.",
    labelNames: ['table', 'verdict'],
    registers,
    collect() {
      const readings = sources.database().readings;
      if (!readings) return;
      this.reset();
      for (const h of readings.hold) {
        for (const verdict of HOLD_VERDICTS) {
          this.set({ table: h.tableId, verdict }, h.verdict === verdict ? 1 : 0);
        }
      }
    },
  });
  const ratio = (name: string, help: string, read: (h: HoldReading) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['table'],
      registers,
      collect() {
        const readings = sources.database().readings;
        if (!readings) return;
        this.reset();
        for (const h of readings.hold) {
          const value = read(h);
          if (value !== null) this.set({ table: h.tableId }, value);
        }
      },
    });
  ratio(
    'studio_hold_observed_return_ratio',
    'Return to players over the last rounds (1 = 100%).',
    (h) => h.observed,
  );
  ratio(
    'studio_hold_expected_return_ratio',
    "The game's expected return for these stakes.",
    (h) => h.expected,
  );
  ratio(
    'studio_hold_band_low_ratio',
    'Lower end of the 99% band (absent while too few rounds).',
    (h) => (h.verdict === 'too-few-rounds' ? null : h.low),
  );
  ratio(
    'studio_hold_band_high_ratio',
    'Upper end of the 99% band (absent while too few rounds).',
    (h) => (h.verdict === 'too-few-rounds' ? null : h.high),
  );
}
