import { until } from '../../test/support/until';
import { SystemClock } from '../clock/clock';
import type { DataSource } from 'typeorm';
import { EventPublisher, OutgoingMessage, PublisherStatus } from './event-publisher';
import type { OutboxRow } from './outbox-envelope';
import { OutboxRelay } from './outbox-relay';
import type { OutboxBacklog, OutboxRelayStore, RelayLease } from './outbox-relay-store';

/** The outbox in memory with per-table progress, and a log of what the relay asked for, in order. */
class FakeOutbox implements OutboxRelayStore {
  readonly progress = new Map<string, number>();
  readonly log: string[] = [];
  readonly failures: string[][] = [];
  readonly marks: Array<Map<string, number>> = [];
  leaderElsewhere = false;
  failMarkOnce = false;
  leasesOpen = 0;

  constructor(readonly rows: OutboxRow[]) {}

  async tryLead(): Promise<RelayLease | null> {
    if (this.leaderElsewhere) return null;
    this.leasesOpen += 1;
    return this.lease();
  }

  isPublished(row: OutboxRow): boolean {
    return Number(row.seq) <= (this.progress.get(row.tableId) ?? 0);
  }

  get publishedCount(): number {
    return this.rows.filter((r) => this.isPublished(r)).length;
  }

  private lease(): RelayLease {
    return {
      read: async (limit, readUpTo) => {
        this.log.push('read');
        return this.rows
          .filter((r) => !this.isPublished(r) && Number(r.seq) > (readUpTo.get(r.tableId) ?? 0))
          .slice(0, limit);
      },
      markPublished: async (upTo) => {
        if (this.failMarkOnce) {
          this.failMarkOnce = false;
          throw new Error('connection lost');
        }
        this.log.push(`mark ${[...upTo].map(([t, seq]) => `${t}:${seq}`).join(' ')}`);
        this.marks.push(new Map(upTo));
        upTo.forEach((seq, t) => this.progress.set(t, Math.max(seq, this.progress.get(t) ?? 0)));
      },
      recordFailure: async (ids) => {
        this.failures.push([...ids]);
      },
      end: async () => {
        this.leasesOpen -= 1;
      },
    };
  }

  async backlog(): Promise<OutboxBacklog> {
    return { pending: this.rows.length - this.publishedCount, oldest: null };
  }
}

class FakePublisher extends EventPublisher {
  readonly enabled = true;
  readonly sent: Array<{ topic: string; messages: OutgoingMessage[] }> = [];
  failAtSend = -1;
  private calls = 0;
  /** As the contract says: after a failed send, every send fails untried until connect(). */
  private failed = false;
  constructor(private readonly log: string[]) {
    super();
  }
  async connect(): Promise<void> {
    this.failed = false;
  }
  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    const n = this.calls++;
    this.log.push(`send ${JSON.parse(messages[0].value).eventId} start`);
    // Let the relay run ahead while the broker "acknowledges".
    await new Promise((resolve) => setImmediate(resolve));
    if (this.failed) throw new Error('not sent: an earlier send failed');
    if (n === this.failAtSend) {
      this.failed = true;
      throw new Error('broker down');
    }
    this.sent.push({ topic, messages });
    this.log.push(`send ${JSON.parse(messages[0].value).eventId} done`);
  }
  async prepareTopics(): Promise<void> {}
  status(): PublisherStatus {
    return { enabled: true, connected: true };
  }
  async disconnect(): Promise<void> {}
}

function rows(count: number): OutboxRow[] {
  return Array.from({ length: count }, (_, i) => ({
    id: String(i + 1),
    eventId: `e${i + 1}`,
    topic: 'events',
    tableId: `t${i % 3}`,
    roundId: null,
    seq: String(Math.floor(i / 3) + 1),
    type: 'CardDealt',
    schemaVersion: 1,
    occurredAt: '2026-01-01T00:00:00.000Z',
    payload: '{"n": 1}',
  }));
}

function setUp(count: number, batchSize = 10, pollIntervalMs = 10) {
  const outbox = new FakeOutbox(rows(count));
  const publisher = new FakePublisher(outbox.log);
  const config = { batchSize, pollIntervalMs, maxBackoffMs: 10 * pollIntervalMs };
  const relay = new OutboxRelay(
    {} as DataSource,
    publisher,
    config,
    new SystemClock(),
    ['events'],
    outbox,
  );
  const sentIds = () =>
    publisher.sent.flatMap((s) => s.messages.map((m) => JSON.parse(m.value).eventId));
  return { outbox, publisher, relay, sentIds };
}

