import { Logger } from '@nestjs/common';
import type { RequestSession } from '../auth/roles.guard';
import { Clock } from '../clock/clock';
import { oneLine } from '../common/one-line';
import type { TableDefinition } from '../config/tables-config';
import type { OutboxLag } from '../outbox/outbox-relay';
import type { TableScannerState } from '../scanner/scanner.service';
import type { MachineOutcome, TableState } from '../table-core/table-machine';
import { hasWrites } from '../table-core/table-writes';
import { changeKindOf, LatestVersions, TableChangeNotice } from '../history/table-change-notices';
import type { StoredTableState } from '../history/writer/table-state.repository';
import { DRIVEN_ELSEWHERE, storedTableRuntime } from '../tables/stored-table';
import type { RuntimeLookup } from '../tables/table-runtime.registry';
import type { TableRuntime, TransitionListener } from '../tables/table-runtime';
import { consoleCardsSource } from './console-queries';
import type { StoredCard } from './console-cards';
import { consoleTableSnapshot } from './console-snapshot';

/** Where one console's Server-Sent Events go (an HTTP response). */
export interface SseSink {
  write(chunk: string): boolean;
  end(): void;
  /** Bytes written but not yet taken by the client (an HTTP response's writableLength). */
  readonly writableLength?: number;
  /** The request (an HTTP response's `req`): the RolesGuard put the signed-in session on it. */
  readonly req?: object;
  /** True once the connection is closed (an HTTP response's `destroyed`). */
  readonly destroyed?: boolean;
}

export interface StreamSettings {
  /** Heartbeat comment and session re-check interval. */
  heartbeatMs: number;
  outboxLagMs: number;
  /** Open streams per user; a further one is refused (the open ones keep running). */
  maxStreamsPerUser: number;
}

function sessionOf(sink: SseSink): RequestSession | undefined {
  return (sink.req as { studioSession?: RequestSession } | undefined)?.studioSession;
}

/**
 * A console that stops reading (a frozen tab, a dead Wi-Fi link the TCP stack has not noticed)
 * would otherwise make the service buffer its views without bound: past this it is disconnected,
 * and the page, once it reads again, reconnects and gets the current view first.
 */
export const MAX_UNREAD_BYTES = 1024 * 1024;

export interface ConsoleStreamSources {
  tables: readonly TableDefinition[];
  registry: {
    get(tableId: string): RuntimeLookup;
    onTransition(listener: TransitionListener): void;
    /** A table's card readings waiting for the database changed (TableRuntime.databaseWait). */
    onDatabaseWait(listener: (tableId: string) => void): void;
  };
  scanners: {
    states(): TableScannerState[];
    onStatus(listener: (state: TableScannerState) => void): () => void;
  };
  /** Void requests waiting for a second supervisor, recorded outside any transition. */
  voidRequests?: { onRequestRecorded(listener: (tableId: string) => void): void };
  /** Tables driven by other instances: their stored state (absent: only local tables are live). */
  stored?: { load(tableId: string): Promise<StoredTableState | undefined> };
  loadCards(state: TableState | undefined): Promise<StoredCard[]>;
  outboxLag(): Promise<OutboxLag>;
  clock: Clock;
}

export interface StreamScope {
  /** One table (dealer and supervisor views) or every table (supervisor overview). */
  tableId?: string;
  /** Supervisors see face-down cards; nobody else does. */
  privileged: boolean;
}

interface Subscriber {
  sink: SseSink;
  scope: StreamScope;
  session?: RequestSession;
  heartbeat: NodeJS.Timeout;
  lag?: NodeJS.Timeout;
}

/** Events whose news a console shows beyond the table's state (all of them public events). */
const ANNOUNCED = new Set(['SupervisorAlert', 'RescanRequired', 'RoundVoided', 'BetsRefunded']);

/**
 * Pushes each table's console view over Server-Sent Events: the current view first, then a new one
 * after every committed transition and every scanner status change, and a heartbeat comment so
 * proxies and the page can tell a quiet table from a dead connection. Views are built once per
 * change and role (not per console) and are the role-filtered table view: a dealer's stream never
 * carries a face-down card.
 */
