import type { CardCode } from '@studio/cards';
import { ingest, IngestionEffect, IngestionState, ScannerReading } from '@studio/scanner-protocol';
import { applyCard, pause } from './shared-steps';
import { Transition } from './transition';

/** Scanner readings: the ingestion rules first (rescans, duplicates, composition), then the card. */

type Handled = { outcome: string; detail: Record<string, unknown> } | undefined;

export function applyReading(
  tx: Transition,
  readingId: string | null,
  reading: ScannerReading,
): void {
  // Heartbeats and status frames are the scanner service's business (stored, status events);
  // they change nothing at the table, so they cost no transition.
  if (reading.kind === 'heartbeat' || reading.kind === 'status') return;
  const before = tx.state.ingestion;
  if (tx.paused && reading.kind === 'card') {
    recordReading(tx, reading, readingId, 'not-applied-paused', { card: reading.code });
    tx.publicEvent('CardNotExpected', { reason: 'table-paused' });
    return tx.reject('table-paused', 'The table is paused; the card was recorded but not applied');
  }
  const result = ingest(before, { type: 'reading', reading }, tx.settings.ingestion);
  if ('rejected' in result) {
    return recordReading(tx, reading, readingId, 'recorded', { note: result.rejected.message });
  }
  tx.state = { ...tx.state, ingestion: result.state };
  let outcome: string = result.disposition ?? 'recorded';
  const detail: Record<string, unknown> = {};
  for (const effect of result.effects) {
    const handled = ingestionEffect(tx, effect, readingId, before);
    if (handled) {
      outcome = handled.outcome;
      Object.assign(detail, handled.detail);
    }
  }
  recordReading(tx, reading, readingId, outcome, detail);
}

/** Time passes: escalates a rescan that has taken too long. */
export function tick(tx: Transition): void {
  const result = ingest(
    tx.state.ingestion,
    { type: 'tick', at: tx.ctx.now },
    tx.settings.ingestion,
  );
  if ('rejected' in result) return;
  tx.state = { ...tx.state, ingestion: result.state };
  for (const effect of result.effects) ingestionEffect(tx, effect, null, tx.state.ingestion);
}

/**
 * What became of a reading goes into the table's hash-chained event log next to its raw bytes
 * (restricted: a face-down card's reading names the card).
 */
function recordReading(
  tx: Transition,
  r: ScannerReading,
  readingId: string | null,
  outcome: string,
  detail: Record<string, unknown>,
): void {
  if (readingId) tx.writes.readingOutcome = { readingId, outcome, detail };
  tx.emit({
    type: 'ReadingProcessed',
    visibility: 'restricted',
    payload: {
      kind: r.kind,
      code: 'code' in r ? r.code : null,
      sequence: r.sequence ?? null,
      receivedAt: new Date(r.receivedAt).toISOString(),
      rawHex: hex(r.raw),
      outcome,
      detail,
    },
  });
}

function ingestionEffect(
  tx: Transition,
  effect: IngestionEffect,
  readingId: string | null,
  before: IngestionState,
): Handled {
  switch (effect.type) {
    case 'card-accepted':
      return acceptedCard(tx, effect.card, effect.slot, readingId, before);
    case 'rescan-required':
      tx.publicEvent('RescanRequired', {
        slot: effect.slot.split('/').slice(1).join('/'),
        attempt: effect.attempt,
        reason: effect.reason,
      });
      return undefined;
    case 'escalate-to-supervisor':
      tx.publicEvent('SupervisorAlert', {
        kind: 'rescan-limit',
        slot: effect.slot.split('/').slice(1).join('/'),
        failedAttempts: effect.failedAttempts,
        elapsedMs: effect.elapsedMs,
        trigger: effect.trigger,
      });
      pause(
        tx,
        'escalation',
        'scanner',
        `Card not recognised after ${plural(effect.failedAttempts, 'attempt')} (${effect.trigger})`,
      );
      return undefined;
    case 'duplicate-ignored':
      tx.emit({
        type: 'DuplicateReadingIgnored',
        visibility: 'restricted',
        payload: {
          basis: effect.basis,
          sequence: effect.sequence ?? null,
          card: effect.card ?? null,
        },
      });
      return { outcome: 'duplicate', detail: { basis: effect.basis } };
    case 'integrity-error':
      return compositionExceeded(tx, effect);
    case 'card-not-expected':
      tx.emit({
        type: 'CardNotExpected',
        visibility: 'restricted',
        payload: { card: effect.card },
      });
      tx.publicEvent('CardNotExpected', { reason: 'no-card-expected' });
      tx.reject('no-card-expected', 'No card is expected now; the reading was recorded');
      return { outcome: 'not-expected', detail: {} };
    case 'sequence-gap':
      tx.emit({
        type: 'ScannerSequenceGap',
        visibility: 'restricted',
        payload: { missedFrames: effect.missedFrames, sequence: effect.sequence },
      });
      // A frame the reader numbered never arrived: it may have been a card, and every later card
      // would then sit one place off. The table plays on (a heartbeat is as likely); the
      // supervisor checks the cards against the layout.
      tx.publicEvent('SupervisorAlert', {
        kind: 'scanner-gap',
        sequence: effect.sequence,
        missedFrames: effect.missedFrames,
        message: `${plural(effect.missedFrames, 'scanner frame')} before frame ${effect.sequence} never arrived: check the cards on the table against the layout`,
      });
      return undefined;
    case 'sequence-conflict':
      // The supervisors' alert names no card: the held frame may carry a face-down one.
      tx.publicEvent('SupervisorAlert', {
        kind: 'scanner-sequence',
        reason: effect.reason,
        sequence: effect.sequence,
        previousSequence: effect.previousSequence,
      });
      tx.emit({
        type: 'ScannerSequenceConflict',
        visibility: 'restricted',
        payload: { ...effect, card: effect.card ?? null },
      });
      return { outcome: 'held', detail: { reason: effect.reason } };
  }
}

function acceptedCard(
  tx: Transition,
  card: CardCode,
  slot: string,
  readingId: string | null,
  before: IngestionState,
): Handled {
  const applied = applyCard(tx, card, readingId);
  if (applied.ok) return { outcome: 'applied', detail: { slot, card } };
  // The game refused the card: undo the ingestion's count and keep the slot open.
  tx.state = {
    ...tx.state,
    ingestion: { ...tx.state.ingestion, counts: before.counts, slot: before.slot },
  };
  tx.publicEvent('CardRejected', { slot, reason: applied.code });
  tx.reject(applied.code, applied.message);
  return { outcome: 'rejected', detail: { code: applied.code, message: applied.message } };
}

function compositionExceeded(
  tx: Transition,
  effect: Extract<IngestionEffect, { type: 'integrity-error' }>,
): Handled {
  tx.publicEvent('SupervisorAlert', {
    kind: 'composition',
    message: `A ${ordinal(effect.seen + 1)} copy of a card in a ${effect.allowed}-deck shoe`,
  });
  tx.emit({
    type: 'CompositionError',
    visibility: 'restricted',
    payload: { card: effect.card, seen: effect.seen, allowed: effect.allowed },
  });
  tx.reject(
    'composition-exceeded',
    `This shoe already produced ${effect.seen} copies of this card; ${effect.allowed} decks allow no more`,
  );
  return { outcome: 'integrity-error', detail: { seen: effect.seen, allowed: effect.allowed } };
}

/** The reading's raw bytes as lowercase hex (no Buffer: the core runs without Node's APIs). */
function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
