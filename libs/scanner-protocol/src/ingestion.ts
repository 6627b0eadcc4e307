import { CardCode, CARDS_PER_DECK } from '@studio/cards';
import { cardIndexOfBytes } from './card-table';
import type { ScannerReading } from './reading';

/**
 * What becomes of each scanner reading at a table (games.md section 0, "Card readings and
 * rescans"), as a pure step function: the orchestrator tells it which slot expects a card, feeds it
 * readings and clock ticks, and executes the effects. State is plain JSON; time comes in with the
 * inputs (epoch milliseconds); nothing here does I/O.
 */
export interface IngestionRules {
  /** Failed attempts on one slot after which a supervisor is called (games.md Default 5). */
  maxFailedAttempts: number;
  /** Time since the first failed attempt after which a supervisor is called (Default 20 s). */
  escalateAfterMs: number;
  /** A reading repeating the previous card within this window is not applied (Default 300 ms; 0: off). */
  debounceMs: number;
}

export const DEFAULT_INGESTION_RULES: IngestionRules = {
  maxFailedAttempts: 5,
  escalateAfterMs: 20_000,
  debounceMs: 300,
};

export interface ExpectedSlot {
  /** The orchestrator's name for where the card goes, e.g. `round-7/dealer/2`. */
  id: string;
  openedAt: number;
  failedAttempts: number;
  firstFailureAt: number | null;
  escalated: boolean;
}

export interface IngestionState {
  deckCount: number;
  /** How many of each card (index 0..51) this shoe has produced: the composition check. */
  counts: number[];
  slot: ExpectedSlot | null;
  /** Last device sequence number seen (any frame kind), to spot a repeated frame. */
  lastSequence: number | null;
  /**
   * What that frame said (`card:AS`, `heartbeat`...): a repeated number with other content is not
   * a repeated frame. Absent in states stored before it existed.
   */
  lastContent?: string | null;
  /** Last card-or-failed reading, to debounce a card read twice. */
  lastRead: { code: CardCode | null; at: number } | null;
}

export type IngestionInput =
  | { type: 'expect-card'; slot: string; at: number }
  | { type: 'withdraw-expectation' }
  | { type: 'reading'; reading: ScannerReading }
  | { type: 'tick'; at: number }
  | { type: 'supervisor-resolved' }
  | { type: 'new-shoe'; deckCount: number };

/** What became of a reading; persisted next to the raw bytes. */
export type ReadingDisposition =
  | 'applied'
  | 'rescan-required'
  | 'duplicate'
  | 'integrity-error'
  | 'not-expected'
  | 'recorded'
  | 'held';

export type IngestionEffect =
  | { type: 'card-accepted'; slot: string; card: CardCode; sequence?: number }
  | { type: 'rescan-required'; slot: string; attempt: number; reason: string }
  | {
      type: 'escalate-to-supervisor';
      slot: string;
      failedAttempts: number;
      elapsedMs: number;
      trigger: 'attempts' | 'time';
    }
  | {
      type: 'duplicate-ignored';
      basis: 'sequence' | 'debounce';
      sequence?: number;
      card?: CardCode;
    }
  | { type: 'integrity-error'; card: CardCode; seen: number; allowed: number }
  | { type: 'card-not-expected'; card: CardCode }
  | { type: 'sequence-gap'; missedFrames: number; sequence: number }
  | {
      /**
       * The device numbering cannot be trusted for this frame: the same number with other content,
       * or a number going backwards. Nothing is applied, the slot stays open, a supervisor looks.
       */
      type: 'sequence-conflict';
      reason: 'repeated-with-other-content' | 'backwards';
      sequence: number;
      previousSequence: number | null;
      card?: CardCode;
    };

export interface IngestionRejection {
  code: 'slot-already-open' | 'no-slot-open' | 'bad-deck-count' | 'not-escalated';
  message: string;
}

export type IngestionResult =
  | { state: IngestionState; effects: IngestionEffect[]; disposition?: ReadingDisposition }
  | { rejected: IngestionRejection };

export function initialIngestionState(deckCount: number): IngestionState {
  return {
    deckCount,
    counts: new Array<number>(CARDS_PER_DECK).fill(0),
    slot: null,
    lastSequence: null,
    lastContent: null,
    lastRead: null,
  };
}

export function ingest(
  state: IngestionState,
  input: IngestionInput,
  rules: IngestionRules = DEFAULT_INGESTION_RULES,
): IngestionResult {
  switch (input.type) {
    case 'expect-card':
      if (state.slot) {
        return reject('slot-already-open', `slot ${state.slot.id} still expects a card`);
      }
      return {
        state: {
          ...state,
          slot: {
            id: input.slot,
            openedAt: input.at,
            failedAttempts: 0,
            firstFailureAt: null,
            escalated: false,
          },
        },
        effects: [],
      };
    case 'withdraw-expectation':
      if (!state.slot) return reject('no-slot-open', 'no slot expects a card');
      return { state: { ...state, slot: null }, effects: [] };
    case 'supervisor-resolved':
      if (!state.slot?.escalated) return reject('not-escalated', 'no escalation to resolve');
      return {
        state: {
          ...state,
          slot: { ...state.slot, failedAttempts: 0, firstFailureAt: null, escalated: false },
        },
        effects: [],
      };
    case 'new-shoe':
      if (!Number.isInteger(input.deckCount) || input.deckCount < 1) {
        return reject('bad-deck-count', `a shoe needs 1 or more decks (got ${input.deckCount})`);
      }
      return {
        state: { ...initialIngestionState(input.deckCount), slot: state.slot },
        effects: [],
      };
    case 'tick':
      return tick(state, input.at, rules);
    case 'reading':
      return read(state, input.reading, rules);
  }
}

