import type { HistoryQuery } from '../reader/history-query';
import { RoundEventsReader } from '../reader/round-events.reader';

/**
 * A closed month of history written out as NDJSON, read-only on the live tables: every table's
 * round events of the month in chain order with the anchors that tie them to the chain (the hash
 * before the month's first event and the month's last hash), and the month's rounds with every
 * row that belongs to them, as the rows are stored (to_jsonb: columns added later come along).
 * The audit's verifyArchive() walks the archived events with the chain walker from those anchors, so
 * a month can be checked years later without the database; against the live database, the
 * anchors show the archive is the same chain the studio kept.
 */

export interface TableAnchor {
  tableId: string;
  /** The last event before the month (eventNo 0 and the genesis hash when the month starts the chain). */
  before: { eventNo: number; hash: string };
  lastEventNo: number;
  lastHash: string;
  events: number;
}

export interface ArchiveFile {
  rows: number;
  sha256: string;
}

export interface ArchiveManifest {
  month: string;
  from: string;
  to: string;
  tables: TableAnchor[];
  files: Record<string, ArchiveFile>;
}

/** Where archive files go: one NDJSON file per name, its rows counted and hashed. */
export interface ArchiveSink {
  open(name: string): { write(line: string): Promise<void>; close(): Promise<ArchiveFile> };
}

/** Rows that belong to a round, archived with the round (by round_id). */
const ROUND_ROWS = [
  'bets',
  'decisions',
  'settlements',
  'round_cards',
  'round_hands',
  'supervisor_actions',
];
const PAGE = 1_000;
const NO_UUID = '00000000-0000-0000-0000-000000000000';

/** A row as archived, with the (time, id) key its pages are read in. */
type KeyedRow = { row: unknown; at: Date; id: string };
type Key = { at: Date; id: string };

export function monthBounds(month: string): { from: Date; to: Date } {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12)
    throw new Error(`month "${month}" is not YYYY-MM`);
  const from = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
  const to = new Date(Date.UTC(Number(m[1]), Number(m[2]), 1));
  return { from, to };
}

export class MonthArchiver {
  private readonly events: RoundEventsReader;

  constructor(private readonly q: HistoryQuery) {
    this.events = new RoundEventsReader(q);
  }

  async archive(month: string, sink: ArchiveSink): Promise<ArchiveManifest> {
    const { from, to } = monthBounds(month);
    const files: Record<string, ArchiveFile> = {};
    const tables = await this.archiveEvents(from, to, sink, files);
    await this.archiveRounds(from, to, sink, files);
    await this.archiveReadings(from, to, sink, files);
    await this.archiveShoes(from, to, sink, files);
    await this.archiveTableActions(from, to, sink, files);
    return { month, from: from.toISOString(), to: to.toISOString(), tables, files };
  }

