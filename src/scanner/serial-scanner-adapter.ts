import type { ScannerConnectionStatus } from '@studio/contracts';
import {
  FrameDecoder,
  isLineNoise,
  ScannerReading,
  wireFormat,
  WireFormatOptions,
} from '@studio/scanner-protocol';
import { SerialPortStream } from '@serialport/stream';
import { backoffMs } from '../common/backoff';
import { oneLine } from '../common/one-line';
import { hangupAwareBinding } from './hangup-aware-binding';
import { isTcpPath, parseTcpAddress, ScannerPort, TcpPort } from './tcp-port';

export interface SerialLineSettings {
  baudRate: number;
  dataBits: 5 | 6 | 7 | 8;
  parity: 'none' | 'even' | 'odd' | 'mark' | 'space';
  stopBits: 1 | 1.5 | 2;
}

/** Makes a port without opening it yet (autoOpen false); swapped for serialport's mock in tests. */
export type PortFactory = (path: string, line: SerialLineSettings) => ScannerPort;

/** serialport's native errors read "Error: Error: No such file..."; one line, said once. */
function reason(error: unknown): string {
  return oneLine(error).replace(/^(Error: )+/, '');
}

const binding = hangupAwareBinding();

export const realSerialPort: PortFactory = (path, line) =>
  new SerialPortStream({ binding, path, ...line, autoOpen: false });

/**
 * A local serial device, or `tcp://host:port`: a serial device server in raw TCP mode, whose
 * serial side (baud rate, parity...) is set on the device server itself.
 */
export const realPort: PortFactory = (path, line) =>
  isTcpPath(path) ? new TcpPort(parseTcpAddress(path)) : realSerialPort(path, line);

export interface ScannerStatusChange {
  status: ScannerConnectionStatus;
  previousStatus: ScannerConnectionStatus;
  reason: string;
  reconnectAttempts: number;
  at: Date;
}

export interface ScannerAdapterListener {
  reading(reading: ScannerReading): void;
  status(change: ScannerStatusChange): void;
}

export interface ScannerAdapterOptions {
  path: string;
  wireFormat: string;
  line: SerialLineSettings;
  decoder?: WireFormatOptions;
  /** Silence longer than this (ms) marks the reader stale; null disables the check. */
  heartbeatTimeoutMs: number | null;
  reconnectInitialDelayMs: number;
  reconnectMaxDelayMs: number;
  now: () => Date;
  openPort?: PortFactory;
}

/**
 * One table's card-shoe reader on a serial port or a serial device server's TCP socket (only how
 * the byte stream is opened differs, see PortFactory). Decodes every byte into readings, reports
 * `disconnected` when the port closes, fails or is unplugged and reopens it with capped exponential
 * backoff, and reports `stale` when an open port stays silent past the heartbeat timeout. Every
 * connection gets its own decoder, so its sequence check starts afresh with `first`
 * (docs/scanner-protocol.md): a device server that restarted and numbers from 0 again is not a
 * reader going `backwards`. A frame cut by a disconnection is flushed as a truncated reading.
 */
export class SerialScannerAdapter {
  private port?: ScannerPort;
  private decoder: FrameDecoder;
  private current: ScannerConnectionStatus = 'connecting';
  /** Failed tries since the port was last open (what readiness and the consoles show). */
  private reconnectAttempts = 0;
  /**
   * How far the reconnect delay has backed off. Unlike the attempts it survives a connection that
   * drops again at once (a device server that accepts and closes, a loose cable), so such a
   * reader is retried ever more slowly instead of flapping, and announcing it, every 200 ms.
   */
  private backoffLevel = 0;
  private connectedAt?: number;
  private reconnectTimer?: NodeJS.Timeout;
  private staleTimer?: NodeJS.Timeout;
  private lastDataAt = 0;
  private stopped = false;
  private started = false;

  constructor(
    private readonly options: ScannerAdapterOptions,
    private readonly listener: ScannerAdapterListener,
  ) {
    this.decoder = this.newDecoder();
  }

  private newDecoder(): FrameDecoder {
    const format = wireFormat(this.options.wireFormat);
    if (!format) throw new Error(`Unknown wire format "${this.options.wireFormat}"`);
    return format.createDecoder(this.options.decoder);
  }

  get status(): ScannerConnectionStatus {
    return this.current;
  }

  get attempts(): number {
    return this.reconnectAttempts;
  }

  /** The open port (the virtual shoe's mock fallback writes into it). */
  get openPort(): ScannerPort | undefined {
    return this.port?.isOpen ? this.port : undefined;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.open();
    const timeout = this.options.heartbeatTimeoutMs;
    if (timeout !== null) {
      this.staleTimer = setInterval(
        () => this.checkStale(timeout),
        Math.max(50, Math.min(1000, timeout / 4)),
      );
      this.staleTimer.unref();
    }
  }