export class ConsoleStreamHub {
  private readonly logger = new Logger('Consoles');
  private readonly subscribers = new Set<Subscriber>();
  /** Cards of each table's current round, reloaded when a transition touches cards. */
  private readonly cards = new Map<string, { key: string; rows: StoredCard[] }>();
  /** Per table, so that views of one table go out in the order of its transitions. */
  private readonly chains = new Map<string, Promise<void>>();
  /** Per table driven elsewhere: the last stored version its views were pushed at. */
  private readonly remoteVersions = new LatestVersions();
  /** Tables with a stored-state refresh queued and not yet started (notices coalesce). */
  private readonly refreshQueued = new Map<string, { acted: boolean }>();
  private closing = false;
  private sourcesOrNothing?: ConsoleStreamSources;

  private readonly options: StreamSettings;

  constructor(options: Partial<StreamSettings> = {}) {
    this.options = { heartbeatMs: 15_000, outboxLagMs: 5_000, maxStreamsPerUser: 8, ...options };
  }

  /**
   * Connects the hub to the tables and scanners (once every provider of the service exists): from
   * now on each committed transition and each scanner status change reaches the consoles.
   */
  start(sources: ConsoleStreamSources): void {
    this.sourcesOrNothing = sources;
    sources.registry.onTransition((tableId, outcome) => this.changed(tableId, outcome));
    sources.scanners.onStatus((state) => this.changed(state.tableId));
    sources.registry.onDatabaseWait((tableId) => this.changed(tableId));
    sources.voidRequests?.onRequestRecorded((tableId) => this.actionRecorded(tableId));
  }

  private get sources(): ConsoleStreamSources {
    if (!this.sourcesOrNothing) throw new Error('The console stream hub has not been started');
    return this.sourcesOrNothing;
  }

  /** False before start-up completes and once shutdown has begun (new streams get 503). */
  get accepting(): boolean {
    return !this.closing && this.sourcesOrNothing !== undefined;
  }

  get connections(): number {
    return this.subscribers.size;
  }

  /**
   * Starts a stream and returns how to stop it; `false` when the service is shutting down or when
   * the user already holds `maxStreamsPerUser` streams: then the new stream gets a `refused` event
   * (error `too-many-streams`, with a long `retry:` so the page does not hammer) and is ended; the
   * user's open streams keep running.
   */
  async subscribe(sink: SseSink, scope: StreamScope): Promise<(() => void) | false> {
    if (!this.accepting) return false;
    const session = sessionOf(sink);
    if (session && this.streamsOf(session.userId) >= this.options.maxStreamsPerUser) {
      this.refuse(sink);
      return false;
    }
    const subscriber: Subscriber = {
      sink,
      scope,
      session,
      heartbeat: setInterval(() => this.beat(subscriber), this.options.heartbeatMs),
    };
    this.subscribers.add(subscriber);
    const tableIds = scope.tableId ? [scope.tableId] : this.sources.tables.map((t) => t.id);
    // Through each table's queue, so the first view cannot overtake (and undo) a newer one.
    await Promise.all(
      tableIds.map((tableId) =>
        this.enqueue(tableId, async () => {
          const snapshot = await this.snapshot(tableId, scope.privileged);
          if (snapshot && this.subscribers.has(subscriber)) {
            this.send(subscriber, sse('table', snapshot));
          }
        }),
      ),
    );
    if (!scope.tableId) {
      const pushLag = () =>
        this.sources
          .outboxLag()
          .then((lag) => this.send(subscriber, sse('outbox', lag)))
          .catch((error) => this.logger.warn(`Outbox lag for the consoles: ${oneLine(error)}`));
      await pushLag();
      subscriber.lag = setInterval(() => void pushLag(), this.options.outboxLagMs);
    }
    return () => this.drop(subscriber);
  }

  /** Ends every stream (shutdown): open streams would otherwise hold the HTTP server open. */
  close(): void {
    this.closing = true;
    for (const subscriber of [...this.subscribers]) {
      this.drop(subscriber);
      try {
        subscriber.sink.end();
      } catch {
        // already gone
      }
    }
  }

  private streamsOf(userId: string): number {
    return [...this.subscribers].filter((s) => s.session?.userId === userId).length;
  }

