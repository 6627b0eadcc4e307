import { createServer, Server, Socket } from 'node:net';
import type { ByteSink } from './shoe-writer';

export interface TcpShoeServerOptions {
  /** Interface to listen on; 127.0.0.1 unless instances on other hosts must reach the shoe. */
  host?: string;
  /** 0: any free port (read it back from `port`). */
  port: number;
  /**
   * While no client is connected, up to this many writes are held and sent to the next client
   * (a device server's "buffer while disconnected"), so a table that reconnects, or moves to
   * another instance, loses no frame. 0: writes with no client are dropped, as on a bare cable.
   */
  holdWrites?: number;
}

/**
 * The virtual shoe as a serial device server in raw TCP mode: one shoe, any number of clients,
 * every client receives every byte the shoe writes from the moment it connects. What a client
 * sends is ignored (a card reader only talks).
 */
export class TcpShoeServer implements ByteSink {
  private readonly clients = new Set<Socket>();
  private readonly held: Buffer[] = [];
  private closed = false;

  private constructor(
    private readonly server: Server,
    private readonly holdWrites: number,
  ) {
    server.on('connection', (socket) => this.accept(socket));
  }

  static async listen(options: TcpShoeServerOptions): Promise<TcpShoeServer> {
    const server = createServer();
    const shoeServer = new TcpShoeServer(server, options.holdWrites ?? 256);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', () => undefined); // after listening, failures are per client
    return shoeServer;
  }

  /** The port actually listened on. */
  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  get host(): string {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.address : '';
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** Sends to every connected client (or holds, with none); a client that fails is dropped. */
  async write(bytes: Uint8Array): Promise<void> {
    if (this.closed) throw new Error('the shoe server is closed');
    const chunk = Buffer.from(bytes);
    if (this.clients.size === 0) {
      if (this.holdWrites > 0) {
        this.held.push(chunk);
        if (this.held.length > this.holdWrites) this.held.shift();
      }
      return;
    }
    await Promise.all([...this.clients].map((socket) => this.send(socket, chunk)));
  }

  /** Cuts every client connection (a device server rebooting, a cable pulled: tests, drills). */
  dropClients(): void {
    for (const socket of this.clients) socket.destroy();
    this.clients.clear();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.dropClients();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    socket.on('error', () => undefined); // the close that follows removes it
    socket.on('close', () => this.clients.delete(socket));
    // A reader closing its side gets nothing more: later writes are held for the next reader.
    socket.on('end', () => this.clients.delete(socket));
    socket.on('data', () => undefined); // readers do not talk back; keep the socket flowing
    this.clients.add(socket);
    for (const chunk of this.held.splice(0)) socket.write(chunk);
  }

  private send(socket: Socket, chunk: Buffer): Promise<void> {
    return new Promise((resolve) => {
      socket.write(chunk, (error) => {
        if (error) {
          this.clients.delete(socket);
          socket.destroy();
        }
        resolve();
      });
    });
  }
}
