import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EventPublisher } from '../outbox/event-publisher';
import type { OutboxLag, RelayCounters } from '../outbox/outbox-relay';
import { settleWithin } from '../common/settle-within';
import { DatabaseSnapshot } from './database-snapshot';
import { HoldReading, OperationalMetrics, OperationalSources } from './operational-metrics';

/** What the metrics read at scrape time (the relay, the producer, the command intake if any). */
export interface MetricSources {
  lag(): Promise<OutboxLag>;
  relayCounters(): RelayCounters;
  publisher: Pick<EventPublisher, 'status'>;
  /** Absent when Kafka or its command intake is switched off. */
  intakeCounters?: () => IntakeCounts;
  /** Refused sign-ins and the throttles and lockouts they set off, by event (the security log's). */
  signInEvents?: () => Readonly<Record<string, number>>;
  /** Commands waiting in the tables' inboxes, per table (database). */
  inboxWaiting?: () => Promise<Array<{ tableId: string; waiting: number }>>;
  /** The hold monitoring verdicts (database). */
  hold?: () => Promise<HoldReading[]>;
  /** Scanners, driven tables, pool, build: absent in tests of the first exposition. */
  operational?: Omit<OperationalSources, 'database'>;
  /** Deadline of the database reads of a scrape (ms). */
  databaseDeadlineMs?: number;
  /** The hold figures are read again at most this often (ms; 30 s by default). */
  holdRefreshMs?: number;
  /** Tables driven per live instance, by the leases (TablesLifecycle.distribution). */
  tablesByInstance?: () => Promise<Record<string, number>>;
}

/**
 * prom-client's default gauges that end in `_total` (`promtool check metrics` flags them: only
 * counters may): the same figures are the sums of `nodejs_active_handles{type}`,
 * `nodejs_active_requests{type}` and `nodejs_active_resources{type}`.
 */
const TOTAL_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

export interface IntakeCounts {
  accepted: number;
  rejected: number;
  deadLettered: number;
  duplicates: number;
}

/**
 * The service's Prometheus registry. The metric names and meanings of the first, hand-written
 * exposition are kept (dashboards depend on them); prom-client adds the process metrics
 * (`process_*`, `nodejs_*`: CPU, memory, event-loop lag, GC) and the histograms.
 */