  private refuse(sink: SseSink): void {
    const max = this.options.maxStreamsPerUser;
    try {
      // `retry:` belongs to the same SSE block: the page waits a minute before trying again.
      sink.write('retry: 60000\n');
      sink.write(
        sse('refused', {
          error: 'too-many-streams',
          message: `You already have ${max} live views open; close one and reload`,
        }),
      );
      sink.end();
    } catch {
      // already gone
    }
  }

  /**
   * A heartbeat, then the session check: a stream whose token was logged out, has expired or whose
   * user was disabled gets a `session-ended` event and is closed (the page's reconnect then meets
   * 401). A failed check (database outage) keeps the stream: an outage is not a sign-out.
   */
  private beat(subscriber: Subscriber): void {
    // A client that left before its stream could listen for the close, or while its first views
    // were being built, is never stopped by its controller: without this it stayed forever.
    if (subscriber.sink.destroyed) return this.drop(subscriber);
    this.send(subscriber, ': heartbeat\n\n');
    const session = subscriber.session;
    if (!session || !this.subscribers.has(subscriber)) return;
    session.isActive().then(
      (active) => {
        if (active || !this.subscribers.has(subscriber)) return;
        this.send(subscriber, sse('session-ended', { error: 'session-ended' }));
        this.drop(subscriber);
        try {
          subscriber.sink.end();
        } catch {
          // already gone
        }
      },
      (error) => this.logger.warn(`Console stream session check failed: ${oneLine(error)}`),
    );
  }

  private drop(subscriber: Subscriber): void {
    clearInterval(subscriber.heartbeat);
    if (subscriber.lag) clearInterval(subscriber.lag);
    this.subscribers.delete(subscriber);
  }

  private interested(tableId: string): Subscriber[] {
    return [...this.subscribers].filter((s) => !s.scope.tableId || s.scope.tableId === tableId);
  }

  private changed(tableId: string, outcome?: MachineOutcome): void {
    if (this.interested(tableId).length === 0) {
      this.cards.delete(tableId);
      return;
    }
    // A state announced with no writes was taken up from storage (TableRuntime.reload: a commit's
    // answer was lost), so what it dealt is known only to the stored cards.
    const touchesCards =
      !!outcome &&
      (!hasWrites(outcome.writes) ||
        outcome.writes.cards.length > 0 ||
        outcome.writes.reveals.length > 0 ||
        outcome.writes.corrections.length > 0 ||
        !!outcome.writes.newRound ||
        !!outcome.writes.newShoe ||
        !!outcome.writes.roundStatus);
    const news = (outcome?.writes.events ?? []).filter(
      (e) => e.visibility === 'public' && ANNOUNCED.has(e.type),
    );
    const acted = !!outcome && changeKindOf(outcome) === 'state-action';
    void this.enqueue(tableId, async () => {
      if (touchesCards) this.cards.delete(tableId);
      const views = new Map<boolean, unknown>();
      for (const subscriber of this.interested(tableId)) {
        const privileged = subscriber.scope.privileged;
        if (!views.has(privileged)) {
          views.set(privileged, await this.snapshot(tableId, privileged));
        }
        const view = views.get(privileged);
        if (view) this.send(subscriber, sse('table', view));
        for (const event of news) {
          this.send(subscriber, sse('news', { tableId, type: event.type, payload: event.payload }));
        }
        if (acted && privileged) this.send(subscriber, sse('action', { tableId }));
      }
    });
  }

  /**
   * Another instance changed a table (a LISTEN/NOTIFY notice): the views are rebuilt from the
   * stored state, unless the table is driven here (its own transitions already push its views) or
   * the notice is not newer than what the consoles already have.
   */
  remoteChanged(notice: TableChangeNotice): void {
    const { tableId, version, kind } = notice;
    if (kind === 'action') return this.actionRecorded(tableId);
    if (this.sources.registry.get(tableId).ok || this.interested(tableId).length === 0) return;
    const queued = this.refreshQueued.get(tableId);
    if (queued) queued.acted ||= kind === 'state-action';
    if (queued || !this.remoteVersions.mayBeNewer(tableId, version)) return;
    const refresh = { acted: kind === 'state-action' };
    this.refreshQueued.set(tableId, refresh);
    void this.enqueue(tableId, async () => {
      this.refreshQueued.delete(tableId);
      await this.pushStored(tableId, refresh.acted);
    });
  }

