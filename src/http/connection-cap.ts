import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Sent to a connection over the cap, which is then closed: no request on it is read. */
const REFUSAL_BODY = JSON.stringify({
  error: 'too-many-connections',
  message: 'Too many open connections from this address; close some and try again',
});
const REFUSAL = [
  'HTTP/1.1 503 Service Unavailable',
  'Connection: close',
  'Content-Type: application/json; charset=utf-8',
  'Retry-After: 1',
  `Content-Length: ${Buffer.byteLength(REFUSAL_BODY)}`,
  '',
  REFUSAL_BODY,
].join('\r\n');

/** An IPv4 client on a dual-stack socket is `::ffff:1.2.3.4`: counted as `1.2.3.4`. */
export function clientAddress(socket: Pick<Socket, 'remoteAddress'>): string {
  const address = socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * At most `max` open connections per client address: the next one is answered 503
 * `too-many-connections` and closed before any request on it is handled, so one address cannot
 * take every socket with idle or half-sent connections. Connections from a trusted proxy are not
 * counted (many clients share them; the proxy caps its own clients). It listens before the HTTP
 * server's own connection handler, so a refused connection never reaches a route.
 */
export class ConnectionCap {
  private readonly open = new Map<string, number>();
  private refusedCount = 0;

  constructor(
    private readonly max: number,
    private readonly exempt: (address: string) => boolean,
    private readonly onRefused: (address: string, open: number) => void,
  ) {}

  /** Connections refused since start. */
  get refused(): number {
    return this.refusedCount;
  }

  /** Open connections counted for this address. */
  openFrom(address: string): number {
    return this.open.get(address) ?? 0;
  }

  attach(server: Server): void {
    server.prependListener('connection', (socket: Socket) => this.admit(socket));
  }

  private admit(socket: Socket): void {
    const address = clientAddress(socket);
    if (this.exempt(address)) return;
    const open = this.openFrom(address);
    if (open >= this.max) {
      this.refusedCount += 1;
      this.onRefused(address, open);
      socket.on('error', () => undefined);
      socket.write(REFUSAL, () => socket.destroy());
      return;
    }
    this.open.set(address, open + 1);
    socket.once('close', () => {
      const left = this.openFrom(address) - 1;
      if (left > 0) this.open.set(address, left);
      else this.open.delete(address);
    });
  }
}
