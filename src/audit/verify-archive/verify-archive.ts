import type { ArchiveFile, ArchiveManifest } from '../../history/retention/month-archive';
import { ChainWalker, StoredChainEvent } from '../event-chain-walk';

export interface ArchiveVerdict {
  ok: boolean;
  findings: string[];
  events: number;
}

/**
 * Checks an archive: each file's row count and SHA-256 as the manifest says, and each table's
 * events chained from its anchor to its last hash (the audit's own walker).
 */
export async function verifyArchive(
  manifest: ArchiveManifest,
  read: (name: string) => AsyncIterable<string>,
  digest: (name: string) => Promise<ArchiveFile>,
): Promise<ArchiveVerdict> {
  const findings: string[] = [];
  for (const [name, expected] of Object.entries(manifest.files)) {
    const found = await digest(name);
    if (found.sha256 !== expected.sha256 || found.rows !== expected.rows) {
      findings.push(
        `${name}: ${found.rows} rows, sha256 ${found.sha256}; the manifest says ${expected.rows}, ${expected.sha256}`,
      );
    }
  }
  const anchors = new Map(manifest.tables.map((a) => [a.tableId, a]));
  const walkers = new Map<string, ChainWalker>();
  const broken = new Set<string>();
  let events = 0;
  for await (const line of read('round_events.ndjson')) {
    const e = JSON.parse(line) as StoredChainEvent;
    events += 1;
    const anchor = anchors.get(e.tableId);
    if (!anchor) {
      if (!broken.has(e.tableId)) findings.push(`${e.tableId}: events without an anchor`);
      broken.add(e.tableId);
      continue;
    }
    let walker = walkers.get(e.tableId);
    if (!walker) walkers.set(e.tableId, (walker = new ChainWalker(e.tableId, anchor.before)));
    if (broken.has(e.tableId)) continue;
    const link = walker.walk([e]);
    if (link) {
      findings.push(
        `${e.tableId}: broken at event_no ${link.eventNo}: ${link.reason}, expected ${link.expected}, found ${link.found}`,
      );
      broken.add(e.tableId);
    }
  }
  for (const a of manifest.tables) {
    const walker = walkers.get(a.tableId);
    if (broken.has(a.tableId)) continue;
    if (!walker || walker.checked !== a.events) {
      findings.push(
        `${a.tableId}: ${walker?.checked ?? 0} events archived, the anchor says ${a.events}`,
      );
    }
  }
  return { ok: findings.length === 0, findings, events };
}
