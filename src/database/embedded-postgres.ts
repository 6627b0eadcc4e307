import type { AddressInfo } from 'node:net';
import { ensureWritableFolder } from '../common/writable-path';
import { DataDirLock, lockDataDir } from './data-dir-lock';
import { ensureDatabaseFolder } from './embedded-data-dir';

/**
 * The embedded default database: PGlite (PostgreSQL compiled to WebAssembly) with its data in a
 * local folder, served over the PostgreSQL wire protocol on loopback so the ordinary `pg` driver,
 * TypeORM and the same migrations run unchanged against it and against a real server.
 */
export class EmbeddedPostgres {
  private server?: { stop(): Promise<void>; getServerConn(): string };
  private db?: { close(): Promise<void> };
  private lock?: DataDirLock;

  constructor(
    private readonly dataDir: string,
    private readonly port: number,
    private readonly maxConnections: number,
  ) {}

  /** Starts PGlite and its socket server; returns a connection URL for `pg`. */
  async start(): Promise<string> {
    ensureWritableFolder('PGLITE_DATA_DIR', this.dataDir);
    // Before PGlite reads the folder: a second process on it would corrupt it (data-dir-lock.ts).
    this.lock = await lockDataDir(this.dataDir);
    try {
      // Under the lock: a first start under way elsewhere fills the folder as it goes.
      ensureDatabaseFolder(this.dataDir);
      return await this.open();
    } catch (error) {
      await this.stop().catch(() => undefined);
      throw error;
    }
  }

  private async open(): Promise<string> {
    // Both packages are ESM-first; import them lazily so a real-PostgreSQL deployment never loads them.
    const { PGlite } = await import('@electric-sql/pglite');
    const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
    const db = await PGlite.create(this.dataDir);
    this.db = db;
    const port = this.port === 0 ? await freeLoopbackPort() : this.port;
    const server = new PGLiteSocketServer({
      db,
      host: '127.0.0.1',
      port,
      // The socket server refuses connections beyond this; it must cover the whole pool.
      maxConnections: this.maxConnections,
    });
    await server.start();
    this.server = server;
    return `postgres://postgres@127.0.0.1:${port}/postgres`;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
    await this.db?.close();
    this.db = undefined;
    await this.lock?.release();
    this.lock = undefined;
  }
}

async function freeLoopbackPort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });
}