  /** Resolves once the adapter is connected, or false after the timeout. */
  waitUntilConnected(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    return new Promise((resolve) => {
      const poll = () => {
        if (this.current === 'connected') resolve(true);
        else if (Date.now() >= deadline || this.stopped) resolve(false);
        else setTimeout(poll, 10);
      };
      poll();
    });
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.staleTimer);
    const port = this.port;
    this.port = undefined;
    if (port) {
      port.removeAllListeners('close');
      port.on('error', () => undefined);
      // Bytes still arriving while the port closes (a TCP device server's last frames before
      // it sees the close) are decoded, not dropped: a table handed over loses no card.
      if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
      port.removeAllListeners('data');
    }
    this.flushDecoder();
    this.setStatus('stopped', 'adapter stopped');
  }

  private open(): void {
    if (this.stopped) return;
    let port: ScannerPort;
    try {
      port = (this.options.openPort ?? realPort)(this.options.path, this.options.line);
    } catch (error) {
      this.lost(`cannot create port: ${reason(error)}`);
      return;
    }
    this.port = port;
    // A new connection numbers afresh (the previous decoder was flushed when it was lost).
    this.decoder = this.newDecoder();
    port.on('data', (chunk: Buffer) => this.received(chunk));
    port.on('close', (error?: Error | null) =>
      this.lost(error ? `port closed: ${reason(error)}` : 'port closed', port),
    );
    port.on('error', (error: Error) => this.lost(`port error: ${reason(error)}`, port));
    port.open((error) => {
      if (this.stopped || this.port !== port) return;
      if (error) {
        this.lost(`cannot open ${this.options.path}: ${reason(error)}`, port);
        return;
      }
      this.reconnectAttempts = 0;
      this.lastDataAt = this.options.now().getTime();
      this.connectedAt = this.lastDataAt;
      this.setStatus('connected', `${this.options.path} open`);
    });
  }

  /**
   * The reader is alive when it says something (a heartbeat, a card, a status, even a frame that
   * failed its checksum): a line that carries only noise is as good as a silent one, and goes
   * stale.
   */
  private received(chunk: Buffer): void {
    const now = this.options.now().getTime();
    for (const reading of this.decoder.push(chunk, now)) {
      if (!isLineNoise(reading)) {
        this.lastDataAt = now;
        if (this.current === 'stale') this.setStatus('connected', 'reader talking again');
      }
      this.emit(reading);
    }
  }

  /** The port closed, failed or never opened: report once, then reconnect with capped backoff. */
  private lost(reason: string, port?: ScannerPort): void {
    if (this.stopped || (port && port !== this.port)) return;
    const old = this.port;
    this.port = undefined;
    if (old) {
      old.removeAllListeners('data');
      old.removeAllListeners('close');
      old.removeAllListeners('error');
      old.on('error', () => undefined);
      if (old.isOpen) old.close(() => undefined);
    }
    this.flushDecoder();
    this.setStatus('disconnected', reason);
    // A connection that held for the longest delay was a good one: start again from the shortest.
    const now = this.options.now().getTime();
    if (
      this.connectedAt !== undefined &&
      now - this.connectedAt >= this.options.reconnectMaxDelayMs
    )
      this.backoffLevel = 0;
    this.connectedAt = undefined;
    const delay = backoffMs(
      this.options.reconnectInitialDelayMs,
      this.options.reconnectMaxDelayMs,
      this.backoffLevel,
    );
    this.backoffLevel += 1;
    this.reconnectAttempts += 1;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.open(), delay);
  }

  private flushDecoder(): void {
    for (const reading of this.decoder.flush(this.options.now().getTime())) this.emit(reading);
  }

  private checkStale(timeoutMs: number): void {
    if (this.current !== 'connected') return;
    const silentFor = this.options.now().getTime() - this.lastDataAt;
    if (silentFor > timeoutMs)
      this.setStatus(
        'stale',
        `nothing but noise or silence for ${silentFor} ms (timeout ${timeoutMs} ms)`,
      );
  }

  private emit(reading: ScannerReading): void {
    try {
      this.listener.reading(reading);
    } catch {
      // A failing consumer must not stop the reader; the consumer logs its own failures.
    }
  }

  private setStatus(status: ScannerConnectionStatus, reason: string): void {
    if (status === this.current) return;
    const previousStatus = this.current;
    this.current = status;
    try {
      this.listener.status({
        status,
        previousStatus,
        reason,
        reconnectAttempts: this.reconnectAttempts,
        at: this.options.now(),
      });
    } catch {
      // as above
    }
  }
}
