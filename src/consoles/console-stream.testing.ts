/** What the console stream hub's specs share: a real Pok Deng table stepped by hand, a recording sink. */
import { CardCode, parseCardCode } from '@studio/cards';
import { DEFAULT_INGESTION_RULES } from '@studio/scanner-protocol';
import type { Clock } from '../clock/clock';
import type { TableDefinition } from '../config/tables-config';
import { PokDengAdapter } from '../games/pok-deng/pok-deng.adapter';
import type { TableScannerState } from '../scanner/scanner.service';
import {
  initialTableState,
  MachineOutcome,
  TableInput,
  TableMachine,
  TableSettings,
  TableState,
} from '../table-core/table-machine';
import type { TransitionListener } from '../tables/table-runtime';
import type { StoredCard } from './console-cards';
import { ConsoleStreamHub, SseSink, StreamSettings } from './console-stream.hub';

export const table = {
  id: 'pd-1',
  name: 'Pok Deng 1',
  game: 'pok-deng',
  currency: 'THB',
} as TableDefinition;
export const settings: TableSettings = {
  tableId: 'pd-1',
  game: 'pok-deng',
  currency: 'THB',
  bettingWindowMs: 15_000,
  roundIntervalMs: 3_000,
  limits: { player: { min: 10, max: 100_000 }, pair: { min: 10, max: 10_000 } },
  ingestion: DEFAULT_INGESTION_RULES,
};

/** A real Pok Deng table machine, stepped by hand; the cards it writes stand in for round_cards. */
export class PlayedTable {
  readonly machine = new TableMachine(settings, new PokDengAdapter({ bettingWindowMs: 15_000 }));
  state: TableState = initialTableState(settings, 8);
  now = Date.UTC(2026, 10, 29, 12, 0, 0);
  readonly stored: StoredCard[] = [];
  private ids = 0;

  step(input: TableInput): MachineOutcome {
    const outcome = this.machine.step(this.state, input, {
      now: this.now,
      newId: () => `id-${++this.ids}`,
    });
    this.state = outcome.state;
    if (outcome.writes.newRound) this.stored.length = 0;
    for (const r of outcome.writes.reveals) {
      const row = this.stored.find((c) => c.slot === r.slot);
      if (row) row.revealedAt = new Date(this.now).toISOString();
    }
    for (const c of outcome.writes.cards) {
      this.stored.push({
        slot: c.slot,
        card: c.card,
        faceDown: c.faceDown,
        revealedAt: c.faceDown ? null : new Date(this.now).toISOString(),
      });
    }
    return outcome;
  }

  read(code: string): MachineOutcome {
    this.now += 500;
    const card = parseCardCode(code)!;
    return this.step({
      type: 'reading',
      readingId: null,
      reading: {
        kind: 'card',
        card,
        code: code as CardCode,
        raw: new Uint8Array(),
        receivedAt: this.now,
      },
    });
  }

  fireDueTimers(): void {
    for (const t of [...this.state.timers].sort((a, b) => a.dueAt - b.dueAt)) {
      this.now = Math.max(this.now, t.dueAt);
      this.step({ type: 'timer', name: t.name, token: t.token });
    }
  }
}

export class RecordingSink implements SseSink {
  readonly chunks: string[] = [];
  ended = false;
  /** Set to make the sink a connection the client has closed. */
  destroyed = false;
  /** Set to make the sink a client that reads nothing (every byte stays buffered). */
  stalled = false;
  writableLength = 0;
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    if (this.stalled) this.writableLength += Buffer.byteLength(chunk);
    return !this.stalled;
  }
  end(): void {
    this.ended = true;
  }
  events(name: string): Array<Record<string, unknown>> {
    return this.chunks
      .filter((c) => c.startsWith(`event: ${name}\n`))
      .map((c) => JSON.parse(c.split('\n')[1].slice('data: '.length)));
  }
}

/** Closed after each test, so a failed one leaves no heartbeat timer holding jest open. */
export const openHubs: ConsoleStreamHub[] = [];
export function closeOpenHubs(): void {
  openHubs.splice(0).forEach((hub) => hub.close());
}

export function hubFor(
  played: PlayedTable,
  options: Partial<StreamSettings> = { heartbeatMs: 60_000, outboxLagMs: 60_000 },
  /** Stands in for the round_cards query (a copy of the cards stored at the time of the call). */
  loadCards: () => Promise<StoredCard[]> = async () => played.stored.map((c) => ({ ...c })),
) {
  const listeners: TransitionListener[] = [];
  const requestListeners: Array<(tableId: string) => void> = [];
  const waitListeners: Array<(tableId: string) => void> = [];
  let databaseWait: { since: string; readings: number } | null = null;
  const scanner: TableScannerState = {
    tableId: 'pd-1',
    port: '/dev/ttyUSB0',
    wireFormat: 'line',
    virtual: false,
    transport: 'serial',
    status: 'connected',
    since: '2026-11-29T12:00:00.000Z',
    reason: 'port open',
    reconnectAttempts: 0,
  };
  const clock: Clock = { now: () => new Date(played.now) };
  const hub = new ConsoleStreamHub(options);
  openHubs.push(hub);
  hub.start({
    tables: [table],
    registry: {
      get: () => ({
        ok: true,
        runtime: { snapshot: played.state, machine: played.machine, databaseWait } as never,
      }),
      onTransition: (listener) => listeners.push(listener),
      onDatabaseWait: (listener) => waitListeners.push(listener),
    },
    scanners: { states: () => [scanner], onStatus: () => () => undefined },
    voidRequests: { onRequestRecorded: (listener) => requestListeners.push(listener) },
    loadCards,
    outboxLag: async () => ({ pending: 3, oldestPendingAt: null, oldestPendingAgeMs: 1200 }),
    clock,
  });
  const announce = async (outcome: MachineOutcome) => {
    for (const l of listeners) l('pd-1', outcome);
    await new Promise((r) => setTimeout(r, 10));
  };
  const recordVoidRequest = async () => {
    for (const l of requestListeners) l('pd-1');
    await new Promise((r) => setTimeout(r, 10));
  };
  /** The table's card readings waiting for the database change (TableRuntime.databaseWait). */
  const waitForDatabase = async (wait: typeof databaseWait) => {
    databaseWait = wait;
    for (const l of waitListeners) l('pd-1');
    await new Promise((r) => setTimeout(r, 10));
  };
  return { hub, announce, recordVoidRequest, waitForDatabase };
}

/** Shoe burnt (3C shown, KD 4H 9S burnt), round 1: round burn 2D, then P1 TC and P2 6C face down. */
export function dealtRound(): { played: PlayedTable; last: MachineOutcome } {
  const played = new PlayedTable();
  played.step({ type: 'start' });
  for (const c of ['3C', 'KD', '4H', '9S']) played.read(c);
  played.fireDueTimers();
  let last = played.read('2D');
  for (const c of ['TC', '6C']) last = played.read(c);
  return { played, last };
}

export const FACE_DOWN = ['"TC"', '"6C"', '"2D"'];
