/**
 * Reads the played template rounds (history-template.ts) into blocks: one completed round with
 * every row it left in every history table, as COPY text lines, ready to be replicated.
 */
import { copyOut, Game, GAMES, templateTableId } from './history-template';

/** How a history table's rows belong to a round: by a round column, else table + time window. */
interface TableRule {
  round?: string;
  table?: string;
  time?: string;
}

export const HISTORY_TABLES: Record<string, TableRule> = {
  rounds: { round: 'id' },
  round_events: { round: 'round_id', table: 'table_id', time: 'occurred_at' },
  round_cards: { round: 'round_id', table: 'table_id', time: 'dealt_at' },
  scanner_readings: { table: 'table_id', time: 'received_at' },
  bets: { round: 'round_id' },
  decisions: { round: 'round_id' },
  settlements: { round: 'round_id' },
  round_hands: { round: 'round_id' },
  outbox: { round: 'round_id', table: 'table_id', time: 'occurred_at' },
  processed_commands: { table: 'table_id', time: 'received_at' },
  supervisor_actions: { round: 'round_id', table: 'table_id', time: 'created_at' },
};

export interface TableShape {
  name: string;
  columns: string[];
  index: Record<string, number>;
  /** timestamptz columns (shifted to the copy's time). */
  times: number[];
  /** Generated columns (computed by the database: not COPYed in). */
  generated: number[];
}

export interface TemplateBlock {
  game: Game;
  roundId: string;
  startMs: number;
  /** COPY lines per history table, the round's events in event_no order. */
  rows: Record<string, string[][]>;
  /** Every identifier of the block that a copy must renew (ids, commands, players, shoe). */
  ids: string[];
  shoeIds: string[];
  playerIds: string[];
}

export interface Templates {
  shapes: Record<string, TableShape>;
  blocks: Record<Game, TemplateBlock[]>;
  /** Largest template value per bigint id space, the stride between copies. */
  strides: Record<string, number>;
  /** Template rows of studio_tables, shoes and table_state per game. */
  tableRow: Record<Game, string[]>;
  shoeRow: Record<Game, string[]>;
  stateRow: Record<Game, string[] | undefined>;
}

export function parseTime(text: string): number {
  // COPY text under PGTZ=UTC: 2026-12-02 03:50:12.123+00
  return Date.parse(`${text.replace(' ', 'T').replace(/\+00$/, '')}Z`);
}

export function shapeOf(url: string, name: string): TableShape {
  // One read of the table's columns in COPY order: name, type, generated or not.
  const described = copyOut(
    url,
    `SELECT column_name, data_type, is_generated FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '${name}' ORDER BY ordinal_position`,
  ).map((line) => line.split('\t'));
  const columns = described.map(([column]) => column);
  const index = Object.fromEntries(columns.map((c, i) => [c, i]));
  const times = described.flatMap(([, type], i) =>
    type === 'timestamp with time zone' ? [i] : [],
  );
  const generated = described.flatMap(([, , g], i) => (g === 'ALWAYS' ? [i] : []));
  return { name, columns, index, times, generated };
}

const inList = (values: string[]) => values.map((v) => `'${v}'`).join(',');

export function readTemplates(url: string): Templates {
  const shapes: Record<string, TableShape> = {};
  for (const name of [...Object.keys(HISTORY_TABLES), 'studio_tables', 'shoes', 'table_state']) {
    shapes[name] = shapeOf(url, name);
  }
  const blocks = {} as Record<Game, TemplateBlock[]>;
  const tableRow = {} as Record<Game, string[]>;
  const shoeRow = {} as Record<Game, string[]>;
  const stateRow = {} as Record<Game, string[] | undefined>;
  const strides: Record<string, number> = {};
  for (const game of GAMES) {
    const tid = templateTableId(game);
    tableRow[game] = copyOut(url, `SELECT * FROM studio_tables WHERE id = '${tid}'`)[0].split('\t');
    shoeRow[game] = copyOut(url, `SELECT * FROM shoes WHERE table_id = '${tid}' LIMIT 1`)[0].split(
      '\t',
    );
    stateRow[game] = copyOut(url, `SELECT * FROM table_state WHERE table_id = '${tid}'`)[0]?.split(
      '\t',
    );
    blocks[game] = readBlocks(url, game, shapes);
  }
  const spaces: Record<string, string> = {
    round_events: 'id',
    round_cards: 'id',
    scanner_readings: 'id',
    decisions: 'id',
    settlements: 'id',
    round_hands: 'id',
    outbox: 'id',
    supervisor_actions: 'id',
    bets: 'placement',
  };
  for (const [table, column] of Object.entries(spaces)) {
    const [max] = copyOut(url, `SELECT coalesce(max(${column}), 0) + 1 FROM ${table}`);
    strides[table] = Number(max);
  }
  return { shapes, blocks, strides, tableRow, shoeRow, stateRow };
}

