import type { ReplayMismatch } from '../../games/replay';
import { playerKey } from '../../common/player-key';
import type { SettlementRecord } from '../../history/reader/bets.reader';
import type { CardReading } from '../../history/reader/round-cards.reader';
import type { StoredChainEvent } from '../../history/reader/round-events.reader';
import type { RoundActionRecord } from '../../history/reader/supervisor-actions.reader';

/**
 * What a settlement row and its chained announcement (BetsSettled, BetsRefunded) both carry: whose
 * bet it was (the player's key, which names the platform), on what, and the money.
 */
const SETTLED_FIELDS = [
  'playerId',
  'betType',
  'spot',
  'stake',
  'returned',
  'net',
  'outcome',
  'currency',
  'roundedDown',
] as const;
const MONEY = new Set<string>(['stake', 'returned', 'net']);

type Settled = Record<(typeof SETTLED_FIELDS)[number], unknown>;

/**
 * The round's rows against its hash-chained events, which hold the same facts when they are
 * written (one transaction): each settlement (whose, on what, the money) as BetsSettled /
 * BetsRefunded announced it, each dealt card's raw bytes as its ReadingProcessed recorded them,
 * the void's reason as RoundVoided gave it and its supervisor action as VoidRequested or
 * RoundVoided recorded who asked and why, the round's start and end as its events occurred. The
 * chain makes an edited event evident; this makes an edited row evident. Without it a replay
 * recomputes from the rows alone, and rows edited consistently with one another (a stake and its
 * settlement, a card with its reading's bytes) replay to a match.
 */
export function chainMismatches(
  events: readonly StoredChainEvent[],
  rows: {
    settlements: readonly SettlementRecord[];
    readings: readonly CardReading[];
    voidReason?: string | null;
    /** The rounds row's times, ISO 8601 UTC with milliseconds. */
    round?: { startedAt: string | null; endedAt: string | null };
    /** The round's supervisor_actions rows. */
    voidActions?: readonly SupervisorActionRow[];
  },
): ReplayMismatch[] {
  return [
    ...settlementMismatches(events, rows.settlements),
    ...readingMismatches(events, rows.readings),
    ...voidMismatches(events, rows.voidReason),
    ...voidActionMismatches(events, rows.voidActions),
    ...timeMismatches(events, rows.round),
  ];
}

/** What the void check reads of the round's supervisor_actions rows (as the reader gives them). */
type SupervisorActionRow = Pick<RoundActionRecord, 'action' | 'reason' | 'actor' | 'status'>;

/**
 * A void's supervisor_actions row against the chain: who asked for it and why, as a VoidRequested
 * recorded it (a void awaiting approval; a round may hold an earlier request that lapsed, so any
 * request that says the same agrees) or else RoundVoided (one applied at once).
 */
function voidActionMismatches(
  events: readonly StoredChainEvent[],
  actions: readonly SupervisorActionRow[] | undefined,
): ReplayMismatch[] {
  const requests = events.filter((e) => e.type === 'VoidRequested');
  const asked = requests.length > 0 ? requests : events.filter((e) => e.type === 'RoundVoided');
  const row = actions?.find((a) => a.action === 'void' && a.status === 'applied');
  if (asked.length === 0 || !row) return [];
  const reasonOf = (e: StoredChainEvent) => (e.payload as { reason?: unknown }).reason;
  const agrees = (e: StoredChainEvent) =>
    (typeof reasonOf(e) !== 'string' || reasonOf(e) === row.reason) &&
    (e.actor === null || e.actor === row.actor);
  if (asked.some(agrees)) return [];
  const last = asked[asked.length - 1];
  const out: ReplayMismatch[] = [];
  const reason = reasonOf(last);
  if (typeof reason === 'string' && row.reason !== reason) {
    out.push({ field: 'void action reason (chain)', stored: row.reason, replayed: reason });
  }
  if (last.actor !== null && row.actor !== last.actor) {
    out.push({ field: 'void action by (chain)', stored: row.actor, replayed: last.actor });
  }
  return out;
}

/** The round's start and end as RoundStarted and RoundCompleted / RoundEnded occurred. */
function timeMismatches(
  events: readonly StoredChainEvent[],
  round: { startedAt: string | null; endedAt: string | null } | undefined,
): ReplayMismatch[] {
  if (!round) return [];
  const started = events.find((e) => e.type === 'RoundStarted');
  const ended = events.find((e) => e.type === 'RoundCompleted' || e.type === 'RoundEnded');
  const out: ReplayMismatch[] = [];
  if (started && round.startedAt !== started.occurredAt) {
    out.push({
      field: 'round started (chain)',
      stored: round.startedAt,
      replayed: started.occurredAt,
    });
  }
  if (ended && round.endedAt !== ended.occurredAt) {
    out.push({ field: 'round ended (chain)', stored: round.endedAt, replayed: ended.occurredAt });
  }
  return out;
}