function tick(state: IngestionState, at: number, rules: IngestionRules): IngestionResult {
  const slot = state.slot;
  if (!slot || slot.escalated || slot.firstFailureAt === null) return { state, effects: [] };
  const elapsedMs = at - slot.firstFailureAt;
  if (elapsedMs < rules.escalateAfterMs) return { state, effects: [] };
  return {
    state: { ...state, slot: { ...slot, escalated: true } },
    effects: [
      {
        type: 'escalate-to-supervisor',
        slot: slot.id,
        failedAttempts: slot.failedAttempts,
        elapsedMs,
        trigger: 'time',
      },
    ],
  };
}

function read(
  state: IngestionState,
  reading: ScannerReading,
  rules: IngestionRules,
): IngestionResult {
  const effects: IngestionEffect[] = [];
  const content = contentOf(reading);
  const next: IngestionState = {
    ...state,
    lastSequence: reading.sequence ?? state.lastSequence,
    ...(reading.sequence !== undefined ? { lastContent: content } : {}),
    lastRead:
      reading.kind === 'heartbeat' || reading.kind === 'status' || isLineNoise(reading)
        ? state.lastRead
        : { code: reading.kind === 'card' ? reading.code : null, at: reading.receivedAt },
  };
  const screened = screenFrame(state, reading, content, rules, effects);
  if (screened) {
    // Neither held nor duplicate frames extend the debounce window or change what "previous" means.
    return { state: { ...next, lastRead: state.lastRead }, effects, disposition: screened };
  }
  switch (reading.kind) {
    case 'heartbeat':
    case 'status':
      return { state: next, effects, disposition: 'recorded' };
    case 'card':
      return acceptCard(next, reading, effects);
    case 'unrecognised':
    case 'invalid':
      if (isLineNoise(reading)) return { state: next, effects, disposition: 'recorded' };
      return failedRead(next, reading, rules, effects);
  }
}

/**
 * Bytes outside any frame, unprintable bytes or an empty line: the line's noise (a reader that ends
 * its frames with CR LF, interference), not a card the reader failed to read. Recorded, never a
 * rescan: counted as failed reads they paused a table with "card not recognised".
 */
export function isLineNoise(reading: ScannerReading): boolean {
  return (
    reading.kind === 'invalid' && (reading.reason === 'noise' || reading.reason === 'blank-line')
  );
}

/**
 * Checks the frame's number and the debounce window before the frame is applied: a conflicting
 * number holds it (the slot stays open, no debounce window starts), a repeated frame or a card
 * within the debounce window is a duplicate. A gap is announced and the frame goes on.
 */
function screenFrame(
  state: IngestionState,
  reading: ScannerReading,
  content: string,
  rules: IngestionRules,
  effects: IngestionEffect[],
): 'held' | 'duplicate' | null {
  const code = reading.kind === 'card' ? reading.code : null;
  const card = code ? { card: code } : {};
  const conflict = sequenceConflict(state, reading, content);
  if (conflict) {
    effects.push({
      type: 'sequence-conflict',
      reason: conflict,
      sequence: reading.sequence!,
      previousSequence: state.lastSequence,
      ...card,
    });
    return 'held';
  }
  if (isRepeatedFrame(state, reading, content)) {
    effects.push({
      type: 'duplicate-ignored',
      basis: 'sequence',
      sequence: reading.sequence,
      ...card,
    });
    return 'duplicate';
  }
  if (reading.sequenceCheck === 'gap' && reading.sequence !== undefined) {
    effects.push({
      type: 'sequence-gap',
      missedFrames: reading.missedFrames ?? 0,
      sequence: reading.sequence,
    });
  }
  if (code && withinDebounce(state, code, reading.receivedAt, rules)) {
    effects.push({
      type: 'duplicate-ignored',
      basis: 'debounce',
      card: code,
      ...(reading.sequence !== undefined ? { sequence: reading.sequence } : {}),
    });
    return 'duplicate';
  }
  return null;
}

function withinDebounce(
  state: IngestionState,
  code: string,
  at: number,
  rules: IngestionRules,
): boolean {
  return (
    rules.debounceMs > 0 &&
    state.lastRead?.code === code &&
    at - state.lastRead.at <= rules.debounceMs
  );
}

