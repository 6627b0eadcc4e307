import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { verifyArchive } from '../../src/audit/verify-archive/verify-archive';
import {
  archiveDigest,
  archiveLines,
  DirectorySink,
} from '../../src/history/retention/archive-files';
import {
  anchorsAgainstLive,
  ArchiveManifest,
  MonthArchiver,
  monthBounds,
} from '../../src/history/retention/month-archive';

const USAGE = `Usage:
  npm run history:archive -- --month YYYY-MM --out <dir>     write a closed month as NDJSON with its chain anchors
  npm run history:verify-archive -- --dir <dir> [--live]      check the files and the chain from the anchors
                                                               (--live: the anchors against DATABASE_URL too)
Reads DATABASE_URL. Nothing in the live tables is changed. Exit 0 when the archive verifies, 1 when
it does not, 2 on misuse.`;

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function withDatabase<T>(
  work: (q: (sql: string, params?: unknown[]) => Promise<never[]>) => Promise<T>,
): Promise<T> {
  const client = new Client({
    connectionString: process.env.DATABASE_URL,
    application_name: 'studio-history-archive',
  });
  await client.connect();
  try {
    // One snapshot for the whole month: rows committed meanwhile do not half-appear.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    return await work(async (sql, params) => (await client.query(sql, params)).rows as never[]);
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end();
  }
}

async function main(): Promise<number> {
  const [command, ...argv] = process.argv.slice(2);
  if (command === 'archive') {
    const month = option(argv, 'month');
    const out = option(argv, 'out');
    if (!month || !out || !process.env.DATABASE_URL) throw new Error(USAGE);
    // A month still being played would be archived half: only closed months.
    if (monthBounds(month).to.getTime() > Date.now()) throw new Error(`${month} is not over yet`);
    const manifest = await withDatabase((q) =>
      new MonthArchiver(q).archive(month, new DirectorySink(out)),
    );
    writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const events = manifest.tables.reduce((n, t) => n + t.events, 0);
    process.stdout.write(
      `archived ${month}: ${manifest.tables.length} table chain(s), ${events} events, ${manifest.files['rounds.ndjson'].rows} rounds in ${out}\n`,
    );
    return 0;
  }
  if (command === 'verify') {
    const dir = option(argv, 'dir');
    if (!dir) throw new Error(USAGE);
    const manifest = JSON.parse(
      readFileSync(join(dir, 'manifest.json'), 'utf8'),
    ) as ArchiveManifest;
    const verdict = await verifyArchive(
      manifest,
      (n) => archiveLines(dir, n),
      (n) => archiveDigest(dir, n),
    );
    if (argv.includes('--live'))
      verdict.findings.push(...(await withDatabase((q) => anchorsAgainstLive(manifest, q))));
    for (const f of verdict.findings) process.stdout.write(`FAILED    ${f}\n`);
    process.stdout.write(
      `${verdict.findings.length === 0 ? 'VERIFIED' : 'BROKEN  '}  ${manifest.month}: ${verdict.events} events of ${manifest.tables.length} table(s) chain from their anchors\n`,
    );
    return verdict.findings.length === 0 ? 0 : 1;
  }
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
