import { createServer, Server, Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of a real server (the shared PostgreSQL) that a test can cut: `cut()` drops
 * every open connection and refuses new ones, as a crashed or unreachable database would; `restore()`
 * lets connections through again. The server behind it is never touched.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly pairs = new Set<[Socket, Socket]>();
  private down = false;
  private hanging = false;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<number> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server!.address() as AddressInfo).port;
  }

  get isDown(): boolean {
    return this.down;
  }

  cut(): void {
    this.down = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /**
   * The server hangs: open connections stay open and new ones are accepted, but nothing is
   * forwarded either way (a stuck server, a black-holed network). `restore()` ends it by dropping
   * every connection, so nothing sent meanwhile reaches the server late.
   */
  hang(): void {
    this.hanging = true;
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  }

  restore(): void {
    if (this.hanging) {
      this.hanging = false;
      for (const socket of this.sockets) socket.destroy();
      this.sockets.clear();
    }
    this.down = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private accept(client: Socket): void {
    if (this.down) {
      client.destroy();
      return;
    }
    if (this.hanging) {
      // Accepted, never answered: held until restore() drops it.
      client.pause();
      client.on('error', () => undefined);
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    client.on('close', () => this.pairs.delete(pair));
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
