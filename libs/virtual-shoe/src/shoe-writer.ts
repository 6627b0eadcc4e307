import { SerialPort } from 'serialport';
import type { Emission, VirtualShoe } from './virtual-shoe';

/** Where the virtual shoe's bytes go: a serial device, or (fallback) straight into a mock port. */
export interface ByteSink {
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export interface SerialSinkSettings {
  path: string;
  baudRate: number;
}

/**
 * Writes to a serial device path (one end of a pty pair, or a real null-modem cable). If the device
 * is gone (the pair was torn down) the write fails and the next write reopens it.
 */
export class SerialPortSink implements ByteSink {
  private port?: SerialPort;

  constructor(private readonly settings: SerialSinkSettings) {}

  async write(bytes: Uint8Array): Promise<void> {
    const port = await this.ensureOpen();
    await new Promise<void>((resolve, reject) => {
      port.write(Buffer.from(bytes), (error) => (error ? reject(error) : resolve()));
    });
    await new Promise<void>((resolve, reject) => port.drain((e) => (e ? reject(e) : resolve())));
  }

  async close(): Promise<void> {
    const port = this.port;
    this.port = undefined;
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
  }

  private async ensureOpen(): Promise<SerialPort> {
    if (this.port?.isOpen) return this.port;
    const port = new SerialPort({
      path: this.settings.path,
      baudRate: this.settings.baudRate,
      autoOpen: false,
    });
    port.on('error', () => undefined); // surfaced through the failed write instead
    port.on('close', () => {
      if (this.port === port) this.port = undefined;
    });
    await new Promise<void>((resolve, reject) => port.open((e) => (e ? reject(e) : resolve())));
    this.port = port;
    return port;
  }
}

export interface ShoeWriterOptions {
  shoe: VirtualShoe;
  sink: ByteSink;
  /** Time between cards; 0 deals only on demand (dealNext()). */
  intervalMs: number;
  /** Heartbeats while idle (formats that have them); 0 disables. */
  heartbeatIntervalMs: number;
  /** Pause between a misread and the dealer's rescan of the same card. */
  rescanDelayMs?: number;
  onEmission?(emission: Emission): void;
  onError?(error: unknown): void;
}

/** Paces a virtual shoe onto a sink: a card every interval, heartbeats in between. */
export class ShoeWriter {
  private cardTimer?: NodeJS.Timeout;
  private heartbeatTimer?: NodeJS.Timeout;
  private chain: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: ShoeWriterOptions) {}

  start(): void {
    if (this.options.intervalMs > 0) {
      this.cardTimer = setInterval(() => void this.dealNext(), this.options.intervalMs);
    }
    if (this.options.heartbeatIntervalMs > 0) {
      this.heartbeatTimer = setInterval(
        () => void this.send(this.options.shoe.heartbeat()),
        this.options.heartbeatIntervalMs,
      );
    }
  }

  /** Deals the next card now (on demand); resolves with what was written. */
  dealNext(): Promise<Emission[]> {
    return this.send(this.options.shoe.drawNext());
  }

  /** The table started a new shoe: reshuffle (see VirtualShoe.newShoe) and announce it. */
  newShoe(shoeNumber: number): Promise<Emission[]> {
    return this.send(this.options.shoe.newShoe(shoeNumber));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.cardTimer);
    clearInterval(this.heartbeatTimer);
    await this.chain.catch(() => undefined);
    await this.options.sink.close();
  }

  /** Writes are chained so that frames never interleave; a failed write is reported, not thrown. */
  private send(emissions: Emission[]): Promise<Emission[]> {
    const run = async () => {
      for (const [i, emission] of emissions.entries()) {
        if (this.stopped) break;
        if (i > 0 && emissions[i - 1].kind === 'misread' && this.options.rescanDelayMs) {
          await new Promise((r) => setTimeout(r, this.options.rescanDelayMs));
        }
        try {
          await this.options.sink.write(emission.bytes);
          this.options.onEmission?.(emission);
        } catch (error) {
          this.options.onError?.(error);
        }
      }
      return emissions;
    };
    const result = this.chain.then(run, run);
    this.chain = result.catch(() => undefined);
    return result;
  }
}
