import { Logger } from '@nestjs/common';
import { ScannerConnectionStatus, ScannerStatusChangedPayload } from '@studio/contracts';
import { cardCode, cardFromIndex } from '@studio/cards';
import { ScannerReading, wireFormat } from '@studio/scanner-protocol';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPortMock } from 'serialport';
import {
  ByteSink,
  findSocat,
  PtyPair,
  SerialPortSink,
  ShoeWriter,
  TcpShoeServer,
  VirtualShoe,
} from '@studio/virtual-shoe';
import { Clock, IdGenerator } from '../clock/clock';
import { oneLine } from '../common/one-line';
import type { TableDefinition } from '../config/tables-config';
import type { ScannerHistoryRepository } from '../history/scanner-history.repository';
import { ReadingRecord, ScannerReadingRecorder } from './reading-recorder';
import { PortFactory, ScannerStatusChange, SerialScannerAdapter } from './serial-scanner-adapter';
import type { ScannerSettings } from './scanner-settings';
import { isTcpPath } from './tcp-port';

export interface TableScannerState {
  tableId: string;
  port: string;
  wireFormat: string;
  virtual: boolean;
  /**
   * How the bytes reach the adapter: a serial device, a serial device server's TCP socket, or for
   * the virtual shoe a socat pty pair, serialport's in-process mock, or its own TCP server.
   */
  transport: 'serial' | 'tcp' | 'pty' | 'mock';
  status: ScannerConnectionStatus;
  since: string;
  reason: string;
  reconnectAttempts: number;
  /**
   * A scanner on a device (a serial path or a device server's tcp://…) is connected only by the
   * instance driving its table: set while another instance drives it and this one keeps off.
   */
  drivenElsewhere?: true;
}

/**
 * Called for every reading, in order, once it is stored: `readingId` is its scanner_readings row id
 * (null if it could not be stored), so that what becomes of it can be written next to it.
 */
export type ReadingListener = (
  tableId: string,
  reading: ScannerReading,
  readingId: string | null,
) => void;

/**
 * Takes a reading before it is stored (the table's transition stores it in its own commit, or
 * calls `storeAlone`); false leaves it to the recorder and the onReading listeners.
 */
export type ReadingClaim = (
  tableId: string,
  reading: ScannerReading,
  unstored: { record: ReadingRecord; storeAlone(): void },
) => boolean;

interface RunningScanner {
  table: TableDefinition & { scanner: ScannerSettings };
  adapter: SerialScannerAdapter;
  /** A new adapter for this table's device (an adapter is started once and stopped once). */
  makeAdapter(): SerialScannerAdapter;
  /** Connected only while this instance drives the table (a device, not a built-in shoe). */
  ownerOnly: boolean;
  attached: boolean;
  state: TableScannerState;
  writer?: ShoeWriter;
  shoe?: VirtualShoe;
  pty?: PtyPair;
  tcpServer?: TcpShoeServer;
  statusChain: Promise<void>;
}

