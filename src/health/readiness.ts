import { settleWithin } from '../common/settle-within';

/** What a bounded wait gives when the answer did not come in time. */
const LATE = Symbol('late');

export type CheckStatus = 'ok' | 'error' | 'disabled';

export interface CheckResult {
  status: CheckStatus;
  message?: string;
  [detail: string]: unknown;
}

export interface ReadinessReport {
  status: 'ok' | 'error';
  checks: Record<string, CheckResult>;
}

/** A named readiness check (database, migrations, Kafka, the command intake, the scanners). */
export interface ReadinessCheck {
  name: string;
  check(): Promise<CheckResult>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/** Where the Kafka command intake stands in its start-up (the platform's starter reports it). */
export interface CommandIntakeState {
  readonly state: 'starting' | 'waiting-for-kafka' | 'running' | 'stopped';
  readonly lastError?: string;
}

/**
 * The Kafka command intake (when enabled): ready once it reads commands. While it waits for the
 * brokers at start-up the relay may already be connected again, so the kafka check alone could
 * say ready while no platform command is read.
 */
export function commandIntakeCheck(intake: CommandIntakeState): ReadinessCheck {
  return {
    name: 'commandIntake',
    async check() {
      switch (intake.state) {
        case 'running':
          return { status: 'ok' };
        case 'starting':
          return { status: 'error', message: 'The command intake is starting' };
        case 'waiting-for-kafka':
          return {
            status: 'error',
            message: `The command intake waits for Kafka${intake.lastError ? `: ${intake.lastError}` : ''}`,
          };
        case 'stopped':
          return { status: 'error', message: 'The command intake has stopped (shutting down)' };
      }
    },
  };
}

/** The tables this instance drives and how all tables are spread over the live instances. */
export interface TableSpread {
  readonly ownedTables: string[];
  distribution(): Promise<Record<string, number>>;
}

/**
 * Informational, never failing: which tables this instance drives and the tables per live
 * instance (by the leases), so an operator sees the spread in /health/ready/details. An
 * instance driving no table is still ready (its share may be zero, or it is taking over). The
 * spread is a database read: one slower than `spreadTimeoutMs` is reported unknown, so that it
 * never runs into the probe's own timeout (which would turn readiness 503 for a detail).
 */
export function tablesCheck(
  instanceId: string,
  tables: TableSpread,
  spreadTimeoutMs = READINESS_CHECK_TIMEOUT_MS / 2,
): ReadinessCheck {
  return {
    name: 'tables',
    async check() {
      const driven = tables.ownedTables;
      const unknown = (why: string) =>
        ({
          status: 'ok',
          instance: instanceId,
          driven,
          message: `the spread is unknown: ${why}`,
        }) as const;
      try {
        const byInstance = await settleWithin(tables.distribution(), spreadTimeoutMs, LATE);
        if (byInstance === LATE) return unknown(`no answer within ${spreadTimeoutMs} ms`);
        return { status: 'ok', instance: instanceId, driven, byInstance };
      } catch (error) {
        return unknown(error instanceof Error ? error.message : String(error));
      }
    },
  };
}

/**
 * How long a readiness check may take: a database that hangs (connections open, no answers) or a
 * lock held elsewhere must turn readiness 503 within a second, not hang the probe with it.
 */
export const READINESS_CHECK_TIMEOUT_MS = 600;

/** A check's run still under way (it is awaited again, not started a second time) and its last result. */
interface CheckMemory {
  running?: Promise<CheckResult>;
  last?: { result: CheckResult; at: Date };
}
const memories = new WeakMap<ReadinessCheck, CheckMemory>();

/**
 * Runs a check with its own short timeout. A check that does not answer in time reports an error
 * naming its last known result; a probe that hangs is not started again (no pile of stuck probes).
 */
export async function boundedCheck(
  check: ReadinessCheck,
  timeoutMs = READINESS_CHECK_TIMEOUT_MS,
): Promise<CheckResult> {
  const memory = memories.get(check) ?? {};
  memories.set(check, memory);
  const running = (memory.running ??= check
    .check()
    .catch((error: unknown): CheckResult => ({ status: 'error', message: String(error) }))
    .then((result) => {
      memory.last = { result, at: new Date() };
      memory.running = undefined;
      return result;
    }));
  const result = await settleWithin(running, timeoutMs, LATE);
  if (result !== LATE) return result;
  const last = memory.last
    ? ` (last known: ${memory.last.result.status} at ${memory.last.at.toISOString()})`
    : '';
  return { status: 'error', message: `no answer within ${timeoutMs} ms${last}` };
}

export async function runReadiness(checks: ReadinessCheck[]): Promise<ReadinessReport> {
  const results = await Promise.all(
    checks.map(async (c) => [c.name, await boundedCheck(c)] as const),
  );
  const report: ReadinessReport = { status: 'ok', checks: {} };
  for (const [name, result] of results) {
    report.checks[name] = result;
    if (result.status === 'error') report.status = 'error';
  }
  return report;
}
