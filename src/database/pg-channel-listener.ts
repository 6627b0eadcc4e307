import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { oneLine } from '../common/one-line';
import { endWithin } from './end-within';

export interface ChannelListenerSettings {
  url: string;
  applicationName: string;
  connectTimeoutMs: number;
  /** Wait before reconnecting after the connection is lost. */
  reconnectMs?: number;
}

export interface ChannelHandlers {
  notification(channel: string, payload: string): void;
  /** After every (re)connect: notifications sent while the connection was down are lost. */
  connected(): void;
}

/**
 * PostgreSQL LISTEN on a dedicated connection (a pooled one would lose its LISTEN when returned
 * to the pool), reconnecting after a loss. Notifications are hints: receivers read the database,
 * so a lost one costs a refresh (`connected`), never data.
 */
export class PgChannelListener {
  private readonly logger: Logger;
  /** The connection being opened or in use; events of an earlier one are ignored. */
  private current?: Client;
  /** Set once `current` is listening. */
  private client?: Client;
  private handlers?: ChannelHandlers;
  private reconnectTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly settings: ChannelListenerSettings,
    private readonly channels: readonly string[],
  ) {
    this.logger = new Logger(`Listen ${channels.join(',')}`);
  }

  /** Starts listening; resolves once the first connection is up or has failed (then it retries). */
  async listen(handlers: ChannelHandlers): Promise<void> {
    this.handlers = handlers;
    await this.connect();
  }

  /**
   * Sends notifications on the listening connection, in one statement; a no-op while it is down
   * (they are hints only).
   */
  async notify(channel: string, payloads: readonly string[]): Promise<void> {
    if (payloads.length === 0) return;
    await this.client?.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [
      channel,
      payloads,
    ]);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.current;
    this.client = this.current = undefined;
    if (client) await endWithin(client);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({
      connectionString: this.settings.url,
      application_name: this.settings.applicationName,
      connectionTimeoutMillis: this.settings.connectTimeoutMs,
    });
    this.current = client;
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    client.on('notification', (message) => {
      if (this.channels.includes(message.channel)) {
        this.handlers?.notification(message.channel, message.payload ?? '');
      }
    });
    try {
      await client.connect();
      for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.handlers?.connected();
  }

  private lost(client: Client, error: unknown): void {
    if (this.closed || client !== this.current || this.reconnectTimer) return;
    this.client = this.current = undefined;
    client.end().catch(() => undefined);
    const wait = this.settings.reconnectMs ?? 1_000;
    this.logger.warn(`Notifications lost (${oneLine(error)}); reconnecting in ${wait} ms`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, wait);
  }
}
