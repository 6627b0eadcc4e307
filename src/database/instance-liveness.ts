import { Client } from 'pg';
import { endWithin } from './end-within';

/** The advisory-lock namespace (first key) of the instances' liveness locks. */
export const LIVENESS_LOCK_NAMESPACE = 727001;

/** The channel on which the instance that finds another gone says so (the payload: its id). */
export const INSTANCE_GONE_CHANNEL = 'studio_instance_gone';

/** How the liveness connection is made (the service's database URL and a name for pg_stat_activity). */
export interface LivenessConnectionSettings {
  url: string;
  applicationName: string;
  connectTimeoutMs: number;
}

/**
 * One connection of this instance's own that holds a session-level advisory lock keyed by its
 * instance id. PostgreSQL releases the lock the moment the session ends, which a dead process's
 * closed socket ends at once: the other instances read its absence as "that instance is dead".
 * The same connection carries the lease renewals, so that they never queue behind table work in
 * the pool. TCP keepalives on both ends bound how long a silent peer (a partition) keeps it.
 */
export class LivenessSession {
  private client?: Client;
  private broken = false;
  /** Told of each instance another (or this) one found gone: INSTANCE_GONE_CHANNEL, a hint only. */
  onInstanceGone?: (instanceId: string) => void;

  constructor(private readonly settings: LivenessConnectionSettings) {}

  /** Connected, holding the lock, and not known to be broken. */
  get open(): boolean {
    return this.client !== undefined && !this.broken;
  }

  /** The statement running on the session, which the next one waits for. */
  private previous: Promise<unknown> = Promise.resolve();

  /**
   * Connects and takes the lock. False when another live session holds it (another process runs
   * under this instance id); throws when the database cannot be reached.
   */
  async lock(instanceId: string): Promise<boolean> {
    await this.close();
    const client = new Client({
      connectionString: this.settings.url,
      application_name: this.settings.applicationName,
      connectionTimeoutMillis: this.settings.connectTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 1_000,
    });
    client.on('error', () => (this.broken = true));
    client.on('end', () => (this.broken = true));
    this.broken = false;
    await client.connect();
    try {
      // The server probes a silent client too: a partitioned instance's session (and lock) ends
      // within about idle + interval x count seconds, not after the kernel's two hours.
      await client.query(
        `SET tcp_keepalives_idle = 2; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 3`,
      );
      const rows = await client.query<{ locked: boolean }>(
        `SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked`,
        [LIVENESS_LOCK_NAMESPACE, instanceId],
      );
      if (!rows.rows[0]?.locked) {
        await client.end().catch(() => undefined);
        return false;
      }
      client.on('notification', (message) => {
        if (message.channel === INSTANCE_GONE_CHANNEL && message.payload) {
          this.onInstanceGone?.(message.payload);
        }
      });
      await client.query(`LISTEN ${INSTANCE_GONE_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return true;
  }

  /** Runs a statement on the session (renewals, presence); throws when it is not open. */
  async query<T>(sql: string, params: unknown[]): Promise<T[]> {
    if (!this.client || this.broken) throw new Error('The liveness session is not open');
    const client = this.client;
    // One statement at a time on the session (renewals, presence and probes overlap): pg would
    // queue them itself, but warns that it will stop doing so.
    const run = this.previous.then(() => client.query(sql, params));
    this.previous = run.catch(() => undefined);
    return (await run).rows as T[];
  }

  /** Ends the session: the lock goes with it (a graceful stop, after the leases were released). */
  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) await endWithin(client);
  }
}

/** The liveness connection of a service's DataSource: its URL, named apart in pg_stat_activity. */
export function livenessSettingsOf(dataSource: {
  options: object;
}): LivenessConnectionSettings | undefined {
  const options = dataSource.options as {
    url?: string;
    extra?: { application_name?: string; connectionTimeoutMillis?: number };
  };
  if (!options.url) return undefined;
  return {
    url: options.url,
    applicationName: `${options.extra?.application_name ?? 'live-dealer-studio'} liveness`,
    connectTimeoutMs: options.extra?.connectionTimeoutMillis ?? 5_000,
  };
}