  /** The first event number of a table at or after `at` (event numbers have no gaps: bisect). */
  private async firstAtOrAfter(tableId: string, at: Date, last: number): Promise<number> {
    let lo = 1;
    let hi = last + 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const [row] = await this.q<{ before: boolean }>(
        `SELECT occurred_at < $3 AS before FROM round_events WHERE table_id = $1 AND event_no = $2`,
        [tableId, mid, at],
      );
      if (row?.before) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private async archiveEvents(
    from: Date,
    to: Date,
    sink: ArchiveSink,
    files: Record<string, ArchiveFile>,
  ): Promise<TableAnchor[]> {
    const out = sink.open('round_events.ndjson');
    const anchors: TableAnchor[] = [];
    for (const tableId of await this.events.tableIds()) {
      const [{ last }] = await this.q<{ last: string | null }>(
        `SELECT max(event_no)::text AS last FROM round_events WHERE table_id = $1`,
        [tableId],
      );
      if (last === null) continue;
      const first = await this.firstAtOrAfter(tableId, from, Number(last));
      const end = await this.firstAtOrAfter(tableId, to, Number(last));
      if (first >= end) continue;
      let anchor: TableAnchor | undefined;
      for (let after = first - 1; after < end - 1;) {
        const page = (await this.events.chainPage(tableId, after, PAGE)).filter(
          (e) => e.eventNo < end,
        );
        if (page.length === 0) break;
        anchor ??= {
          tableId,
          before: { eventNo: first - 1, hash: page[0].prevHash },
          lastEventNo: 0,
          lastHash: '',
          events: 0,
        };
        for (const e of page) await out.write(JSON.stringify(e));
        const tail = page[page.length - 1];
        anchor.lastEventNo = tail.eventNo;
        anchor.lastHash = tail.hash;
        anchor.events += page.length;
        after = tail.eventNo;
      }
      if (anchor) anchors.push(anchor);
    }
    files['round_events.ndjson'] = await out.close();
    return anchors;
  }

  /** Keyset pages: each read after the last (time, id) of the one before, until one is empty. */
  private async *pages(
    start: Key,
    read: (after: Key) => Promise<KeyedRow[]>,
  ): AsyncGenerator<KeyedRow[]> {
    for (let after = start; ;) {
      const page = await read(after);
      if (page.length === 0) return;
      yield page;
      after = { at: page[page.length - 1].at, id: page[page.length - 1].id };
    }
  }

  /** The month's rounds (by start) in (started_at, id) pages, each page's rows with it. */
  private async archiveRounds(
    from: Date,
    to: Date,
    sink: ArchiveSink,
    files: Record<string, ArchiveFile>,
  ): Promise<void> {
    const rounds = sink.open('rounds.ndjson');
    const children = Object.fromEntries(ROUND_ROWS.map((t) => [t, sink.open(`${t}.ndjson`)]));
    const pages = this.pages({ at: from, id: NO_UUID }, (after) =>
      this.q<KeyedRow>(
        `SELECT to_jsonb(r.*) AS row, r.started_at AS at, r.id::text AS id FROM rounds r
          WHERE r.started_at >= $1 AND r.started_at < $2 AND (r.started_at, r.id) > ($3, $4::uuid)
          ORDER BY r.started_at, r.id LIMIT ${PAGE}`,
        [from, to, after.at, after.id],
      ),
    );
    for await (const page of pages) {
      for (const r of page) await rounds.write(JSON.stringify(r.row));
      const ids = page.map((r) => r.id);
      for (const table of ROUND_ROWS) {
        const rows = await this.q<{ row: unknown }>(
          `SELECT to_jsonb(x.*) AS row FROM ${table} x WHERE x.round_id = ANY($1::uuid[]) ORDER BY x.round_id, x.id`,
          [ids],
        );
        for (const r of rows) await children[table].write(JSON.stringify(r.row));
      }
    }
    files['rounds.ndjson'] = await rounds.close();
    for (const table of ROUND_ROWS) files[`${table}.ndjson`] = await children[table].close();
  }

  /** Raw scanner readings of the month, table by table in (received_at, id) pages. */
  private async archiveReadings(
    from: Date,
    to: Date,
    sink: ArchiveSink,
    files: Record<string, ArchiveFile>,
  ): Promise<void> {
    const out = sink.open('scanner_readings.ndjson');
    for (const tableId of await this.events.tableIds()) {
      const pages = this.pages({ at: from, id: '0' }, (after) =>
        this.q<KeyedRow>(
          `SELECT to_jsonb(s.*) AS row, s.received_at AS at, s.id::text AS id FROM scanner_readings s
            WHERE s.table_id = $1 AND s.received_at >= $2 AND s.received_at < $3
              AND (s.received_at, s.id) > ($4, $5::bigint)
            ORDER BY s.received_at, s.id LIMIT ${PAGE}`,
          [tableId, from, to, after.at, after.id],
        ),
      );
      for await (const page of pages) {
        for (const r of page) await out.write(JSON.stringify(r.row));
      }
    }
    files['scanner_readings.ndjson'] = await out.close();
  }

  /**
   * The shoes that finished in the month (a shoe finished is one whose burnt cards are revealed:
   * a shoe still in play is archived with the month it finishes in), and their cards of no round
   * (the burn) from round_cards, in `shoe_cards.ndjson`.
   */
  private async archiveShoes(
    from: Date,
    to: Date,
    sink: ArchiveSink,
    files: Record<string, ArchiveFile>,
  ): Promise<void> {
    const shoes = sink.open('shoes.ndjson');
    const cards = sink.open('shoe_cards.ndjson');
    const pages = this.pages({ at: from, id: NO_UUID }, (after) =>
      this.q<KeyedRow>(
        `SELECT to_jsonb(s.*) AS row, s.finished_at AS at, s.id::text AS id FROM shoes s
          WHERE s.status = 'finished' AND s.finished_at >= $1 AND s.finished_at < $2
            AND (s.finished_at, s.id) > ($3, $4::uuid)
          ORDER BY s.finished_at, s.id LIMIT ${PAGE}`,
        [from, to, after.at, after.id],
      ),
    );
    for await (const page of pages) {
      for (const r of page) await shoes.write(JSON.stringify(r.row));
      const burnt = await this.q<{ row: unknown }>(
        `SELECT to_jsonb(c.*) AS row FROM round_cards c
          WHERE c.round_id IS NULL AND c.shoe_id = ANY($1::uuid[]) ORDER BY c.shoe_id, c.id`,
        [page.map((r) => r.id)],
      );
      for (const r of burnt) await cards.write(JSON.stringify(r.row));
    }
    files['shoes.ndjson'] = await shoes.close();
    files['shoe_cards.ndjson'] = await cards.close();
  }

  /** Supervisor actions of no round (a pause between rounds, a shoe or a table closed). */
  private async archiveTableActions(
    from: Date,
    to: Date,
    sink: ArchiveSink,
    files: Record<string, ArchiveFile>,
  ): Promise<void> {
    const out = sink.open('table_actions.ndjson');
    for (const tableId of await this.events.tableIds()) {
      const rows = await this.q<{ row: unknown }>(
        `SELECT to_jsonb(a.*) AS row FROM supervisor_actions a
          WHERE a.table_id = $1 AND a.round_id IS NULL AND a.created_at >= $2 AND a.created_at < $3
          ORDER BY a.created_at, a.id`,
        [tableId, from, to],
      );
      for (const r of rows) await out.write(JSON.stringify(r.row));
    }
    files['table_actions.ndjson'] = await out.close();
  }
}

/** The anchors against the live chain: the events at both ends still carry the archived hashes. */
export async function anchorsAgainstLive(
  manifest: ArchiveManifest,
  q: HistoryQuery,
): Promise<string[]> {
  const findings: string[] = [];
  for (const a of manifest.tables) {
    const rows = await q<{ event_no: string; hash: string }>(
      `SELECT event_no::text, hash FROM round_events WHERE table_id = $1 AND event_no = ANY($2::bigint[])`,
      [a.tableId, [a.before.eventNo, a.lastEventNo]],
    );
    const live = new Map(rows.map((r) => [Number(r.event_no), r.hash]));
    for (const [no, hash] of [
      [a.before.eventNo, a.before.hash],
      [a.lastEventNo, a.lastHash],
    ] as const) {
      if (no > 0 && live.has(no) && live.get(no) !== hash) {
        findings.push(
          `${a.tableId}: live event ${no} has hash ${live.get(no)}, the archive ${hash}`,
        );
      }
    }
  }
  return findings;
}
