import { Controller, Get, Header } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { CommandIntakeHandler } from '../platform/platform-kafka.module';
import { OutboxRelay } from './outbox-relay';
import { EventPublisher } from './event-publisher';

interface Metric {
  name: string;
  help: string;
  type: 'gauge' | 'counter';
  value: number;
  labels?: Record<string, string>;
}

/** Prometheus text exposition format (version 0.0.4). */
export function renderPrometheus(metrics: Metric[]): string {
  const lines: string[] = [];
  const described = new Set<string>();
  for (const m of metrics) {
    if (!described.has(m.name)) {
      lines.push(`# HELP ${m.name} ${m.help}`, `# TYPE ${m.name} ${m.type}`);
      described.add(m.name);
    }
    const labels = Object.entries(m.labels ?? {})
      .map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)
      .join(',');
    lines.push(`${m.name}${labels ? `{${labels}}` : ''} ${Number.isFinite(m.value) ? m.value : 0}`);
  }
  return `${lines.join('\n')}\n`;
}

/** GET /metrics: outbox lag, relay and command-intake counters for Prometheus scraping. */
@Controller()
export class MetricsController {
  constructor(
    private readonly relay: OutboxRelay,
    private readonly publisher: EventPublisher,
    private readonly modules: ModuleRef,
  ) {}

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async metrics(): Promise<string> {
    const lag = await this.relay.lag();
    const c = this.relay.counters;
    const metrics: Metric[] = [
      {
        name: 'studio_outbox_pending_events',
        help: 'Events in the outbox not yet acknowledged by Kafka.',
        type: 'gauge',
        value: lag.pending,
      },
      {
        name: 'studio_outbox_oldest_pending_age_seconds',
        help: 'Age of the oldest unpublished event (0 when none).',
        type: 'gauge',
        value: (lag.oldestPendingAgeMs ?? 0) / 1000,
      },
      {
        name: 'studio_kafka_publisher_connected',
        help: '1 when the event producer is connected, 0 otherwise (also when Kafka is off).',
        type: 'gauge',
        value: this.publisher.status().connected ? 1 : 0,
      },
      {
        name: 'studio_outbox_published_events_total',
        help: 'Events published by this instance.',
        type: 'counter',
        value: c.publishedEvents,
      },
      {
        name: 'studio_outbox_published_batches_total',
        help: 'Batches published by this instance.',
        type: 'counter',
        value: c.publishedBatches,
      },
      {
        name: 'studio_outbox_failed_batches_total',
        help: 'Batches whose publication failed (retried from the outbox).',
        type: 'counter',
        value: c.failedBatches,
      },
      {
        name: 'studio_outbox_publish_seconds_total',
        help: 'Time spent publishing successful batches.',
        type: 'counter',
        value: c.publishMillis / 1000,
      },
    ];
    const intake = this.intake();
    if (intake) {
      const k = intake.intake.counters;
      const commands = (outcome: string, value: number): Metric => ({
        name: 'studio_kafka_commands_total',
        help: 'Platform commands read from Kafka, by outcome.',
        type: 'counter',
        value,
        labels: { outcome },
      });
      metrics.push(
        commands('accepted', k.accepted),
        commands('rejected', k.rejected),
        commands('dead-lettered', k.deadLettered),
        {
          name: 'studio_kafka_duplicate_commands_total',
          help: 'Commands whose id was answered before (the stored answer was sent again).',
          type: 'counter',
          value: k.duplicates,
        },
      );
    }
    return renderPrometheus(metrics);
  }

  private intake(): CommandIntakeHandler | undefined {
    try {
      return this.modules.get(CommandIntakeHandler, { strict: false });
    } catch {
      return undefined; // Kafka or its command intake is switched off
    }
  }
}
