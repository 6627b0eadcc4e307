import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ArchiveFile, ArchiveSink } from './month-archive';

/** An archive directory: NDJSON files, each counted and hashed as it is written. */
export class DirectorySink implements ArchiveSink {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  open(name: string) {
    const stream = createWriteStream(join(this.dir, name), { flags: 'wx' });
    const hash = createHash('sha256');
    let rows = 0;
    return {
      write: async (line: string) => {
        const text = `${line}\n`;
        hash.update(text);
        rows += 1;
        if (!stream.write(text)) await once(stream, 'drain');
      },
      close: async (): Promise<ArchiveFile> => {
        stream.end();
        await once(stream, 'finish');
        return { rows, sha256: hash.digest('hex') };
      },
    };
  }
}

/** The lines of an archive file, one at a time (a month does not fit in memory). */
export async function* archiveLines(dir: string, name: string): AsyncIterable<string> {
  const lines = createInterface({ input: createReadStream(join(dir, name)), crlfDelay: Infinity });
  for await (const line of lines) if (line.length > 0) yield line;
}

/** A file's rows and SHA-256 as they are on disk now. */
export async function archiveDigest(dir: string, name: string): Promise<ArchiveFile> {
  const hash = createHash('sha256');
  let rows = 0;
  for await (const line of archiveLines(dir, name)) {
    hash.update(`${line}\n`);
    rows += 1;
  }
  return { rows, sha256: hash.digest('hex') };
}
