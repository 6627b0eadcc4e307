import type { ReplayMismatch } from '../../games/replay';
import { playerKey } from '../../common/player-key';
import type { DecisionRecord, SettlementRecord } from '../../history/reader/bets.reader';
import type { ReadingOutcomeRecord } from '../../history/reader/readings.reader';
import type { CardReading, CardRecord } from '../../history/reader/round-cards.reader';
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
 * each card's face-down flag and reveal time as its CardDealtFaceDown, its dealing and its reveal
 * (HoleCardRevealed, HiddenCardRevealed, HandRevealed) occurred, each Infinite Blackjack decision
 * as DecisionAccepted / DecisionsAccepted accepted it, each of the round's readings' outcome as
 * its ReadingProcessed recorded it, the void's reason as RoundVoided gave it and its supervisor
 * action as VoidRequested or RoundVoided recorded who asked and why, the round's start and end as
 * its events occurred. The chain makes an edited event evident; this makes an edited row evident.
 * Without it a replay recomputes from the rows alone, and rows edited consistently with one
 * another (a stake and its settlement, a card with its reading's bytes) replay to a match.
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
    /**
     * The round's decisions rows, of an Infinite Blackjack round only: the one game whose chain
     * records each decision row as it is (the others record seats, pre-decisions, auto-play).
     */
    decisions?: readonly DecisionRow[];
    /** Every round_cards row of the round, corrected ones included. */
    cards?: readonly CardRow[];
    /** The face-down slots the round's game turns over when it is voided (GameDefinition). */
    voidTurnsOver?: readonly string[];
    /** The rows of the readings the round's ReadingProcessed events name (chainedReadingTimes). */
    readingOutcomes?: readonly ReadingOutcomeRecord[];
  },
): ReplayMismatch[] {
  return [
    ...settlementMismatches(events, rows.settlements),
    ...readingMismatches(events, rows.readings),
    ...cardMismatches(events, rows.cards, rows.voidTurnsOver ?? []),
    ...readingOutcomeMismatches(events, rows.readingOutcomes),
    ...decisionMismatches(events, rows.decisions),
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

/** What the decision check reads of a decisions row (as the reader gives it). */
type DecisionRow = Pick<DecisionRecord, 'playerId' | 'hand' | 'action' | 'automatic' | 'window'>;

type DecisionFacts = Pick<DecisionRow, 'action' | 'hand' | 'automatic' | 'window'>;
const DECISION_FIELDS = ['action', 'hand', 'window', 'automatic'] as const;

/**
 * Infinite Blackjack's decisions as the chain accepted them (one DecisionAccepted, or a batch's
 * DecisionsAccepted), per player in the order taken: each a player's own, never automatic (a hand
 * nobody decided is auto-played without a row), on no hand of its own (the common hand's node is
 * the rows' concern of round_hands), in the window named.
 */
function chainedDecisions(events: readonly StoredChainEvent[]): Map<string, DecisionFacts[]> {
  const byPlayer = new Map<string, DecisionFacts[]>();
  const add = (d: { playerId?: unknown; platformId?: unknown; action?: unknown }, w: unknown) => {
    if (typeof d.playerId !== 'string' || typeof d.action !== 'string') return;
    const player =
      typeof d.platformId === 'string' ? playerKey(d.platformId, d.playerId) : d.playerId;
    const facts: DecisionFacts = {
      action: d.action,
      hand: null,
      automatic: false,
      window: typeof w === 'number' ? w : null,
    };
    append(byPlayer, player, facts);
  };
  for (const e of events) {
    const p = e.payload as { window?: unknown; decisions?: unknown };
    if (e.type === 'DecisionAccepted') add(p as Parameters<typeof add>[0], p.window);
    if (e.type === 'DecisionsAccepted' && Array.isArray(p.decisions)) {
      for (const d of p.decisions as Array<Parameters<typeof add>[0]>) add(d, p.window);
    }
  }
  return byPlayer;
}

/**
 * Each player's decisions rows, in the order stored, against the decisions the chain accepted of
 * that player in the same order: a row rewritten (another action, hand, window, or an automatic
 * one), moved to another player, deleted or added is named (`decision alice#2`: alice's second).
 */
function decisionMismatches(
  events: readonly StoredChainEvent[],
  rows: readonly DecisionRow[] | undefined,
): ReplayMismatch[] {
  if (!rows) return [];
  const chained = chainedDecisions(events);
  const stored = new Map<string, DecisionRow[]>();
  for (const r of rows) append(stored, r.playerId, r);
  const out: ReplayMismatch[] = [];
  for (const player of new Set([...stored.keys(), ...chained.keys()])) {
    const mine = stored.get(player) ?? [];
    const accepted = chained.get(player) ?? [];
    for (let i = 0; i < Math.max(mine.length, accepted.length); i += 1) {
      const name = `decision ${player}#${i + 1}`;
      const row = mine[i];
      const inChain = accepted[i];
      if (!inChain) {
        out.push({ field: `${name} in the chain`, stored: row.action, replayed: 'none' });
      } else if (!row) {
        out.push({ field: `${name} in the chain`, stored: 'none', replayed: inChain.action });
      } else {
        for (const field of DECISION_FIELDS) {
          if (field === 'window' && inChain.window === null) continue;
          if (row[field] !== inChain[field]) {
            out.push({
              field: `${name}.${field} (chain)`,
              stored: row[field],
              replayed: inChain[field],
            });
          }
        }
      }
    }
  }
  return out;
}

/** What the card check reads of a round_cards row (as the reader gives it). */
type CardRow = Pick<
  CardRecord,
  'slot' | 'card' | 'faceDown' | 'revealedAt' | 'correctedByCardRowId'
>;

/**
 * What the chain says of the round's cards lying face down or up: the slots dealt face down
 * (CardDealtFaceDown, every game's), when each was turned over (a blackjack dealer's hole card by
 * HoleCardRevealed or HiddenCardRevealed, a Pok Deng hand's cards by HandRevealed), when each card
 * code was dealt (its applied ReadingProcessed, or the CardDealt of a virtual shoe's card), and
 * when the round was voided.
 */
function chainedCardFacts(events: readonly StoredChainEvent[]) {
  const faceDown = new Set<string>();
  const revealedAt = new Map<string, string>();
  const dealtAt = new Map<string, string[]>();
  let voidedAt: string | undefined;
  const reveal = (slot: string, at: string) => {
    if (!revealedAt.has(slot)) revealedAt.set(slot, at);
  };
  const dealt = (card: unknown, at: string) => {
    if (typeof card !== 'string') return;
    const times = dealtAt.get(card);
    if (!times) dealtAt.set(card, [at]);
    else if (!times.includes(at)) times.push(at);
  };
  for (const e of events) {
    const p = e.payload as Record<string, unknown>;
    switch (e.type) {
      case 'CardDealtFaceDown':
        if (typeof p.slot === 'string') faceDown.add(p.slot);
        break;
      case 'HoleCardRevealed':
      case 'HiddenCardRevealed':
        reveal('dealer-hole', e.occurredAt);
        break;
      case 'HandRevealed':
        if (typeof p.hand === 'string' && Array.isArray(p.cards)) {
          p.cards.forEach((_, i) => reveal(`${p.hand as string}/${i + 1}`, e.occurredAt));
        }
        break;
      case 'ReadingProcessed':
        if (p.outcome === 'applied') dealt(p.code, e.occurredAt);
        break;
      case 'CardDealt':
      case 'CommonCardDrawn':
      case 'DealerCardDrawn':
        dealt(p.card, e.occurredAt);
        break;
      case 'RoundVoided':
        voidedAt = e.occurredAt;
        break;
    }
  }
  return { faceDown, revealedAt, dealtAt, voidedAt };
}

/**
 * Each card row's face_down and revealed_at against the chain: face down exactly when the chain
 * dealt its slot face down; a face-down card revealed when the chain turned it over (never, if it
 * did not or the card was corrected before: a correction replaces a card before its reveal; a
 * void turns over the slots its game says, `voidTurnsOver`, such as a practice table's hole card,
 * at the void's time, with no event of their own); a face-up card revealed as it was dealt (when
 * the chain names that card's dealing).
 */
function cardMismatches(
  events: readonly StoredChainEvent[],
  cards: readonly CardRow[] | undefined,
  voidTurnsOver: readonly string[],
): ReplayMismatch[] {
  if (!cards) return [];
  const chain = chainedCardFacts(events);
  const out: ReplayMismatch[] = [];
  for (const c of cards) {
    const down = chain.faceDown.has(c.slot);
    if (c.faceDown !== down) {
      out.push({ field: `card ${c.slot} face down (chain)`, stored: c.faceDown, replayed: down });
    }
    if (down) {
      const at = c.correctedByCardRowId === null ? (chain.revealedAt.get(c.slot) ?? null) : null;
      const voidTurned =
        at === null &&
        c.correctedByCardRowId === null &&
        chain.voidedAt &&
        voidTurnsOver.includes(c.slot);
      if (c.revealedAt !== at && !(voidTurned && c.revealedAt === chain.voidedAt)) {
        out.push({ field: `card ${c.slot} revealed (chain)`, stored: c.revealedAt, replayed: at });
      }
    } else {
      const times = chain.dealtAt.get(c.card) ?? [];
      if (times.length > 0 && (c.revealedAt === null || !times.includes(c.revealedAt))) {
        out.push({
          field: `card ${c.slot} revealed (chain)`,
          stored: c.revealedAt,
          replayed: times.length === 1 ? times[0] : times,
        });
      }
    }
  }
  return out;
}

/** When the round's chained readings came (ISO 8601): the readings whose rows replay reads. */
export function chainedReadingTimes(events: readonly StoredChainEvent[]): string[] {
  const times = new Set<string>();
  for (const e of events) {
    const at = (e.payload as { receivedAt?: unknown }).receivedAt;
    if (e.type === 'ReadingProcessed' && typeof at === 'string') times.add(at);
  }
  return [...times];
}

/**
 * Each reading's outcome row against what its ReadingProcessed recorded became of it (applied,
 * duplicate, rejected, held…), for the readings the round's chain names with an outcome.
 */
function readingOutcomeMismatches(
  events: readonly StoredChainEvent[],
  rows: readonly ReadingOutcomeRecord[] | undefined,
): ReplayMismatch[] {
  if (!rows) return [];
  const chained = new Map<string, string[]>();
  for (const e of events) {
    if (e.type !== 'ReadingProcessed') continue;
    const p = e.payload as { receivedAt?: string; sequence?: number | null; outcome?: unknown };
    if (typeof p.outcome !== 'string') continue;
    const key = readingKey(p.receivedAt, p.sequence);
    append(chained, key, p.outcome);
  }
  const out: ReplayMismatch[] = [];
  for (const r of rows) {
    const outcomes = chained.get(readingKey(r.receivedAt, r.sequence));
    if (!outcomes || outcomes.includes(r.outcome)) continue;
    const name = `reading ${r.receivedAt}${r.sequence === null ? '' : ` #${r.sequence}`}`;
    out.push({
      field: `${name} outcome (chain)`,
      stored: r.outcome,
      replayed: outcomes[outcomes.length - 1],
    });
  }
  return out;
}

/** Adds `value` at the end of `key`'s list. */
function append<K, V>(lists: Map<K, V[]>, key: K, value: V): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}