  /** After the notices' connection (re)opened: whatever was announced meanwhile is caught up. */
  refreshRemote(): void {
    for (const table of this.sources.tables) {
      this.remoteChanged({ tableId: table.id, kind: 'state-action' });
    }
  }

  private async pushStored(tableId: string, acted: boolean): Promise<void> {
    if (this.sources.registry.get(tableId).ok) return; // taken over here meanwhile
    const stored = await this.sources.stored?.load(tableId);
    if (!stored || !this.remoteVersions.accept(tableId, stored.version)) return;
    const views = new Map<boolean, unknown>();
    for (const subscriber of this.interested(tableId)) {
      const privileged = subscriber.scope.privileged;
      if (!views.has(privileged)) {
        views.set(privileged, await this.snapshot(tableId, privileged, stored));
      }
      const view = views.get(privileged);
      if (view) this.send(subscriber, sse('table', view));
      if (acted && privileged) this.send(subscriber, sse('action', { tableId }));
    }
  }

  /** A supervisor action recorded without a transition: supervisors reload their action log. */
  private actionRecorded(tableId: string): void {
    void this.enqueue(tableId, async () => {
      for (const subscriber of this.interested(tableId)) {
        if (subscriber.scope.privileged) this.send(subscriber, sse('action', { tableId }));
      }
    });
  }

  /** Runs work on the table's queue: views of a table go out in the order of its changes. */
  private enqueue(tableId: string, work: () => Promise<void>): Promise<void> {
    const next = (this.chains.get(tableId) ?? Promise.resolve())
      .then(work)
      .catch((error) => this.logger.warn(`Console update of ${tableId} failed: ${oneLine(error)}`));
    this.chains.set(tableId, next);
    return next;
  }

  /**
   * The view of a table for one role: from its runtime when driven here, else from its stored
   * state (given, or loaded now), built by the same functions with the same hidden-card rules.
   */
  private async snapshot(tableId: string, privileged: boolean, given?: StoredTableState) {
    const table = this.sources.tables.find((t) => t.id === tableId);
    if (!table) return undefined;
    const lookup = this.sources.registry.get(tableId);
    let runtime:
      | (Pick<TableRuntime, 'snapshot' | 'machine'> & Partial<Pick<TableRuntime, 'databaseWait'>>)
      | undefined;
    let storedVersion: number | undefined;
    if (lookup.ok) runtime = lookup.runtime;
    else {
      const stored = given ?? (await this.sources.stored?.load(tableId));
      if (stored) runtime = storedTableRuntime(table, stored.state);
      storedVersion = stored?.version;
    }
    const state = runtime?.snapshot;
    const source = consoleCardsSource(state);
    // No outcome says whether another instance's change touched the cards: reload per version.
    const key = `${source.of}:${source.id}:${storedVersion ?? 'here'}`;
    let cached = this.cards.get(tableId);
    if (!cached || cached.key !== key) {
      cached = { key, rows: await this.sources.loadCards(state) };
      this.cards.set(tableId, cached);
    }
    const view = consoleTableSnapshot({
      table,
      runtime,
      scanner: this.sources.scanners.states().find((s) => s.tableId === tableId),
      cards: cached.rows,
      cardsOf: source.of,
      privileged,
      now: this.sources.clock.now(),
    });
    return storedVersion === undefined ? view : { ...view, ...DRIVEN_ELSEWHERE };
  }

  private send(subscriber: Subscriber, chunk: string): void {
    try {
      subscriber.sink.write(chunk);
      const unread = subscriber.sink.writableLength ?? 0;
      if (unread > MAX_UNREAD_BYTES) {
        this.logger.warn(
          `A console stopped reading (${unread} bytes unread): its stream is ended, it reconnects`,
        );
        this.drop(subscriber);
        subscriber.sink.end();
      }
    } catch (error) {
      this.logger.warn(`A console stream failed: ${oneLine(error)}`);
      this.drop(subscriber);
    }
  }
}

/** One Server-Sent Event: JSON.stringify never yields a line break, so one data line suffices. */
export function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
