import type { CardRecord, HandRecord } from '../history/reader/round-cards.reader';
import type { ReadingRecord } from '../history/reader/readings.reader';
import type { StoredChainEvent } from '../history/reader/round-events.reader';

/** Round statuses after which nothing is hidden any more. */
export const ENDED_STATUSES: readonly string[] = ['completed', 'voided'];

export const roundHasEnded = (status: string): boolean => ENDED_STATUSES.includes(status);

/** What the auditor's timeline is built from, as read from the history. */
export interface RoundRecords {
  readings: ReadingRecord[];
  cards: CardRecord[];
  events: StoredChainEvent[];
  hands: HandRecord[];
}

/** A card row whose value may not be shown yet: `card` is null. */
export type ShownCard = Omit<CardRecord, 'card'> & { card: string | null; withheld?: true };
/** A reading whose bytes may not be shown yet: raw, decoded and detail are null. */
export type ShownReading = Omit<ReadingRecord, 'raw' | 'decoded' | 'outcomeDetail'> & {
  raw: Buffer | null;
  decoded: Record<string, unknown> | null;
  outcomeDetail: unknown;
  withheld?: true;
};
/** An event of a round in progress carries no hashes and no salt (see below). */
export type ShownEvent = Omit<StoredChainEvent, 'prevHash' | 'hash' | 'salt'> &
  Partial<Pick<StoredChainEvent, 'prevHash' | 'hash' | 'salt'>>;

export interface ShownRecords {
  readings: ShownReading[];
  cards: ShownCard[];
  events: ShownEvent[];
  hands: HandRecord[];
}

const stillFaceDown = (c: CardRecord) => c.faceDown && c.revealedAt === null;

/**
 * Face-down cards reach nobody before they are revealed at the table, auditors included: until the
 * round has ended (completed or voided), an auditor sees
 * - a face-down card's slot and times but not its value;
 * - a reading's bytes only when it became a card that is face up or revealed: the reading of a
 *   face-down card, a rescan or duplicate of it, or garbage that may hold part of it shows its
 *   outcome only (raw bytes, decoded value and detail withheld);
 * - public events only, without their hashes and salts: a restricted event (`HiddenCardRecorded`)
 *   holds the card, and a hash over a card can be found by trying the 52 candidates;
 * - no hands (they are recorded when the round settles).
 * After the end, everything as stored.
 */
export function hiddenUntilRoundEnd(status: string, records: RoundRecords): ShownRecords {
  if (roundHasEnded(status)) return records;
  const shownReadings = new Set(
    records.cards.filter((c) => !stillFaceDown(c) && c.readingId !== null).map((c) => c.readingId),
  );
  return {
    cards: records.cards.map((c) => (stillFaceDown(c) ? { ...c, card: null, withheld: true } : c)),
    readings: records.readings.map((r) =>
      shownReadings.has(r.readingId)
        ? r
        : { ...r, raw: null, decoded: null, outcomeDetail: null, withheld: true },
    ),
    events: records.events
      .filter((e) => e.visibility === 'public')
      .map(({ prevHash: _prev, hash: _hash, salt: _salt, ...e }) => e),
    hands: [],
  };
}
