/**
 * Generates history for a 100-table studio straight into PostgreSQL with COPY: round i of the
 * studio is a copy of a played template round of its table's game (history-templates-read.ts)
 * with new ids (round, bets, commands, outbox events, shoe), players drawn from a population,
 * every time shifted to the round's place in the studio's schedule, id columns moved to a range of
 * their own, and the table's event chain recomputed (event_no and hashes, the verifier's rule).
 * One psql COPY per history table, under session_replication_role = replica: the rows are
 * consistent by construction, so the foreign-key triggers are not paid per row (a bulk load).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { COUNT_ROUND_HOURS } from '../migrations/1766120000000-RoundHours';
import { COUNT_SCANNER_READING_HOURS } from '../migrations/1766110000000-ScannerReadingHours';
import { eventHash, GENESIS_HASH } from '../src/history/event-chain';
import { Game, GAMES, templateTableId } from './history-template';
import {
  HISTORY_TABLES,
  parseTime,
  TableShape,
  TemplateBlock,
  Templates,
} from './history-templates-read';

export const STUDIO_TABLES = 100;
/** A round every 60 s per table: 100 tables play ~52 million rounds a year. */
export const ROUND_MS = 60_000;
const ROUNDS_PER_SHOE = 60;
const PLAYERS = 50_000;

export const tableIdOf = (g: number) => `h-${String(g).padStart(3, '0')}`;
export const gameOf = (g: number): Game => GAMES[g % GAMES.length];

/** Per generated table: where its chain and counters stand. */
interface ChainState {
  eventNo: number;
  prevHash: string;
  seq: number;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const uuidOf = (kind: number, i: number, n: number) =>
  `${hex(n, 8)}-${hex(kind, 4)}-4000-8000-${hex(i, 12)}`;
const iso = (ms: number) => new Date(ms).toISOString();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function unescapeCopy(text: string): string {
  return text.replace(/\\(.)/g, (_, c: string) =>
    c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c,
  );
}

class CopyStream {
  private readonly child: ChildProcess;
  private buffer: string[] = [];
  private size = 0;
  /** The row's columns COPY takes (all when undefined). */
  private readonly keep?: number[];
  rows = 0;

  /**
   * COPY names its columns: a generated column (bets', decisions' and settlements' platform_id) is
   * computed by the database, so its value in the template row is left out.
   */
  constructor(url: string, table: string, shape?: TableShape) {
    this.keep = shape?.generated.length
      ? shape.columns.flatMap((_, c) => (shape.generated.includes(c) ? [] : [c]))
      : undefined;
    const columns =
      this.keep && shape ? ` (${this.keep.map((c) => shape.columns[c]).join(', ')})` : '';
    this.child = spawn(
      'psql',
      [
        url,
        '-X',
        '-q',
        '-v',
        'ON_ERROR_STOP=1',
        '-c',
        'SET session_replication_role = replica',
        '-c',
        `COPY ${table}${columns} FROM STDIN`,
      ],
      { env: { ...process.env, PGTZ: 'UTC' }, stdio: ['pipe', 'ignore', 'inherit'] },
    );
  }

  async write(row: string[]): Promise<void> {
    const line = `${(this.keep ? this.keep.map((c) => row[c]) : row).join('\t')}\n`;
    this.buffer.push(line);
    this.size += line.length;
    this.rows += 1;
    if (this.size > 1 << 20) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join('');
    this.buffer = [];
    this.size = 0;
    if (!this.child.stdin!.write(chunk)) await once(this.child.stdin!, 'drain');
  }

  async end(): Promise<void> {
    await this.flush();
    this.child.stdin!.end();
    const [code] = (await once(this.child, 'exit')) as [number];
    if (code !== 0) throw new Error(`COPY into a history table failed (psql exit ${code})`);
  }
}

/**
 * Identifiers are whole tokens of a line (uuids, player, bet and command ids, the table id): one
 * pass finds every token and looks it up, whatever the number of ids a round has.
 */
const TOKEN = /[A-Za-z0-9][A-Za-z0-9_.:-]{4,}/g;

/** Per template row, the columns holding an identifier (found once: most columns hold none). */
const idColumns = new WeakMap<string[], number[]>();
function idColumnsOf(row: string[], ids: ReadonlySet<string>): number[] {
  let columns = idColumns.get(row);
  if (!columns) {
    columns = row.flatMap((v, c) => ((v.match(TOKEN) ?? []).some((t) => ids.has(t)) ? [c] : []));
    idColumns.set(row, columns);
  }
  return columns;
}

export class HistoryGenerator {
  private readonly chains = new Map<string, ChainState>();
  private readonly playedBlocks = new Map<Game, number>();
  /** Per id space: where this generation's range starts (above every row already stored). */
  private readonly bases: Record<string, number> = {};
  private first = 0;

