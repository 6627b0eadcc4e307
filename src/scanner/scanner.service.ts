import { Logger } from '@nestjs/common';
import { ScannerConnectionStatus } from '@studio/contracts';
import { cardCode, cardFromIndex } from '@studio/cards';
import { ScannerReading } from '@studio/scanner-protocol';
import { rmSync } from 'node:fs';
import { findSocat } from '@studio/virtual-shoe';
import { Clock, IdGenerator } from '../clock/clock';
import { oneLine } from '../common/one-line';
import type { TableDefinition } from '../config/tables-config';
import type { ReadingRecord } from '../use-cases/common/tables.port';
import { SerialScannerAdapter } from './serial-scanner-adapter';
import type { ScannerSettings } from './scanner-settings';
import { ScannerStatusEvents, ScannerStatusReporter } from './scanner-status';
import { isTcpPath } from './tcp-port';
import {
  mockSink,
  openTransport,
  PtyFolder,
  ScannerTransport,
  ScannerTransportKind,
  TRANSPORT_NAMES,
} from './scanner-transport';
import type { ShoeWriter, VirtualShoe } from '@studio/virtual-shoe';
import { shoeWriter, virtualShoe } from './virtual-shoe-feed';

export interface TableScannerState {
  tableId: string;
  port: string;
  wireFormat: string;
  virtual: boolean;
  transport: ScannerTransportKind;
  status: ScannerConnectionStatus;
  since: string;
  reason: string;
  reconnectAttempts: number;
  /**
   * A scanner on a device (a serial path or a device server's tcp://…) or a built-in virtual shoe
   * is opened only by the instance driving its table: set while another instance drives it and
   * this one keeps off (no socat pair, no adapter, so no stale warning either).
   */
  drivenElsewhere?: true;
}

/** Where the readings no table applies are stored, in arrival order (the history's recorder). */
export interface ScannerReadingStore {
  record(record: ReadingRecord): unknown;
  flush(limitMs?: number): Promise<void>;
}

export interface ScannerServiceDeps {
  /** Heartbeats and status frames, and every reading when no table takes them (`apply`). */
  recorder: ScannerReadingStore;
  statusEvents: ScannerStatusEvents;
  clock: Clock;
  ids: IdGenerator;
  /**
   * Where the readings a table applies go (cards, unrecognised and invalid frames), not stored
   * yet: the table's transition stores each in its own commit (ApplyReading). Without it they
   * are stored as they are.
   */
  apply?: (record: ReadingRecord) => void;
  /**
   * Sees the frames a table does not apply (heartbeats, status frames): after a takeover their
   * numbers alone can prove that no frame was lost while no instance drove the table.
   */
  observe?: (tableId: string, reading: ScannerReading) => void;
  /** How long a stop waits for readings a database outage holds back (readingsFlushLimitMs). */
  flushLimitMs?: number;
  /** Where socat lives; null forces the in-process mock fallback. */
  socatPath?: string | null;
  /** Whether this instance drives a table now (device scanners connect only then). */
  drivenHere?: (tableId: string) => boolean;
}

type ScannedTable = TableDefinition & { scanner: ScannerSettings };

interface RunningScanner {
  table: ScannedTable;
  /** Opened when this instance starts driving the table (kept for a hosted TCP shoe). */
  transport?: ScannerTransport;
  adapter?: SerialScannerAdapter;
  /**
   * Opened only while this instance drives the table: every device and every virtual shoe
   * except one hosted on its own TCP port (a device server other instances may be reading).
   */
  ownerOnly: boolean;
  attached: boolean;
  state: TableScannerState;
  shoe?: VirtualShoe;
  writer?: ShoeWriter;
  statusChain: Promise<void>;
  /** Opening and closing one after the other: an acquire and a release never interleave. */
  turn: Promise<void>;
}

/** Seconds the start-up waits for the built-in virtual shoes' ports before reporting "not ready". */
const VIRTUAL_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Runs one serial adapter per table that has a scanner: each reading a table applies goes on to
 * it (`apply`), heartbeats and status frames are stored as they are, and status changes are
 * published (ScannerStatusChanged through the outbox). Tables without a device path get the
 * built-in virtual shoe over a socat pseudo-terminal pair (or serialport's in-process mock where
 * socat is missing).
 */
export class ScannerService {
  private readonly logger = new Logger('Scanners');
  private readonly scanners = new Map<string, RunningScanner>();
  private readonly statusListeners = new Set<(state: TableScannerState) => void>();
  private readonly status: ScannerStatusReporter<TableScannerState>;
  private readonly ptys = new PtyFolder();
  private readonly socatPath: string | null;

  constructor(
    private readonly tables: readonly TableDefinition[],
    private readonly deps: ScannerServiceDeps,
  ) {
    this.socatPath = deps.socatPath === undefined ? (findSocat() ?? null) : deps.socatPath;
    this.status = new ScannerStatusReporter(
      deps.statusEvents,
      deps.ids,
      this.statusListeners,
      this.logger,
    );
  }