function readBlocks(url: string, game: Game, shapes: Record<string, TableShape>): TemplateBlock[] {
  const tid = templateTableId(game);
  const ev = shapes.round_events.index;
  const events = copyOut(
    url,
    `SELECT * FROM round_events WHERE table_id = '${tid}' ORDER BY event_no`,
  ).map((l) => l.split('\t'));
  const finished = new Set(
    copyOut(
      url,
      `SELECT id FROM rounds WHERE table_id = '${tid}' AND status IN ('completed', 'voided')`,
    ),
  );
  const starts = events.flatMap((e, i) => (e[ev.type] === 'RoundStarted' ? [i] : []));
  const rounds: Array<{ roundId: string; from: number; to: number; fromMs: number; toMs: number }> =
    [];
  for (let j = 0; j + 1 < starts.length; j += 1) {
    const roundId = events[starts[j]][ev.round_id];
    if (!finished.has(roundId)) continue;
    const fromMs = parseTime(events[starts[j]][ev.occurred_at]);
    const toMs = parseTime(events[starts[j + 1]][ev.occurred_at]);
    rounds.push({ roundId, from: starts[j], to: starts[j + 1], fromMs, toMs });
  }
  const blocks: TemplateBlock[] = rounds.map((r) => ({
    game,
    roundId: r.roundId,
    startMs: r.fromMs,
    rows: { round_events: events.slice(r.from, r.to) },
    ids: [],
    shoeIds: [],
    playerIds: [],
  }));
  const roundIds = rounds.map((r) => r.roundId);
  if (roundIds.length === 0) return [];
  for (const [table, rule] of Object.entries(HISTORY_TABLES)) {
    if (table === 'round_events') continue;
    const shape = shapes[table];
    const where = [
      rule.round ? `${rule.round}::text IN (${inList(roundIds)})` : null,
      rule.table ? `${rule.table} = '${tid}'` : null,
    ].filter(Boolean);
    const lines = copyOut(url, `SELECT * FROM ${table} WHERE ${where.join(' OR ')}`);
    for (const line of lines) {
      const row = line.split('\t');
      const round = rule.round ? row[shape.index[rule.round]] : undefined;
      let j = round ? roundIds.indexOf(round) : -1;
      if (j < 0 && rule.time) {
        const at = parseTime(row[shape.index[rule.time]]);
        j = rounds.findIndex((r) => at >= r.fromMs && at < r.toMs);
      }
      if (j < 0) continue;
      (blocks[j].rows[table] ??= []).push(row);
    }
  }
  for (const b of blocks) collectIds(b, shapes, tid);
  return blocks;
}

function collectIds(b: TemplateBlock, shapes: Record<string, TableShape>, tid: string): void {
  const ids = new Set<string>([b.roundId]);
  const players = new Set<string>();
  const shoes = new Set<string>();
  const take = (table: string, column: string, into: Set<string>) => {
    const i = shapes[table].index[column];
    if (i === undefined) return;
    for (const row of b.rows[table] ?? []) if (row[i] !== '\\N' && row[i] !== '') into.add(row[i]);
  };
  take('bets', 'id', ids);
  take('bets', 'command_id', ids);
  take('decisions', 'command_id', ids);
  take('processed_commands', 'command_id', ids);
  take('outbox', 'event_id', ids);
  take('rounds', 'shoe_id', shoes);
  take('round_cards', 'shoe_id', shoes);
  for (const t of ['bets', 'decisions', 'settlements']) take(t, 'player_id', players);
  ids.delete(tid);
  b.ids = [...ids];
  b.shoeIds = [...shoes];
  // The practice table's bots keep their names: the engine knows them as bots.
  b.playerIds = [...players].filter((p) => !ids.has(p) && !p.startsWith('bot:'));
}
