import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBuildInfo } from './build-info';
import type { DrivenTableReading, ScannerReading } from './operational-metrics';
import { MetricSources, StudioMetrics } from './studio-metrics';

const NOW = new Date('2026-12-02T10:00:00.000Z');

function studio(over: Partial<MetricSources> = {}) {
  const world = {
    scanners: [
      { tableId: 'pd-1', status: 'connected' },
      { tableId: 'bj-1', status: 'disconnected' },
      { tableId: 'bj-2', status: 'connected', drivenElsewhere: true },
    ] as ScannerReading[],
    driven: [
      { tableId: 'pd-1', paused: false, leaseExpiresAt: new Date(NOW.getTime() + 7_000) },
      { tableId: 'bj-1', paused: true, leaseExpiresAt: new Date(NOW.getTime() + 9_500) },
    ] as DrivenTableReading[],
    inbox: [{ tableId: 'pd-1', waiting: 3 }] as Array<{ tableId: string; waiting: number }>,
    databaseFails: false,
  };
  const fromDatabase =
    <T>(value: () => T) =>
    async () => {
      if (world.databaseFails) throw new Error('connect ECONNREFUSED');
      return value();
    };
  const metrics = new StudioMetrics({
    lag: fromDatabase(() => ({ pending: 4, oldestPendingAt: null, oldestPendingAgeMs: 1500 })),
    relayCounters: () => ({
      publishedEvents: 0,
      publishedBatches: 0,
      failedBatches: 0,
      publishMillis: 0,
    }),
    publisher: { status: () => ({ enabled: false, connected: false }) },
    inboxWaiting: fromDatabase(() => world.inbox),
    hold: fromDatabase(() => [
      { tableId: 'pd-1', verdict: 'above', observed: 2, expected: 0.9875, low: 1.7, high: 2 },
      { tableId: 'bj-1', verdict: 'too-few-rounds', observed: 1, expected: 0.99, low: 0, high: 3 },
    ]),
    operational: {
      build: { version: '1.2.3', commit: 'abc123' },
      tableIds: ['pd-1', 'bj-1', 'bj-2'],
      leaseTtlMs: 10_000,
      now: () => NOW,
      scanners: () => world.scanners,
      drivenTables: () => world.driven,
      pool: () => ({ total: 5, idle: 2, waiting: 1 }),
    },
    ...over,
  });
  const lines = async () => (await metrics.exposition()).text.split('\n');
  return { world, metrics, lines };
}

describe('the operational metrics', () => {
  it("exposes each table's scanner state, pause, lease age, inbox and hold, bounded by the tables", async () => {
    const { lines, metrics } = studio();
    metrics.operational!.rescans.inc({ table: 'pd-1' }, 2);
    const text = await lines();
    for (const line of [
      'studio_build_info{version="1.2.3",commit="abc123"} 1',
      'studio_scanner_state{table="pd-1",state="connected"} 1',
      'studio_scanner_state{table="pd-1",state="disconnected"} 0',
      'studio_scanner_state{table="bj-1",state="disconnected"} 1',
      'studio_scanner_rescans_total{table="pd-1"} 2',
      'studio_scanner_rescans_total{table="bj-2"} 0',
      'studio_tables_driven 2',
      'studio_table_paused{table="pd-1"} 0',
      'studio_table_paused{table="bj-1"} 1',
      'studio_table_lease_age_seconds{table="pd-1"} 3',
      'studio_table_lease_age_seconds{table="bj-1"} 0.5',
      'studio_table_lease_ttl_seconds 10',
      'studio_database_up 1',
      'studio_db_pool_connections 5',
      'studio_db_pool_idle_connections 2',
      'studio_db_pool_waiting_requests 1',
      'studio_command_inbox_waiting{table="pd-1"} 3',
      'studio_command_inbox_waiting{table="bj-2"} 0',
      'studio_hold_verdict{table="pd-1",verdict="above"} 1',
      'studio_hold_verdict{table="pd-1",verdict="inside"} 0',
      'studio_hold_verdict{table="bj-1",verdict="too-few-rounds"} 1',
      'studio_hold_observed_return_ratio{table="pd-1"} 2',
      'studio_hold_band_low_ratio{table="pd-1"} 1.7',
      'studio_outbox_pending_events 4',
    ]) {
      expect(text).toContain(line);
    }
    // A table driven elsewhere: its owner reports its reader; no band while too few rounds.
    expect(text.some((l) => l.startsWith('studio_scanner_state{table="bj-2"'))).toBe(false);
    expect(text.some((l) => l.startsWith('studio_hold_band_low_ratio{table="bj-1"'))).toBe(false);
  });

  it('still answers during a database outage: up 0, the last database figures kept', async () => {
    const { world, lines } = studio();
    await lines();
    world.databaseFails = true;
    world.inbox = [{ tableId: 'pd-1', waiting: 99 }];
    const text = await lines();
    expect(text).toContain('studio_database_up 0');
    expect(text).toContain('studio_command_inbox_waiting{table="pd-1"} 3');
    expect(text).toContain('studio_outbox_pending_events 4');
    // Figures that need no database go on.
    expect(text).toContain('studio_tables_driven 2');
    world.databaseFails = false;
    expect(await lines()).toContain('studio_command_inbox_waiting{table="pd-1"} 99');
  });

  it('gives up on a database that does not answer within the deadline', async () => {
    const { lines } = studio({
      databaseDeadlineMs: 50,
      inboxWaiting: () => new Promise(() => undefined),
    });
    expect(await lines()).toContain('studio_database_up 0');
  });

  it('exposes no gauge named like a counter (promtool check metrics)', async () => {
    const text = (await studio().lines()).join('\n');
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)];
    expect(types.length).toBeGreaterThan(30);
    expect(types.filter(([, name, type]) => name.endsWith('_total') && type !== 'counter')).toEqual(
      [],
    );
  });
});

describe('readBuildInfo', () => {
  it('reads the version from package.json and the commit from REVISION beside it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'build-info-'));
    try {
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'live-dealer-studio', version: '4.5.6' }),
      );
      expect(readBuildInfo(join(dir, 'dist', 'src', 'metrics'))).toEqual({
        version: '4.5.6',
        commit: 'unknown',
      });
      writeFileSync(join(dir, 'REVISION'), '0123abcd\n');
      expect(readBuildInfo(join(dir, 'dist'))).toEqual({ version: '4.5.6', commit: '0123abcd' });
      writeFileSync(join(dir, 'REVISION'), 'not { a commit }');
      expect(readBuildInfo(dir).commit).toBe('unknown');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