/** A card for the open slot, within the shoe's composition; otherwise not expected or an error. */
function acceptCard(
  next: IngestionState,
  reading: Extract<ScannerReading, { kind: 'card' }>,
  effects: IngestionEffect[],
): IngestionResult {
  const slot = next.slot;
  if (!slot) {
    effects.push({ type: 'card-not-expected', card: reading.code });
    return { state: next, effects, disposition: 'not-expected' };
  }
  const index = cardIndexOfBytes(reading.code.charCodeAt(0), reading.code.charCodeAt(1));
  const seen = next.counts[index];
  if (seen >= next.deckCount) {
    effects.push({
      type: 'integrity-error',
      card: reading.code,
      seen,
      allowed: next.deckCount,
    });
    return { state: next, effects, disposition: 'integrity-error' };
  }
  const counts = [...next.counts];
  counts[index] = seen + 1;
  effects.push({
    type: 'card-accepted',
    slot: slot.id,
    card: reading.code,
    ...(reading.sequence !== undefined ? { sequence: reading.sequence } : {}),
  });
  return { state: { ...next, counts, slot: null }, effects, disposition: 'applied' };
}

/**
 * The framed readers' documented unreadable-card codes (docs/scanner-protocol.md): a rescan's
 * reason names these. Any other text (a line reader's "whatever it made of the card", another
 * token) may spell the card, face down perhaps, and the reason goes out in a public event: it is
 * named by the kind of failure only (`unknown-card-code`, `reader-reported`); the reading row
 * keeps the text.
 */
const UNREADABLE_CODES: ReadonlySet<string> = new Set(['NOREAD', 'PARTIAL', 'DOUBLE', 'SKEW']);

/** A failed read of the open slot: a rescan, escalated once on attempts or on time. */
function failedRead(
  next: IngestionState,
  reading: Extract<ScannerReading, { kind: 'unrecognised' | 'invalid' }>,
  rules: IngestionRules,
  effects: IngestionEffect[],
): IngestionResult {
  const slot = next.slot;
  if (!slot) return { state: next, effects, disposition: 'recorded' };
  const at = reading.receivedAt;
  const failedAttempts = slot.failedAttempts + 1;
  const firstFailureAt = slot.firstFailureAt ?? at;
  const reason =
    reading.kind === 'unrecognised'
      ? `unrecognised: ${UNREADABLE_CODES.has(reading.code) ? reading.code : reading.reason}`
      : `invalid: ${reading.reason}`;
  effects.push({ type: 'rescan-required', slot: slot.id, attempt: failedAttempts, reason });
  let escalated = slot.escalated;
  if (!escalated) {
    const elapsedMs = at - firstFailureAt;
    const trigger = escalationTrigger(failedAttempts, elapsedMs, rules);
    if (trigger) {
      escalated = true;
      effects.push({
        type: 'escalate-to-supervisor',
        slot: slot.id,
        failedAttempts,
        elapsedMs,
        trigger,
      });
    }
  }
  return {
    state: { ...next, slot: { ...slot, failedAttempts, firstFailureAt, escalated } },
    effects,
    disposition: 'rescan-required',
  };
}

function escalationTrigger(
  failedAttempts: number,
  elapsedMs: number,
  rules: IngestionRules,
): 'attempts' | 'time' | undefined {
  if (failedAttempts >= rules.maxFailedAttempts) return 'attempts';
  if (elapsedMs >= rules.escalateAfterMs) return 'time';
  return undefined;
}

/** The frame's meaning without its number: equal for a frame the device sent twice. */
function contentOf(reading: ScannerReading): string {
  switch (reading.kind) {
    case 'card':
    case 'unrecognised':
      return `${reading.kind}:${reading.code}`;
    case 'status':
      return `status:${reading.status}`;
    case 'heartbeat':
      return 'heartbeat';
    case 'invalid':
      return `invalid:${reading.reason}`;
  }
}

/**
 * The same number again: the decoder says so within a connection; a connection's first frame is
 * compared with the last frame stored (a reader sends its last frame again after a reconnect or
 * a restart: the same number and content is that frame, not a second card); states fed without a
 * decoder compare numbers.
 */
function isRepeatedFrame(state: IngestionState, reading: ScannerReading, content: string): boolean {
  if (reading.sequence === undefined) return false;
  if (reading.sequenceCheck === 'first') {
    return state.lastSequence === reading.sequence && state.lastContent === content;
  }
  if (reading.sequenceCheck !== undefined) return reading.sequenceCheck === 'repeat';
  return state.lastSequence === reading.sequence;
}

function sequenceConflict(
  state: IngestionState,
  reading: ScannerReading,
  content: string,
): 'repeated-with-other-content' | 'backwards' | undefined {
  if (reading.sequence === undefined) return undefined;
  if (reading.sequenceCheck === 'backwards') return 'backwards';
  const known = state.lastContent !== undefined && state.lastContent !== null;
  if (isRepeatedFrame(state, reading, content) && known && state.lastContent !== content) {
    return 'repeated-with-other-content';
  }
  return undefined;
}

function reject(code: IngestionRejection['code'], message: string): IngestionResult {
  return { rejected: { code, message } };
}