export class StudioMetrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly roundDuration: Histogram<'game'>;
  readonly rounds: Counter<'table' | 'game' | 'outcome'>;
  readonly automaticPauses: Counter<'table' | 'cause'>;
  readonly supervisorActions: Counter<'table' | 'action'>;
  /** Absent without `operational` sources. */
  readonly operational?: OperationalMetrics;
  private readonly database: DatabaseSnapshot;

  constructor(sources: MetricSources) {
    collectDefaultMetrics({ register: this.registry });
    for (const name of TOTAL_GAUGES) this.registry.removeSingleMetric(name);
    const registers = [this.registry];
    this.database = new DatabaseSnapshot(
      {
        lag: () => sources.lag(),
        inboxWaiting: sources.inboxWaiting ?? (async () => []),
        hold: sources.hold ?? (async () => []),
      },
      () => (sources.operational?.now() ?? new Date()).getTime(),
      sources.databaseDeadlineMs,
      sources.holdRefreshMs,
    );
    const lag = () => this.database.snapshot.lag;
    new Gauge({
      name: 'studio_outbox_pending_events',
      help: 'Events in the outbox not yet acknowledged by Kafka.',
      registers,
      collect() {
        const read = lag();
        if (read) this.set(read.pending);
      },
    });
    new Gauge({
      name: 'studio_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest unpublished event (0 when none).',
      registers,
      collect() {
        const read = lag();
        if (read) this.set((read.oldestPendingAgeMs ?? 0) / 1000);
      },
    });
    if (sources.operational) {
      const database = this.database;
      this.operational = new OperationalMetrics(
        { ...sources.operational, database: () => database.snapshot },
        registers,
      );
    }
    const tablesByInstance = sources.tablesByInstance;
    const deadlineMs = sources.databaseDeadlineMs ?? 1_500;
    if (tablesByInstance) {
      new Gauge({
        name: 'studio_lease_tables_by_owner',
        help: 'Tables leased by each live instance, as the database sees it (every instance reports the whole spread).',
        labelNames: ['owner'],
        registers,
        // A database that does not answer within the scrape's deadline keeps the last figures:
        // the scrape itself must still answer (studio_database_up says the database is away).
        collect: async function () {
          const read = await settleWithin(tablesByInstance(), deadlineMs, undefined).catch(
            () => undefined,
          );
          if (!read) return;
          this.reset();
          for (const [owner, n] of Object.entries(read)) this.set({ owner }, n);
        },
      });
    }
    new Gauge({
      name: 'studio_kafka_publisher_connected',
      help: '1 when the event producer is connected, 0 otherwise (also when Kafka is off).',
      registers,
      collect() {
        this.set(sources.publisher.status().connected ? 1 : 0);
      },
    });
    const relayCounter = (name: string, help: string, read: (c: RelayCounters) => number) =>
      mirroredCounter(name, help, registers, () => read(sources.relayCounters()));
    relayCounter(
      'studio_outbox_published_events_total',
      'Events published by this instance.',
      (c) => c.publishedEvents,
    );
    relayCounter(
      'studio_outbox_published_batches_total',
      'Batches published by this instance.',
      (c) => c.publishedBatches,
    );
    relayCounter(
      'studio_outbox_failed_batches_total',
      'Batches whose publication failed (retried from the outbox).',
      (c) => c.failedBatches,
    );
    relayCounter(
      'studio_outbox_publish_seconds_total',
      'Time spent publishing successful batches.',
      (c) => c.publishMillis / 1000,
    );
    this.intakeMetrics(sources, registers);
    this.signInMetrics(sources, registers);

    this.httpDuration = new Histogram({
      name: 'studio_http_request_duration_seconds',
      help: 'HTTP requests from arrival to answer, by route: platform bets and decisions are the command-to-answer time.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.roundDuration = new Histogram({
      name: 'studio_round_duration_seconds',
      help: 'Rounds from start to completion or void, by game.',
      labelNames: ['game'],
      buckets: [5, 10, 20, 30, 45, 60, 90, 120, 180, 300, 600],
      registers,
    });
    this.rounds = new Counter({
      name: 'studio_rounds_total',
      help: 'Rounds ended on tables this instance drives, by outcome (completed or voided).',
      labelNames: ['table', 'game', 'outcome'],
      registers,
    });
    this.automaticPauses = new Counter({
      name: 'studio_automatic_pauses_total',
      help: 'Tables paused by the service itself (restart mid-round, escalated rescan).',
      labelNames: ['table', 'cause'],
      registers,
    });
    this.supervisorActions = new Counter({
      name: 'studio_supervisor_actions_total',
      help: 'Supervisor actions applied (pause, resume, void, correction, end of shoe...).',
      labelNames: ['table', 'action'],
      registers,
    });
  }

  /** The exposition text and its content type, for GET /metrics. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    await this.database.refresh();
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  private signInMetrics(sources: MetricSources, registers: Registry[]): void {
    const events = sources.signInEvents;
    if (!events) return;
    new Counter({
      name: 'studio_sign_in_events_total',
      help: 'Refused sign-ins by event, as the security log writes them: unknown-user, wrong-password, user-disabled; the throttles throttled-per-address, delayed, account-slowed; the lockouts locked-out, locked-out-now; account-ceiling-reached.',
      labelNames: ['event'],
      registers,
      collect() {
        this.reset();
        for (const [event, n] of Object.entries(events())) this.inc({ event }, n);
      },
    });
  }

  private intakeMetrics(sources: MetricSources, registers: Registry[]): void {
    // Registered only with an intake, as before: no zero series for a feature that is off.
    const intake = sources.intakeCounters;
    if (!intake) return;
    new Counter({
      name: 'studio_kafka_commands_total',
      help: 'Platform commands read from Kafka, by outcome.',
      labelNames: ['outcome'],
      registers,
      collect() {
        const k = intake();
        this.reset();
        this.inc({ outcome: 'accepted' }, k.accepted);
        this.inc({ outcome: 'rejected' }, k.rejected);
        this.inc({ outcome: 'dead-lettered' }, k.deadLettered);
      },
    });
    mirroredCounter(
      'studio_kafka_duplicate_commands_total',
      'Commands whose id was answered before (the stored answer was sent again).',
      registers,
      () => intake().duplicates,
    );
  }
}

/** A counter whose value is kept elsewhere (the relay's, the intake's) and read at scrape time. */
function mirroredCounter(
  name: string,
  help: string,
  registers: Registry[],
  read: () => number,
): Counter {
  return new Counter({
    name,
    help,
    registers,
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}
