import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { oneLine } from '../common/one-line';
import type { MachineOutcome } from '../table-core/table-machine';

/** The PostgreSQL channel every instance LISTENs on. */
export const TABLE_CHANGED_CHANNEL = 'studio_table_changed';

/**
 * What changed: `state` a committed transition, `state-action` a transition that also changed the
 * supervisors' action log, `action` the action log alone (a void request waiting for approval).
 */
export type TableChangeKind = 'state' | 'state-action' | 'action';
const KINDS: readonly TableChangeKind[] = ['state', 'state-action', 'action'];

export interface TableChangeNotice {
  tableId: string;
  /** The committed table_state version, when the sender knew it. */
  version?: number;
  kind: TableChangeKind;
}

/** A round's end also lapses its pending void requests: the action log changes then too. */
export function changeKindOf(outcome: MachineOutcome): TableChangeKind {
  return outcome.writes.supervisorAction || outcome.writes.roundStatus?.ended
    ? 'state-action'
    : 'state';
}

/** `<tableId>:<version>:<kind>`: short (NOTIFY payloads are capped at 8000 bytes), no state. */
export function formatNotice(notice: TableChangeNotice): string {
  return `${notice.tableId}:${notice.version ?? ''}:${notice.kind}`;
}

/** The notice a payload carries, or undefined for a payload this version does not understand. */
export function parseNotice(payload: string | undefined): TableChangeNotice | undefined {
  const parts = (payload ?? '').split(':');
  if (parts.length < 3) return undefined;
  const kind = parts.pop() as TableChangeKind;
  const versionText = parts.pop() ?? '';
  const tableId = parts.join(':');
  const version = versionText === '' ? undefined : Number(versionText);
  if (!tableId || !KINDS.includes(kind)) return undefined;
  if (version !== undefined && !(Number.isInteger(version) && version > 0)) return undefined;
  return { tableId, version, kind };
}

export interface TableChangeHandlers {
  notice(notice: TableChangeNotice): void;
  /** After every (re)connect: notices sent while the connection was down are lost, refresh all. */
  connected(): void;
}

export interface TableChangeNoticesSettings {
  url: string;
  applicationName: string;
  connectTimeoutMs: number;
  /** Wait before reconnecting after the connection is lost. */
  reconnectMs?: number;
}

/**
 * "Table changed" notices between the instances of a studio over PostgreSQL LISTEN/NOTIFY, on one
 * dedicated connection (a pooled one would lose its LISTEN when returned to the pool). It carries
 * no table state: receivers read the stored state, so a lost notice costs a refresh, never a view.
 */
export class TableChangeNotices {
  private readonly logger = new Logger('TableChangeNotices');
  /** The connection being opened or in use; events of an earlier one are ignored. */
  private current?: Client;
  /** Set once `current` is listening. */
  private client?: Client;
  private handlers?: TableChangeHandlers;
  private reconnectTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly settings: TableChangeNoticesSettings) {}

  /** Starts listening; resolves once the first connection is up or has failed (then it retries). */
  async listen(handlers: TableChangeHandlers): Promise<void> {
    this.handlers = handlers;
    await this.connect();
  }

  /** Best effort: a notice that cannot be sent is caught up by the receivers' next refresh. */
  async notify(notice: TableChangeNotice): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      await client.query('SELECT pg_notify($1, $2)', [TABLE_CHANGED_CHANNEL, formatNotice(notice)]);
    } catch (error) {
      this.logger.warn(`Could not announce a change of ${notice.tableId}: ${oneLine(error)}`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.current;
    this.client = this.current = undefined;
    await client?.end().catch(() => undefined);
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
      if (message.channel !== TABLE_CHANGED_CHANNEL) return;
      const notice = parseNotice(message.payload);
      if (notice) this.handlers?.notice(notice);
      else this.logger.warn(`Ignored a table change notice "${message.payload}"`);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${TABLE_CHANGED_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.logger.log('Listening for table changes of the other instances');
    this.handlers?.connected();
  }

  private lost(client: Client, error: unknown): void {
    if (this.closed || client !== this.current || this.reconnectTimer) return;
    this.client = this.current = undefined;
    client.end().catch(() => undefined);
    const wait = this.settings.reconnectMs ?? 1_000;
    this.logger.warn(`Table change notices lost (${oneLine(error)}); reconnecting in ${wait} ms`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, wait);
  }
}

/**
 * The last version of each table pushed to the consoles from the stored state: notices arrive
 * late, twice or out of order, and a view must never go back to an older state.
 */
export class LatestVersions {
  private readonly last = new Map<string, number>();

  /** Whether a notice may bring something newer (a notice without a version always may). */
  mayBeNewer(tableId: string, version: number | undefined): boolean {
    return version === undefined || version > (this.last.get(tableId) ?? 0);
  }

  /** Records a version about to be pushed; false (drop it) unless newer than the last one. */
  accept(tableId: string, version: number): boolean {
    if (version <= (this.last.get(tableId) ?? 0)) return false;
    this.last.set(tableId, version);
    return true;
  }
}
