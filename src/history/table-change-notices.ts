import { Logger } from '@nestjs/common';
import { ChannelListenerSettings, PgChannelListener } from '../database/pg-channel-listener';
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

export type TableChangeNoticesSettings = ChannelListenerSettings & {
  /**
   * Least time between two NOTIFY statements (default 50 ms): under load the notices of that time
   * go out in one statement instead of one statement per database round trip (hundreds a second
   * at 20 tables, each a round trip on the service's thread and a transaction on the server). A
   * console of another instance's table is that much later, which no one watching it can see.
   */
  minIntervalMs?: number;
};

/** The part of PgChannelListener the notices use (a fake one in unit tests). */
export type ChannelSender = Pick<PgChannelListener, 'listen' | 'notify' | 'close'>;

/**
 * "Table changed" notices between the instances of a studio over PostgreSQL LISTEN/NOTIFY, on one
 * dedicated connection (PgChannelListener). It carries no table state: receivers read the stored
 * state, so a lost notice costs a refresh, never a view.
 */
export class TableChangeNotices {
  private readonly logger = new Logger('TableChangeNotices');
  private readonly listener: ChannelSender;
  /** Notices not sent yet: the latest per table and kind (receivers read the stored state). */
  private readonly pending = new Map<string, TableChangeNotice>();
  private sending = false;
  private readonly minIntervalMs: number;
  /** When the last statement was sent (performance.now(): an interval, not a time of day). */
  private lastSentAt = -Infinity;

  constructor(settings: TableChangeNoticesSettings, listener?: ChannelSender) {
    this.listener = listener ?? new PgChannelListener(settings, [TABLE_CHANGED_CHANNEL]);
    this.minIntervalMs = settings.minIntervalMs ?? 50;
  }

  /** Starts listening; resolves once the first connection is up or has failed (then it retries). */
  listen(handlers: TableChangeHandlers): Promise<void> {
    return this.listener.listen({
      notification: (_channel, payload) => {
        const notice = parseNotice(payload);
        if (notice) handlers.notice(notice);
        else this.logger.warn(`Ignored a table change notice "${payload}"`);
      },
      connected: () => {
        this.logger.log('Listening for table changes of the other instances');
        handlers.connected();
      },
    });
  }

  /**
   * Best effort: a notice that cannot be sent is caught up by the receivers' next refresh. One
   * statement at a time on the connection, and at most one per minIntervalMs: the notices that
   * arrive meanwhile go out together in the next one, a table's newer notice replacing its older
   * one (it says all the older said). A notice after a quiet spell goes out at once.
   */
  async notify(notice: TableChangeNotice): Promise<void> {
    this.pending.set(`${notice.tableId}:${notice.kind}`, notice);
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.pending.size > 0) {
        // Looked at again after the timer: Node starts a timer from the event loop's cached time,
        // which a busy loop leaves behind the clock, so a timer can fire early (89 ms of 100 seen).
        for (;;) {
          const wait = this.lastSentAt + this.minIntervalMs - performance.now();
          if (wait <= 0) break;
          await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
        }
        const batch = [...this.pending.values()];
        this.pending.clear();
        this.lastSentAt = performance.now();
        try {
          await this.listener.notify(TABLE_CHANGED_CHANNEL, batch.map(formatNotice));
        } catch (error) {
          this.logger.warn(
            `Could not announce changes of ${batch.length} table(s): ${oneLine(error)}`,
          );
        }
      }
    } finally {
      this.sending = false;
    }
  }

  close(): Promise<void> {
    return this.listener.close();
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