/**
 * An announced settlement with its player named as the rows name it: the chained event names a
 * player by `playerId` and `platformId` apart (`alice`, `casino-a`; a practice bot `1`, `bot`),
 * the rows by the player's key (`casino-a:alice`, `bot:1`; a `default` player bare).
 */
function asStored(s: Settled & { platformId?: unknown }): Settled {
  const { platformId, ...rest } = s;
  if (typeof platformId !== 'string' || typeof rest.playerId !== 'string') return rest;
  return { ...rest, playerId: playerKey(platformId, rest.playerId) };
}

function settlementMismatches(
  events: readonly StoredChainEvent[],
  rows: readonly SettlementRecord[],
): ReplayMismatch[] {
  const chained = new Map<string, Settled>();
  for (const e of events) {
    if (e.type !== 'BetsSettled' && e.type !== 'BetsRefunded') continue;
    const list = (e.payload as { settlements?: Array<Settled & { betId?: string }> }).settlements;
    for (const s of list ?? []) if (typeof s.betId === 'string') chained.set(s.betId, asStored(s));
  }
  // A cancelled bet is announced by BetCancelled, not settled: its rows are not compared here.
  const settled = rows.filter((r) => r.outcome !== 'cancelled');
  if (chained.size === 0 && settled.length === 0) return [];
  const out: ReplayMismatch[] = [];
  const seen = new Set<string>();
  for (const row of settled) {
    const id = row.betId ?? '(none)';
    seen.add(id);
    const announced = chained.get(id);
    if (!announced) {
      out.push({ field: `settlement ${id} in the chain`, stored: 'a row', replayed: 'none' });
      continue;
    }
    for (const field of SETTLED_FIELDS) {
      const stored = normal(row[field], MONEY.has(field));
      const inChain = normal(announced[field], MONEY.has(field));
      if (inChain !== undefined && stored !== inChain) {
        out.push({ field: `settlement ${id}.${field} (chain)`, stored, replayed: inChain });
      }
    }
  }
  for (const id of chained.keys()) {
    if (!seen.has(id)) {
      out.push({ field: `settlement ${id} in the chain`, stored: 'none', replayed: 'announced' });
    }
  }
  return out;
}

/** Money as a number (bigint columns are read as text), codes trimmed (currency is char(3)). */
function normal(value: unknown, money: boolean): unknown {
  if (money && typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return typeof value === 'string' ? value.trim() : value;
}

function readingMismatches(
  events: readonly StoredChainEvent[],
  readings: readonly CardReading[],
): ReplayMismatch[] {
  const chained = new Map<string, string>();
  for (const e of events) {
    if (e.type !== 'ReadingProcessed') continue;
    const p = e.payload as { receivedAt?: string; sequence?: number | null; rawHex?: string };
    if (typeof p.rawHex === 'string') chained.set(readingKey(p.receivedAt, p.sequence), p.rawHex);
  }
  const out: ReplayMismatch[] = [];
  for (const r of readings) {
    const inChain = chained.get(readingKey(r.receivedAt, r.sequence));
    if (inChain === undefined) {
      out.push({
        field: `card ${r.slot} reading in the chain`,
        stored: r.rawHex,
        replayed: 'none',
      });
    } else if (inChain.toLowerCase() !== r.rawHex.toLowerCase()) {
      out.push({ field: `card ${r.slot} raw bytes (chain)`, stored: r.rawHex, replayed: inChain });
    }
  }
  return out;
}

function readingKey(receivedAt: unknown, sequence: unknown): string {
  return `${String(receivedAt)}|${sequence === null || sequence === undefined ? '' : String(sequence)}`;
}

function voidMismatches(
  events: readonly StoredChainEvent[],
  voidReason: string | null | undefined,
): ReplayMismatch[] {
  const voided = events.find((e) => e.type === 'RoundVoided');
  if (!voided || voidReason === undefined) return [];
  const reason = (voided.payload as { reason?: unknown }).reason;
  return reason === voidReason
    ? []
    : [{ field: 'void reason (chain)', stored: voidReason, replayed: reason }];
}
