import { Logger } from '@nestjs/common';
import { SecurityLog } from '../auth/security-log';
import { StudioMetrics } from './studio-metrics';

function metricsWith(
  intake?: () => { accepted: number; rejected: number; deadLettered: number; duplicates: number },
) {
  return new StudioMetrics({
    lag: async () => ({ pending: 7, oldestPendingAt: null, oldestPendingAgeMs: 2500 }),
    relayCounters: () => ({
      publishedEvents: 40,
      publishedBatches: 3,
      failedBatches: 1,
      publishMillis: 1500,
    }),
    publisher: { status: () => ({ enabled: true, connected: true }) },
    ...(intake ? { intakeCounters: intake } : {}),
  });
}

describe('StudioMetrics', () => {
  it('keeps the names, types and values of the first exposition (dashboards depend on them)', async () => {
    const { text, contentType } = await metricsWith().exposition();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const line of [
      '# TYPE studio_outbox_pending_events gauge',
      'studio_outbox_pending_events 7',
      '# HELP studio_outbox_oldest_pending_age_seconds Age of the oldest unpublished event (0 when none).',
      'studio_outbox_oldest_pending_age_seconds 2.5',
      'studio_kafka_publisher_connected 1',
      '# TYPE studio_outbox_published_events_total counter',
      'studio_outbox_published_events_total 40',
      'studio_outbox_published_batches_total 3',
      'studio_outbox_failed_batches_total 1',
      'studio_outbox_publish_seconds_total 1.5',
    ]) {
      expect(text.split('\n')).toContain(line);
    }
    expect(text).not.toContain('studio_kafka_commands_total');
  });

  it('adds process metrics and the histograms', async () => {
    const metrics = metricsWith();
    metrics.roundDuration.observe({ game: 'pok-deng' }, 42);
    const { text } = await metrics.exposition();
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(text).toContain('# TYPE studio_http_request_duration_seconds histogram');
    expect(text).toContain('studio_round_duration_seconds_bucket{le="45",game="pok-deng"} 1');
    expect(text).toContain('studio_round_duration_seconds_bucket{le="30",game="pok-deng"} 0');
  });

  it('mirrors the command intake counters when the intake runs, scrape after scrape', async () => {
    const counts = { accepted: 5, rejected: 2, deadLettered: 1, duplicates: 4 };
    const metrics = metricsWith(() => counts);
    await metrics.exposition();
    counts.accepted = 9;
    const lines = (await metrics.exposition()).text.split('\n');
    expect(lines).toContain('studio_kafka_commands_total{outcome="accepted"} 9');
    expect(lines).toContain('studio_kafka_commands_total{outcome="rejected"} 2');
    expect(lines).toContain('studio_kafka_commands_total{outcome="dead-lettered"} 1');
    expect(lines).toContain('studio_kafka_duplicate_commands_total 4');
  });

  it("counts the security log's sign-in refusals, throttles and lockouts by event", async () => {
    const security = new SecurityLog();
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const metrics = new StudioMetrics({
      lag: async () => ({ pending: 0, oldestPendingAt: null, oldestPendingAgeMs: null }),
      relayCounters: () => ({
        publishedEvents: 0,
        publishedBatches: 0,
        failedBatches: 0,
        publishMillis: 0,
      }),
      publisher: { status: () => ({ enabled: false, connected: false }) },
      signInEvents: () => security.counts,
    });
    security.signInRefused('floor', '10.0.0.7', 'delayed');
    security.signInRefused('floor', '10.0.0.7', 'delayed');
    security.signInRefused('floor', '10.0.0.7', 'locked-out-now');
    security.signInRefused('floor', '10.0.0.8', 'account-slowed');
    const lines = (await metrics.exposition()).text.split('\n');
    expect(lines).toContain('studio_sign_in_events_total{event="delayed"} 2');
    expect(lines).toContain('studio_sign_in_events_total{event="locked-out-now"} 1');
    expect(lines).toContain('studio_sign_in_events_total{event="account-slowed"} 1');
    expect(lines).toContain('studio_sign_in_events_total{event="locked-out"} 0');
    expect(lines).toContain('studio_sign_in_events_total{event="throttled-per-address"} 0');
  });
});
