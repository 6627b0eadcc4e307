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

export async function runReadiness(checks: ReadinessCheck[]): Promise<ReadinessReport> {
  const results = await Promise.all(checks.map(async (c) => [c.name, await c.check()] as const));
  const report: ReadinessReport = { status: 'ok', checks: {} };
  for (const [name, result] of results) {
    report.checks[name] = result;
    if (result.status === 'error') report.status = 'error';
  }
  return report;
}
