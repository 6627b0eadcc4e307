import type { Admin } from 'kafkajs';
import type { CommandBacklog, PartitionEnds } from '../tables/command-catch-up';

/** The admin calls asked of the brokers. */
type BacklogAdmin = Pick<Admin, 'connect' | 'disconnect' | 'fetchTopicOffsets' | 'fetchOffsets'>;

/** How long one answer of the brokers serves every table that asks meanwhile. */
const SHARED_MS = 100;

/**
 * The command consumer group's progress, from the brokers: the partitions' end offsets and the
 * group's committed offsets (committed after each batch is applied, or stored in its tables'
 * inboxes, and answered). Tables whose windows close at about the same time share one request.
 */
export class KafkaCommandBacklog implements CommandBacklog {
  private admin?: Promise<BacklogAdmin>;
  private readonly endsNow: Shared<PartitionEnds>;
  private readonly committedNow: Shared<Map<string, bigint>>;
  private closed = false;

  constructor(
    private readonly client: () => { admin(): BacklogAdmin } | null | undefined,
    private readonly groupId: () => string,
    /** The topics the consumer reads now. */
    private readonly topics: () => readonly string[],
  ) {
    this.endsNow = new Shared(() => this.fetchEnds());
    this.committedNow = new Shared(() => this.fetchCommitted());
  }

  ends(): Promise<PartitionEnds> {
    return this.endsNow.get();
  }

  async consumedTo(ends: PartitionEnds): Promise<boolean> {
    const committed = await this.committedNow.get();
    for (const [key, { start, end }] of ends) {
      // Nothing was ever there to read, or the group has committed past what was.
      if (end <= start) continue;
      if ((committed.get(key) ?? -1n) < end) return false;
    }
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    const admin = this.admin;
    this.admin = undefined;
    await (await admin?.catch(() => undefined))?.disconnect().catch(() => undefined);
  }

  private async fetchEnds(): Promise<PartitionEnds> {
    const admin = await this.connected();
    const topics = [...this.topics()];
    // One request per topic (the admin API asks about one at a time), all at once.
    const offsets = await Promise.all(topics.map((topic) => admin.fetchTopicOffsets(topic)));
    const ends = new Map<string, { start: bigint; end: bigint }>();
    topics.forEach((topic, i) => {
      for (const p of offsets[i]) {
        ends.set(`${topic}:${p.partition}`, { start: BigInt(p.low), end: BigInt(p.high) });
      }
    });
    return ends;
  }

  private async fetchCommitted(): Promise<Map<string, bigint>> {
    const admin = await this.connected();
    const committed = new Map<string, bigint>();
    const topics = [...this.topics()];
    if (topics.length === 0) return committed;
    for (const { topic, partitions } of await admin.fetchOffsets({
      groupId: this.groupId(),
      topics,
    })) {
      for (const p of partitions) committed.set(`${topic}:${p.partition}`, BigInt(p.offset));
    }
    return committed;
  }

  /** One admin connection, opened at the first question; a failed one is opened again. */
  private connected(): Promise<BacklogAdmin> {
    const client = this.client();
    if (this.closed || !client) return Promise.reject(new Error('the command consumer is closed'));
    this.admin ??= (async () => {
      const admin = client.admin();
      await admin.connect();
      return admin;
    })();
    this.admin.catch(() => (this.admin = undefined));
    return this.admin;
  }
}

/** One fetch at a time, its answer shared with whoever asks within SHARED_MS of it. */
class Shared<T> {
  private latest?: { at: number; value: Promise<T> };

  constructor(private readonly fetch: () => Promise<T>) {}

  get(): Promise<T> {
    const now = performance.now();
    if (this.latest && now - this.latest.at < SHARED_MS) return this.latest.value;
    const value = this.fetch();
    this.latest = { at: now, value };
    value.catch(() => (this.latest = undefined));
    return value;
  }
}
