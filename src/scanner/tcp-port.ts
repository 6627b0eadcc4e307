import { EventEmitter } from 'node:events';
import { connect, Socket } from 'node:net';

/**
 * What the scanner adapter drives: a byte stream that opens, delivers `data`, and ends with
 * `close` or `error`. serialport's stream is one; TcpPort (below) is the other.
 */
export interface ScannerPort {
  readonly isOpen: boolean;
  open(callback: (error: Error | null) => void): void;
  close(callback: (error?: Error | null) => void): void;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'close', listener: (error?: Error | null) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeAllListeners(event: 'data' | 'close' | 'error'): unknown;
}

export interface TcpAddress {
  host: string;
  port: number;
}

export const TCP_SCHEME = 'tcp://';

/** True for a scanner "path" that names a serial device server rather than a local device. */
export function isTcpPath(path: string): boolean {
  return path.toLowerCase().startsWith(TCP_SCHEME);
}

/**
 * Parses `tcp://host:port` (a serial device server in raw TCP mode). IPv6 hosts go in brackets,
 * `tcp://[::1]:4001`; nothing may follow the port. Throws what is wrong, without the path (the
 * caller names it).
 */
export function parseTcpAddress(path: string): TcpAddress {
  if (!isTcpPath(path)) throw new Error(`does not start with ${TCP_SCHEME}`);
  const rest = path.slice(TCP_SCHEME.length);
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:/[\]\s]+):(\d{1,5})$/.exec(rest);
  if (!match) {
    throw new Error('must be tcp://host:port, e.g. tcp://10.0.4.21:4001');
  }
  const host = match[1].startsWith('[') ? match[1].slice(1, -1) : match[1];
  const port = Number(match[2]);
  if (port < 1 || port > 65535) throw new Error('needs a TCP port from 1 to 65535');
  return { host, port };
}

export interface TcpPortOptions {
  /** Gives up a connection attempt after this long (an unreachable host drops SYNs silently). */
  connectTimeoutMs?: number;
  /** TCP keep-alive probes find a dead peer even for formats without heartbeats. */
  keepAliveMs?: number;
}

/**
 * A serial device server's raw TCP socket made to look like the serialport stream the adapter
 * already drives: open/close with callbacks, `data`, `close` and `error` events. Errors before the
 * connection is up go to open()'s callback only, as serialport does.
 */
/** How long a closing connection waits for the device server's last bytes. */
const CLOSE_GRACE_MS = 1_000;

export class TcpPort extends EventEmitter implements ScannerPort {
  private socket?: Socket;
  private connected = false;

  constructor(
    readonly address: TcpAddress,
    private readonly options: TcpPortOptions = {},
  ) {
    super();
  }

  get isOpen(): boolean {
    return this.connected && this.socket !== undefined && !this.socket.destroyed;
  }

  open(callback: (error: Error | null) => void): void {
    if (this.socket) {
      callback(new Error('already open'));
      return;
    }
    const socket = connect({ host: this.address.host, port: this.address.port });
    this.socket = socket;
    let settled = false;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      socket.setTimeout(0);
      callback(error);
    };
    socket.setTimeout(this.options.connectTimeoutMs ?? 5000, () => {
      if (!this.connected) socket.destroy(new Error('connection timed out'));
    });
    socket.once('connect', () => {
      this.connected = true;
      socket.setKeepAlive(true, this.options.keepAliveMs ?? 5000);
      settle(null);
    });
    socket.on('data', (chunk: Buffer) => this.emit('data', chunk));
    socket.on('error', (error: Error) => {
      if (!this.connected) settle(error);
      else this.emit('error', error);
    });
    socket.on('close', (hadError: boolean) => {
      const wasConnected = this.connected;
      this.connected = false;
      if (this.socket === socket) this.socket = undefined;
      if (!wasConnected) settle(new Error('connection closed before it was up'));
      else this.emit('close', hadError ? new Error('connection reset') : null);
    });
  }

  close(callback: (error?: Error | null) => void): void {
    const socket = this.socket;
    this.socket = undefined;
    this.connected = false;
    if (!socket || socket.destroyed) {
      callback(null);
      return;
    }
    // Half-close and read on until the device server closes its side: every byte it sent before
    // it saw the close still arrives. A server that does not answer is cut off after a second.
    const cutOff = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
    socket.once('close', () => {
      clearTimeout(cutOff);
      callback(null);
    });
    socket.end();
  }
}