describe('OutboxRelay pipeline', () => {
  it('publishes every event once, in id order, and marks them all', async () => {
    const { outbox, relay, sentIds } = setUp(35);
    const turn = await relay.relayOnce();
    expect(turn).toEqual({ published: 35, more: false });
    expect(sentIds()).toEqual(rows(35).map((r) => r.eventId));
    expect(outbox.publishedCount).toBe(35);
    // One progress row per table and batch: ids 1-10 are seqs 1-4 of t0 and 1-3 of t1 and t2.
    expect(outbox.marks[0]).toEqual(
      new Map([
        ['t0', 4],
        ['t1', 3],
        ['t2', 3],
      ]),
    );
    expect(relay.counters).toMatchObject({ publishedEvents: 35, publishedBatches: 4 });
    expect(outbox.leasesOpen).toBe(0);
  });

  it('reads the next batch while the current one is being sent', async () => {
    const { outbox, relay } = setUp(25);
    await relay.relayOnce();
    const log = outbox.log;
    // The second read is asked for before the first send is acknowledged.
    expect(log.indexOf('read', 1)).toBeLessThan(log.indexOf('send e1 done'));
    // Marks follow their own send, and never before it.
    expect(log.indexOf('mark t0:4 t1:3 t2:3')).toBeGreaterThan(log.indexOf('send e1 done'));
    expect(log.indexOf('send e11 start')).toBeLessThan(log.indexOf('send e21 start'));
  });

  it('asks for the next batch to be sent before the current one is acknowledged', async () => {
    const { outbox, relay } = setUp(30);
    await relay.relayOnce();
    const log = outbox.log;
    expect(log.indexOf('send e11 start')).toBeLessThan(log.indexOf('send e1 done'));
    // Still marked one after the other, each after its own acknowledgement.
    expect(log.indexOf('mark t0:4 t1:3 t2:3')).toBeGreaterThan(log.indexOf('send e1 done'));
    expect(log.indexOf('mark t1:7 t2:6 t0:7')).toBeGreaterThan(log.indexOf('send e11 done'));
    expect(log.indexOf('mark t0:4 t1:3 t2:3')).toBeLessThan(log.indexOf('mark t1:7 t2:6 t0:7'));
  });

  it('after a failed send, publishes the same event ids again from the failed batch on', async () => {
    const { outbox, publisher, relay, sentIds } = setUp(30);
    publisher.failAtSend = 1;
    await expect(relay.relayOnce()).rejects.toThrow('broker down');
    expect(outbox.failures).toEqual([
      rows(30)
        .slice(10, 20)
        .map((r) => r.id),
    ]);
    expect(relay.counters.failedBatches).toBe(1);
    expect(outbox.leasesOpen).toBe(0);
    publisher.failAtSend = -1;
    await relay.relayOnce();
    expect(sentIds()).toEqual(rows(30).map((r) => r.eventId));
  });

  it('keeps backing off after a failed publish however many commits notify it', async () => {
    const { publisher, relay, sentIds } = setUp(30, 10, 200);
    publisher.failAtSend = 0;
    relay.start();
    try {
      await until(() => relay.counters.failedBatches === 1);
      const tried = publisher.sent.length + relay.counters.failedBatches;
      for (let i = 0; i < 5; i++) relay.notify();
      // The back-off after the first failure is 400 ms: no attempt before it ends.
      await new Promise((r) => setTimeout(r, 150));
      expect(publisher.sent.length + relay.counters.failedBatches).toBe(tried);
      await until(() => sentIds().length === 30, 3_000);
    } finally {
      await relay.stop();
    }
  });

  it('after a lost mark, republishes that batch (at least once, never skipped)', async () => {
    const { outbox, relay, sentIds } = setUp(20);
    outbox.failMarkOnce = true;
    await expect(relay.relayOnce()).rejects.toThrow('connection lost');
    await relay.relayOnce();
    const ids = sentIds();
    expect(new Set(ids)).toEqual(new Set(rows(20).map((r) => r.eventId)));
    expect(ids.filter((id) => id === 'e1')).toHaveLength(2);
    expect(outbox.publishedCount).toBe(20);
  });

  it('publishes nothing while another instance leads', async () => {
    const { outbox, relay, sentIds } = setUp(5);
    outbox.leaderElsewhere = true;
    expect(await relay.relayOnce()).toEqual({ published: 0, more: false });
    expect(sentIds()).toEqual([]);
  });

  it('stop() lets the batch in flight be sent and marked, and reads no further', async () => {
    const { outbox, relay } = setUp(50);
    relay.start();
    await new Promise<void>((resolve) => {
      const poll = () =>
        outbox.log.some((l) => l.startsWith('send')) ? resolve() : setImmediate(poll);
      poll();
    });
    await relay.stop();
    expect(outbox.publishedCount).toBeGreaterThan(0);
    expect(outbox.publishedCount).toBeLessThan(50);
    expect(outbox.publishedCount % 10).toBe(0);
    expect(outbox.leasesOpen).toBe(0);
  });
});
