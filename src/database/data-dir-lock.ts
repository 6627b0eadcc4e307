import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { connect, createServer, Server } from 'node:net';
import { hostname } from 'node:os';

/** The embedded data folder is open in another process: this one must not open it too. */
export class DataDirInUseError extends Error {
  constructor(holder: string) {
    super(
      `the folder is in use by another process (${holder}); PGlite serves one process ` +
        `per folder. Stop that process, give this one its own PGLITE_DATA_DIR, or run several ` +
        `instances on a shared PostgreSQL (DATABASE_URL)`,
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * One process per embedded data folder. PGlite holds the database in the process's memory and
 * writes the folder as it goes: a second process on the same folder works on a copy of its own,
 * both overwrite the same files, and the second even sees the first one's table leases as expired
 * and takes its tables over (seen: "Driving table ibj-1 (epoch 2)" while the first still drove it).
 *
 * The lock is a Unix socket in Linux's abstract namespace, named after the folder's real path:
 * binding it is atomic, and the kernel frees it when the process ends, however it ends (no stale
 * lock after a SIGKILL or a power cut). Whoever connects to it is told which process holds it.
 * Elsewhere than Linux there is no abstract namespace; the folder is then not locked.
 */
export async function lockDataDir(
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
): Promise<DataDirLock> {
  if (platform !== 'linux') return { release: async () => undefined };
  const name = lockName(dataDir);
  const holder = `pid ${process.pid} on ${hostname()}, started ${new Date().toISOString()}`;
  const server = createServer((socket) => socket.end(holder));
  try {
    await listen(server, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new DataDirInUseError(await askHolder(name));
  }
  // The lock never keeps the process alive on its own.
  server.unref();
  return {
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function lockName(dataDir: string): string {
  const real = realpathSync(dataDir);
  const digest = createHash('sha256').update(real).digest('hex').slice(0, 32);
  return `\0live-dealer-studio/pglite/${digest}`;
}

function listen(server: Server, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(name, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** What the holding process says of itself (its pid and host), or why it could not be asked. */
function askHolder(name: string): Promise<string> {
  return new Promise((resolve) => {
    let said = '';
    const socket = connect(name);
    const done = (text: string) => {
      socket.destroy();
      resolve(text);
    };
    socket.setTimeout(1_000, () => done(said || 'a process that did not say which'));
    socket.on('data', (chunk) => {
      said += chunk.toString('utf8');
      if (said.length > 200) done(said.slice(0, 200));
    });
    socket.on('end', () => done(said || 'a process that did not say which'));
    socket.on('error', (error) => done(`a process that could not be asked: ${error.message}`));
  });
}