  /** The consoles redraw a table's scanner status when it changes (every change, routine ones too). */
  onStatus(listener: (state: TableScannerState) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  states(): TableScannerState[] {
    return [...this.scanners.values()].map((s) => ({
      ...s.state,
      reconnectAttempts: s.adapter?.attempts ?? 0,
    }));
  }

  /** Writes the next card of a table's virtual shoe now (demo consoles and the virtual dealer). */
  async dealVirtualCard(tableId: string): Promise<void> {
    const running = this.scanners.get(tableId);
    await running?.turn; // a shoe being opened deals once its reader is connected
    await running?.writer?.dealNext();
  }

  /** The table started shoe number `shoeNumber`: the virtual shoe reshuffles to match. */
  async newVirtualShoe(tableId: string, shoeNumber: number): Promise<void> {
    const running = this.scanners.get(tableId);
    await running?.turn;
    if (running?.writer) await running.writer.newShoe(shoeNumber);
    else running?.shoe?.newShoe(shoeNumber);
  }

  /**
   * After a restart or a lease takeover the table's shoe is part-dealt: the virtual shoe continues
   * shoe number `shoeNumber` without the cards the table counted from it (`counts`, per card index
   * as the table's ingestion keeps them), so that none comes out a second time.
   */
  resumeVirtualShoe(tableId: string, shoeNumber: number, counts: readonly number[]): void {
    const shoe = this.scanners.get(tableId)?.shoe;
    if (!shoe) return;
    const dealt = counts.flatMap((n, index) =>
      Array.from({ length: n }, () => cardCode(cardFromIndex(index))),
    );
    shoe.resume(shoeNumber, dealt);
    this.logger.log(
      `Table ${tableId}: virtual shoe ${shoeNumber} resumed with ${dealt.length} cards already dealt`,
    );
  }

  async start(): Promise<void> {
    const withScanner = this.tables.filter((t): t is ScannedTable => t.scanner !== undefined);
    const needsPty = (t: ScannedTable) =>
      !t.scanner.path && t.scanner.virtualShoe?.tcpPort === undefined;
    if (withScanner.some(needsPty) && !this.socatPath) {
      this.logger.warn(
        "socat is not installed: the virtual shoes feed their tables through serialport's in-process mock binding instead of pseudo-terminals",
      );
    }
    for (const table of withScanner) await this.startTable(table);
    const open = [...this.scanners.values()].filter((s) => s.attached);
    // Connected side by side, not one after the other: hundreds of tables start at once.
    await Promise.all(open.map((s) => this.startWriter(s)));
    const off = withScanner.length - open.length;
    if (off > 0) {
      this.logger.log(
        `${off} of ${withScanner.length} scanners stay closed: other instances drive their tables (each opens when this instance takes its table)`,
      );
    }
  }

  async stop(): Promise<void> {
    for (const s of this.scanners.values()) {
      await s.turn;
      await this.close(s);
      await s.transport?.tcpServer?.close().catch(() => undefined);
      await s.statusChain;
    }
    await this.deps.recorder.flush(this.deps.flushLimitMs);
    if (this.ptys.created) rmSync(this.ptys.created, { recursive: true, force: true });
  }

  /**
   * This instance now drives the table: open its scanner (a device server holds what the shoe
   * sent meanwhile, so a table moving between instances loses no frame) or its virtual shoe.
   * Not awaited by the caller: the shoe's cards wait for it (`turn`), the table does not.
   */
  attach(tableId: string): Promise<void> {
    const running = this.scanners.get(tableId);
    if (!running?.ownerOnly) return Promise.resolve();
    return this.inTurn(running, async () => {
      if (running.attached) return;
      await this.open(running);
      await this.startWriter(running);
    });
  }

  /** Another instance drives the table now (or this one stops): let go of its scanner or shoe. */
  detach(tableId: string): Promise<void> {
    const running = this.scanners.get(tableId);
    if (!running?.ownerOnly) return Promise.resolve();
    return this.inTurn(running, async () => {
      if (!running.attached) return;
      await this.close(running);
      this.keepOff(running);
    });
  }

  private inTurn(running: RunningScanner, step: () => Promise<void>): Promise<void> {
    const next = running.turn.then(step).catch((error) => {
      this.logger.error(`Scanner of table ${running.table.id}: ${oneLine(error)}`);
    });
    running.turn = next;
    return next;
  }

  private async startTable(table: ScannedTable): Promise<void> {
    const settings = table.scanner;
    const running: RunningScanner = {
      table,
      state: {
        tableId: table.id,
        port: settings.path ?? 'virtual shoe',
        wireFormat: settings.wireFormat,
        virtual: !settings.path,
        transport: settings.path && isTcpPath(settings.path) ? 'tcp' : 'serial',
        status: 'connecting',
        since: this.deps.clock.now().toISOString(),
        reason: 'starting',
        reconnectAttempts: 0,
      },
      statusChain: Promise.resolve(),
      turn: Promise.resolve(),
      ownerOnly: settings.virtualShoe?.tcpPort === undefined,
      attached: false,
    };
    if (settings.virtualShoe) {
      running.shoe = virtualShoe({ ...settings, virtualShoe: settings.virtualShoe });
    }
    this.scanners.set(table.id, running);
    if (running.ownerOnly && !(this.deps.drivenHere?.(table.id) ?? true)) {
      this.keepOff(running);
      return;
    }
    await this.inTurn(running, () => this.open(running));
  }

  /** Opens the transport (a virtual shoe's pty pair only now) and starts a new adapter on it. */
  private async open(running: RunningScanner): Promise<void> {
    const { table } = running;
    const settings = table.scanner;
    if (!running.transport) {
      const transport = await openTransport(table.id, settings, Boolean(this.socatPath), this.ptys);
      running.transport = transport;
      Object.assign(running.state, { port: transport.path, transport: transport.kind });
      const shoe = settings.virtualShoe;
      this.logger.log(
        `Table ${table.id}: ${settings.wireFormat} reader on ${transport.path}` +
          (shoe
            ? ` fed by the virtual shoe (seed ${shoe.seed}, ${TRANSPORT_NAMES[transport.kind]})`
            : ''),
      );
    }
    running.attached = true;
    delete running.state.drivenElsewhere;
    running.adapter = this.adapterFor(running, running.transport);
    running.adapter.start();
    if (settings.virtualShoe && running.shoe) {
      running.writer = shoeWriter(
        table.id,
        { ...settings, virtualShoe: settings.virtualShoe },
        running.shoe,
        running.transport,
        mockSink(() => running.adapter!),
        this.logger,
      );
    }
  }

  /** A virtual shoe deals once its reader is connected (its first frames would be lost). */
  private async startWriter(running: RunningScanner): Promise<void> {
    if (!running.writer || !running.adapter) return;
    await running.adapter.waitUntilConnected(VIRTUAL_CONNECT_TIMEOUT_MS);
    running.writer.start();
  }

  /**
   * Stops the shoe's writer, then the adapter (the last readings reach the table and are
   * stored), then a virtual shoe's pty pair: nothing of it runs while another instance drives.
   */
  private async close(running: RunningScanner): Promise<void> {
    await running.writer?.stop().catch(() => undefined);
    running.writer = undefined;
    if (running.attached) await running.adapter?.stop();
    running.attached = false;
    await this.deps.recorder.flush(this.deps.flushLimitMs);
    const pty = running.transport?.pty;
    if (running.ownerOnly) running.transport = undefined; // opened again by the next owner here
    await pty?.stop().catch(() => undefined);
  }

  /** A new adapter for this table's device (an adapter is started once and stopped once). */
  private adapterFor(running: RunningScanner, transport: ScannerTransport): SerialScannerAdapter {
    const settings = running.table.scanner;
    return new SerialScannerAdapter(
      {
        path: transport.path,
        wireFormat: settings.wireFormat,
        line: {
          baudRate: settings.baudRate,
          dataBits: settings.dataBits,
          parity: settings.parity,
          stopBits: settings.stopBits,
        },
        decoder: {
          maxFrameBytes: settings.maxFrameBytes,
          aliases: settings.aliases,
          lineEnding: settings.lineEnding,
        },
        heartbeatTimeoutMs: settings.heartbeatTimeoutMs,
        reconnectInitialDelayMs: settings.reconnectInitialDelayMs,
        reconnectMaxDelayMs: settings.reconnectMaxDelayMs,
        now: () => this.deps.clock.now(),
        openPort: transport.openPort,
      },
      {
        reading: (reading) => this.onReading(running, reading),
        status: (change) => {
          running.statusChain = this.status.changed(running.state, change, running.statusChain);
        },
      },
    );
  }

  private keepOff(running: RunningScanner): void {
    Object.assign(running.state, {
      status: 'stopped',
      since: this.deps.clock.now().toISOString(),
      reason: 'the table is driven by another instance, which reads this scanner',
      reconnectAttempts: 0,
      drivenElsewhere: true,
    });
  }

  /**
   * A reading the table applies (cards, unrecognised and invalid frames) goes to it, to be stored
   * by the transition that applies it; heartbeats and status frames change nothing at a table and
   * are stored as they are.
   */
  private onReading(running: RunningScanner, reading: ScannerReading): void {
    const tableId = running.table.id;
    const record: ReadingRecord = {
      tableId,
      port: running.state.port,
      wireFormat: running.state.wireFormat,
      reading,
      outcome: 'recorded',
    };
    if (reading.kind !== 'heartbeat') {
      this.logger.debug(
        `Table ${tableId}: ${reading.kind} reading, ${reading.raw.length} bytes (no card in a log: it may be face down)`,
      );
    }
    const apply = this.deps.apply;
    if (apply && reading.kind !== 'heartbeat' && reading.kind !== 'status') {
      apply(record);
      return;
    }
    this.deps.observe?.(tableId, reading);
    this.deps.recorder.record(record);
  }
}