/** Seconds the start-up waits for the built-in virtual shoes' ports before reporting "not ready". */
const VIRTUAL_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Runs one serial adapter per table that has a scanner, persists every reading with what became of
 * it (for now always `recorded`: rounds are not running yet) and publishes ScannerStatusChanged
 * events through the outbox. Tables without a device path get the built-in virtual shoe over a
 * socat pseudo-terminal pair (or serialport's in-process mock where socat is missing).
 */
export class ScannerService {
  private readonly logger = new Logger('Scanners');
  private readonly scanners = new Map<string, RunningScanner>();
  private readonly listeners = new Set<ReadingListener>();
  private readonly statusListeners = new Set<(state: TableScannerState) => void>();
  private claim?: ReadingClaim;
  private ptyDir?: string;

  constructor(
    private readonly tables: readonly TableDefinition[],
    private readonly history: ScannerHistoryRepository,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    readonly recorder = new ScannerReadingRecorder(history),
    /** Where socat lives; null forces the in-process mock fallback (tests). */
    private readonly socatPath: string | null = findSocat() ?? null,
    /** Whether this instance drives a table now (device scanners connect only then). */
    private readonly drivenHere: (tableId: string) => boolean = () => true,
  ) {}

  /** The orchestrator (a later stage) consumes readings per table from here. */
  onReading(listener: ReadingListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The orchestrator takes the readings a table applies (cards, unrecognised and invalid frames)
   * before they are stored: each is stored by the table transition that applies it, one commit
   * for both. Heartbeats and status frames change nothing at a table and stay with the recorder.
   */
  claimReadings(claim: ReadingClaim): void {
    this.claim = claim;
  }

  /** The consoles redraw a table's scanner status when it changes (every change, routine ones too). */
  onStatus(listener: (state: TableScannerState) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  states(): TableScannerState[] {
    return [...this.scanners.values()].map((s) => ({
      ...s.state,
      reconnectAttempts: s.adapter.attempts,
    }));
  }

  /** Writes the next card of a table's virtual shoe now (demo consoles and tests). */
  async dealVirtualCard(tableId: string): Promise<void> {
    await this.scanners.get(tableId)?.writer?.dealNext();
  }

  /** The table started shoe number `shoeNumber`: the virtual shoe reshuffles to match. */
  async newVirtualShoe(tableId: string, shoeNumber: number): Promise<void> {
    await this.scanners.get(tableId)?.writer?.newShoe(shoeNumber);
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
    const withScanner = this.tables.filter(
      (t): t is TableDefinition & { scanner: ScannerSettings } => t.scanner !== undefined,
    );
    const socat = this.socatPath;
    const needsPty = (t: { scanner: ScannerSettings }) =>
      !t.scanner.path && t.scanner.virtualShoe?.tcpPort === undefined;
    if (withScanner.some(needsPty) && !socat) {
      this.logger.warn(
        "socat is not installed: the virtual shoes feed their tables through serialport's in-process mock binding instead of pseudo-terminals",
      );
    }
    for (const table of withScanner) {
      try {
        await this.startTable(table, Boolean(socat));
      } catch (error) {
        this.logger.error(`Scanner of table ${table.id} could not start: ${oneLine(error)}`);
      }
    }
    const virtual = [...this.scanners.values()].filter((s) => s.state.virtual);
    await Promise.all(virtual.map((s) => s.adapter.waitUntilConnected(VIRTUAL_CONNECT_TIMEOUT_MS)));
    for (const s of virtual) s.writer?.start();
  }

  async stop(): Promise<void> {
    for (const s of this.scanners.values()) {
      await s.writer?.stop().catch(() => undefined);
      if (s.attached) await s.adapter.stop();
      await s.pty?.stop().catch(() => undefined);
      await s.tcpServer?.close().catch(() => undefined);
      await s.statusChain;
    }
    await this.recorder.flush();
    if (this.ptyDir) rmSync(this.ptyDir, { recursive: true, force: true });
  }

  private async startTable(
    table: TableDefinition & { scanner: ScannerSettings },
    socat: boolean,
  ): Promise<void> {
    const settings = table.scanner;
    let path = settings.path;
    let transport: TableScannerState['transport'] = path && isTcpPath(path) ? 'tcp' : 'serial';
    let pty: PtyPair | undefined;
    let tcpServer: TcpShoeServer | undefined;
    let openPort: PortFactory | undefined;
    if (!path) {
      if (settings.virtualShoe?.tcpPort !== undefined) {
        tcpServer = await TcpShoeServer.listen({
          host: settings.virtualShoe.tcpHost,
          port: settings.virtualShoe.tcpPort,
        });
        path = `tcp://${connectHost(tcpServer.host)}:${tcpServer.port}`;
        transport = 'tcp';
      } else if (socat) {
        this.ptyDir ??= mkdtempSync(join(tmpdir(), 'studio-shoes-'));
        pty = await PtyPair.start(this.ptyDir, {
          shoe: `${table.id}.shoe`,
          reader: `${table.id}.reader`,
        });
        path = pty.readerPath;
        transport = 'pty';
      } else {
        path = `/virtual/${table.id}`;
        SerialPortMock.binding.createPort(path, { echo: false, record: false });
        openPort = (p, line) => new SerialPortMock({ path: p, ...line, autoOpen: false });
        transport = 'mock';
      }
    }
    const state: TableScannerState = {
      tableId: table.id,
      port: path,
      wireFormat: settings.wireFormat,
      virtual: !settings.path,
      transport,
      status: 'connecting',
      since: this.clock.now().toISOString(),
      reason: 'starting',
      reconnectAttempts: 0,
    };
    const running: RunningScanner = {
      table,
      state,
      pty,
      tcpServer,
      statusChain: Promise.resolve(),
      adapter: undefined as unknown as SerialScannerAdapter,
      makeAdapter: undefined as unknown as () => SerialScannerAdapter,
      ownerOnly: Boolean(settings.path),
      attached: false,
    };
    running.makeAdapter = () =>
      new SerialScannerAdapter(
        {
          path,
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
          now: () => this.clock.now(),
          openPort,
        },
        {
          reading: (reading) => this.onAdapterReading(running, reading),
          status: (change) => this.onAdapterStatus(running, change),
        },
      );
    running.adapter = running.makeAdapter();
    if (settings.virtualShoe) {
      const shoeSettings = settings.virtualShoe;
      const encoder = wireFormat(settings.wireFormat)!.createEncoder!();
      const sink: ByteSink =
        tcpServer ??
        (pty
          ? new SerialPortSink({ path: pty.shoePath, baudRate: settings.baudRate })
          : mockSink(running.adapter));
      running.shoe = new VirtualShoe({
        seed: shoeSettings.seed,
        decks: shoeSettings.decks,
        encoder,
        misreadRate: shoeSettings.misreadRate,
        noiseRate: shoeSettings.noiseRate,
        duplicateRate: shoeSettings.duplicateRate,
      });
      running.writer = new ShoeWriter({
        shoe: running.shoe,
        sink,
        intervalMs: shoeSettings.intervalMs,
        heartbeatIntervalMs: shoeSettings.heartbeatIntervalMs,
        // A dealer needs a moment to rescan; self-paced shoes keep it within their interval.
        rescanDelayMs:
          shoeSettings.intervalMs > 0
            ? Math.min(400, Math.floor(shoeSettings.intervalMs / 3))
            : 400,
        onError: (error) =>
          this.logger.warn(`Virtual shoe of table ${table.id}: ${oneLine(error)}`),
      });
    }
    this.scanners.set(table.id, running);
    this.logger.log(
      `Table ${table.id}: ${settings.wireFormat} reader on ${path}` +
        (settings.virtualShoe
          ? ` fed by the virtual shoe (seed ${settings.virtualShoe.seed}, ${VIRTUAL_TRANSPORTS[transport]})`
          : ''),
    );
    if (running.ownerOnly && !this.drivenHere(table.id)) {
      this.keepOff(running);
      return;
    }
    running.attached = true;
    running.adapter.start();
  }

  /**
   * This instance now drives the table: connect its device scanner (a device server holds what
   * the shoe sent meanwhile, so a table moving between instances loses no frame).
   */
  attach(tableId: string): void {
    const running = this.scanners.get(tableId);
    if (!running?.ownerOnly || running.attached) return;
    running.attached = true;
    delete running.state.drivenElsewhere;
    running.adapter = running.makeAdapter();
    running.adapter.start();
  }

  /** Another instance drives the table now (or this one stops): let go of its device. */
  async detach(tableId: string): Promise<void> {
    const running = this.scanners.get(tableId);
    if (!running?.ownerOnly || !running.attached) return;
    running.attached = false;
    await running.adapter.stop();
    await this.recorder.flush();
    this.keepOff(running);
  }

  private keepOff(running: RunningScanner): void {
    Object.assign(running.state, {
      status: 'stopped',
      since: this.clock.now().toISOString(),
      reason: 'the table is driven by another instance, which reads this scanner',
      reconnectAttempts: 0,
      drivenElsewhere: true,
    });
  }

  private onAdapterReading(running: RunningScanner, reading: ScannerReading): void {
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
    if (this.claim && reading.kind !== 'heartbeat' && reading.kind !== 'status') {
      const storeAlone = () => void this.recorder.record(record);
      if (this.claim(tableId, reading, { record, storeAlone })) return;
    }
    const stored = this.recorder.record(record);
    if (this.listeners.size === 0) return;
    // Stored first, then handed on: the table can record the outcome against the stored row. The
    // recorder resolves in arrival order, so listeners still see readings in order.
    void stored.then((readingId) => {
      for (const listener of this.listeners) {
        try {
          listener(tableId, reading, readingId);
        } catch (error) {
          this.logger.error(`Reading listener failed for table ${tableId}: ${oneLine(error)}`);
        }
      }
    });
  }

  private onAdapterStatus(running: RunningScanner, change: ScannerStatusChange): void {
    const state = running.state;
    state.status = change.status;
    state.since = change.at.toISOString();
    state.reason = change.reason;
    state.reconnectAttempts = change.reconnectAttempts;
    const message = `Table ${state.tableId} scanner ${change.previousStatus} -> ${change.status}: ${change.reason}`;
    if (change.status === 'disconnected' || change.status === 'stale') this.logger.warn(message);
    else this.logger[change.status === 'stopped' ? 'debug' : 'log'](message); // stopped: with its table
    for (const listener of this.statusListeners) {
      try {
        listener({ ...state });
      } catch (error) {
        this.logger.error(`Scanner status listener failed: ${oneLine(error)}`);
      }
    }
    if (!isNewsworthy(change)) return;
    const payload: ScannerStatusChangedPayload = {
      tableId: state.tableId,
      port: state.port,
      wireFormat: state.wireFormat,
      virtual: state.virtual,
      status: change.status,
      previousStatus: change.previousStatus,
      reason: change.reason,
      reconnectAttempts: change.reconnectAttempts,
    };
    running.statusChain = running.statusChain
      .then(() => this.history.appendStatusChanged(this.ids.newId(), change.at, payload))
      .then(
        () => undefined,
        (error) =>
          this.logger.error(
            `Cannot record ScannerStatusChanged for ${state.tableId}: ${oneLine(error)}`,
          ),
      );
  }
}

/**
 * Platforms and consoles hear about problems and recoveries: disconnected, stale, and connected
 * again. The first connection after start-up and the stop at shutdown are routine; they show in
 * /health/ready and the log but are not published, so restarts do not flood the event stream.
 */
export function isNewsworthy(
  change: Pick<ScannerStatusChange, 'status' | 'previousStatus'>,
): boolean {
  if (change.status === 'stopped') return false;
  return !(change.previousStatus === 'connecting' && change.status === 'connected');
}

const VIRTUAL_TRANSPORTS: Record<TableScannerState['transport'], string> = {
  serial: 'serial device',
  tcp: 'its own TCP device server, which other instances can read too',
  pty: 'socat pty pair',
  mock: 'in-process mock port',
};

/** The service's own adapter reaches a shoe listening on every interface through loopback. */
function connectHost(listening: string): string {
  if (listening === '0.0.0.0') return '127.0.0.1';
  if (listening === '::') return '[::1]';
  return listening.includes(':') ? `[${listening}]` : listening;
}

/** Without socat the virtual shoe hands its bytes straight to the adapter's mock port. */
function mockSink(adapter: SerialScannerAdapter): ByteSink {
  return {
    async write(bytes) {
      const port = adapter.openPort as unknown as
        { port?: { emitData(data: Buffer): void } } | undefined;
      if (!port?.port) throw new Error('mock port is not open');
      port.port.emitData(Buffer.from(bytes));
    },
    async close() {},
  };
}