  constructor(
    private readonly url: string,
    private readonly t: Templates,
    /** The studio's first round starts here (the schedule ends near now at the largest size). */
    private readonly baseMs: number,
  ) {}

  startOf(i: number): number {
    const g = i % STUDIO_TABLES;
    return this.baseMs + Math.floor(i / STUDIO_TABLES) * ROUND_MS + g * 600;
  }

  /** The studio's tables, their state rows and their first shoe, before the first round. */
  async registerTables(): Promise<void> {
    const streams = ['studio_tables', 'table_state'].map((n) => new CopyStream(this.url, n));
    for (let g = 0; g < STUDIO_TABLES; g += 1) {
      const game = gameOf(g);
      const fix = (row: string[]) =>
        row.map((v) => v.split(templateTableId(game)).join(tableIdOf(g)));
      await streams[0].write(fix(this.t.tableRow[game]));
      const state = this.t.stateRow[game];
      if (state) await streams[1].write(fix(state));
    }
    for (const s of streams) await s.end();
  }

  /** Generates studio rounds [from, to). */
  async generate(
    from: number,
    to: number,
    q: (sql: string) => Promise<Array<Record<string, unknown>>>,
    progress: (done: number) => void,
  ): Promise<void> {
    this.first = from;
    for (const table of Object.keys(this.t.strides)) {
      const column = table === 'bets' ? 'placement' : 'id';
      const [row] = await q(`SELECT coalesce(max(${column}), 0)::text AS max FROM ${table}`);
      this.bases[table] = Number(row.max);
    }
    const streams: Record<string, CopyStream> = {};
    for (const table of [...Object.keys(HISTORY_TABLES), 'shoes']) {
      streams[table] = new CopyStream(this.url, table, this.t.shapes[table]);
    }
    for (let i = from; i < to; i += 1) {
      await this.round(i, streams);
      if ((i + 1 - from) % 20_000 === 0) progress(i + 1 - from);
    }
    await Promise.all(Object.values(streams).map((s) => s.end()));
  }

  private block(game: Game): TemplateBlock {
    const n = this.playedBlocks.get(game) ?? 0;
    this.playedBlocks.set(game, n + 1);
    const blocks = this.t.blocks[game];
    return blocks[n % blocks.length];
  }

  private async round(i: number, streams: Record<string, CopyStream>): Promise<void> {
    const g = i % STUDIO_TABLES;
    const k = Math.floor(i / STUDIO_TABLES);
    const game = gameOf(g);
    const tableId = tableIdOf(g);
    const b = this.block(game);
    const startMs = this.startOf(i);
    const delta = startMs - b.startMs;
    const shoeNumber = Math.floor(k / ROUNDS_PER_SHOE) + 1;
    const shoeId = uuidOf(1, g, shoeNumber);
    if (k % ROUNDS_PER_SHOE === 0)
      await streams.shoes.write(this.shoe(game, tableId, shoeId, shoeNumber, startMs));
    const map = new Map<string, string>([[templateTableId(game), tableId]]);
    b.ids.forEach((id, n) => map.set(id, UUID.test(id) ? uuidOf(2, i, n) : `${id}.${i}`));
    for (const s of b.shoeIds) map.set(s, shoeId);
    b.playerIds.forEach((p, n) => map.set(p, `player-${(i * 7919 + n * 104_729) % PLAYERS}`));
    const keys = new Set(map.keys());
    for (const [table, rows] of Object.entries(b.rows)) {
      const shape = this.t.shapes[table];
      for (const template of rows) {
        const row = [...template];
        for (const c of idColumnsOf(template, keys))
          row[c] = row[c].replace(TOKEN, (m) => map.get(m) ?? m);
        for (const c of shape.times) if (row[c] !== '\\N') row[c] = iso(parseTime(row[c]) + delta);
        this.renumber(table, shape, row, i);
        if (table === 'rounds') {
          row[shape.index.shoe_number] = String(shoeNumber);
          row[shape.index.round_number] = String((k % ROUNDS_PER_SHOE) + 1);
        }
        if (table === 'round_events') this.chain(tableId, shape, row);
        if (table === 'outbox') {
          const chain = this.chainOf(tableId);
          row[shape.index.seq] = String((chain.seq += 1));
          if (row[shape.index.published_at] === '\\N')
            row[shape.index.published_at] = row[shape.index.occurred_at];
        }
        await streams[table].write(row);
      }
    }
  }

  /** Bigint ids move to the copy's own range (references too: a card's reading). */
  private renumber(table: string, shape: TableShape, row: string[], i: number): void {
    const move = (column: string, space: string) => {
      const c = shape.index[column];
      if (c === undefined || row[c] === '\\N') return;
      row[c] = String(
        this.bases[space] + Number(row[c]) + (i - this.first) * this.t.strides[space],
      );
    };
    if (table === 'bets') move('placement', 'bets');
    else if (table in this.t.strides) move('id', table);
    if (table === 'round_cards') {
      move('reading_id', 'scanner_readings');
      move('corrected_by_id', 'round_cards');
    }
  }

  private chainOf(tableId: string): ChainState {
    let chain = this.chains.get(tableId);
    if (!chain) {
      chain = { eventNo: 0, prevHash: GENESIS_HASH, seq: 0 };
      this.chains.set(tableId, chain);
    }
    return chain;
  }

  /** The event's link in its table's chain, as the service computes it. */
  private chain(tableId: string, shape: TableShape, row: string[]): void {
    const chain = this.chainOf(tableId);
    const c = shape.index;
    const eventNo = (chain.eventNo += 1);
    const nullable = (v: string) => (v === '\\N' ? null : unescapeCopy(v));
    const hash = eventHash(chain.prevHash, {
      tableId,
      eventNo,
      roundId: nullable(row[c.round_id]),
      type: unescapeCopy(row[c.type]),
      visibility: unescapeCopy(row[c.visibility]),
      payload: JSON.parse(unescapeCopy(row[c.payload])) as unknown,
      actor: nullable(row[c.actor]),
      occurredAt: new Date(row[c.occurred_at]).toISOString(),
      // Each copy keeps its template event's chain version and salt (version 2: salted JCS).
      chainVersion: (c.chain_version === undefined ? 1 : Number(row[c.chain_version])) as 1 | 2,
      salt: c.chain_salt === undefined ? null : nullable(row[c.chain_salt]),
    });
    row[c.event_no] = String(eventNo);
    row[c.prev_hash] = chain.prevHash;
    row[c.hash] = hash;
    chain.prevHash = hash;
  }

  private shoe(game: Game, tableId: string, id: string, n: number, at: number): string[] {
    const shape = this.t.shapes.shoes;
    const row = [...this.t.shoeRow[game]];
    row[shape.index.id] = id;
    row[shape.index.table_id] = tableId;
    row[shape.index.shoe_number] = String(n);
    row[shape.index.status] = 'finished';
    row[shape.index.started_at] = iso(at);
    row[shape.index.finished_at] = iso(at + ROUNDS_PER_SHOE * ROUND_MS);
    return row;
  }

  /** Counters and sequences where the generated rows leave them, so the live service goes on. */
  async finish(q: (sql: string) => Promise<unknown>): Promise<void> {
    // COPY under the replica role fires no trigger: the per-round sums the settlements' trigger
    // keeps (round_stakes) are computed here for the new rounds, as migration RoundStakes does.
    await q(`INSERT INTO round_stakes (round_id, currency, bet_type, stake, net, bets)
             SELECT s.round_id, s.currency, s.bet_type, sum(s.stake), sum(s.net), count(*)
               FROM settlements s
              WHERE s.outcome <> 'cancelled'
                AND NOT EXISTS (SELECT 1 FROM round_stakes r WHERE r.round_id = s.round_id)
              GROUP BY s.round_id, s.currency, s.bet_type`);
    // And the counts per hour that triggers keep (round_hours, scanner_reading_hours), counted
    // again whole with their migrations' statements.
    for (const [table, count] of [
      ['round_hours', COUNT_ROUND_HOURS],
      ['scanner_reading_hours', COUNT_SCANNER_READING_HOURS],
    ]) {
      await q(`TRUNCATE ${table}`);
      await q(count);
    }
    await q(`UPDATE studio_tables t SET last_event_seq = o.seq
               FROM (SELECT table_id, max(seq) AS seq FROM outbox GROUP BY table_id) o
              WHERE o.table_id = t.id AND t.id LIKE 'h-%'`);
    await q(`INSERT INTO outbox_progress (table_id, last_published_seq, published_at)
             SELECT id, last_event_seq, now() FROM studio_tables WHERE id LIKE 'h-%'
             ON CONFLICT (table_id) DO UPDATE SET last_published_seq = excluded.last_published_seq`);
    for (const table of Object.keys(this.t.strides)) {
      const column = table === 'bets' ? 'placement' : 'id';
      await q(
        `SELECT setval(pg_get_serial_sequence('${table}', '${column}'), (SELECT max(${column}) FROM ${table}))`,
      );
    }
  }
}
