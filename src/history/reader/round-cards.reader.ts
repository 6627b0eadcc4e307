import type { HistoryQuery } from './history-query';
import { iso } from './history-query';

/** A card as it lies on the table: a corrected card shows as its correction. */
export interface DealtCard {
  slot: string;
  card: string;
  faceDown: boolean;
  revealedAt: string | null;
}

/** Every stored row of a round's cards, corrected ones included (the auditor's timeline). */
export interface CardRecord {
  cardRowId: string;
  slot: string;
  card: string;
  readingId: string | null;
  faceDown: boolean;
  dealtAt: string;
  revealedAt: string | null;
  correctedByCardRowId: string | null;
  correctionReason: string | null;
}

/** A hand of a finished round (round_hands). */
export interface HandRecord {
  hand: string;
  owner: string | null;
  cards: string[];
  total: string;
  result: string | null;
}

/** A dealt card next to its raw reading: what it decoded to, its bytes, when it came. */
export interface CardReading {
  slot: string;
  card: string;
  decoded: string | null;
  rawHex: string;
  receivedAt: string;
  sequence: number | null;
}

interface DealtRow {
  slot: string;
  card: string;
  face_down: boolean;
  revealed_at: Date | null;
}

const dealt = (r: DealtRow): DealtCard => ({
  slot: r.slot,
  card: r.card,
  faceDown: r.face_down,
  revealedAt: iso(r.revealed_at),
});

/** round_cards and round_hands. */
export class RoundCardsReader {
  constructor(private readonly q: HistoryQuery) {}

  /**
   * The round's cards in dealing order. A corrected card takes the place of the card it replaced
   * (the first row of its slot), not the place of the correction, which was stored after later
   * cards. The one query for this order: replay and the consoles both read it here.
   */
  async inDealingOrder(roundId: string): Promise<DealtCard[]> {
    const rows = await this.q<DealtRow>(
      `SELECT c.slot, c.card, c.face_down, c.revealed_at FROM round_cards c
        WHERE c.round_id = $1 AND c.corrected_by_id IS NULL
        ORDER BY (SELECT min(o.id) FROM round_cards o
                   WHERE o.round_id = c.round_id AND o.slot = c.slot), c.id`,
      [roundId],
    );
    return rows.map(dealt);
  }

  /** The cards burnt from a shoe before its first round (corrections applied). */
  async burnOfShoe(shoeId: string): Promise<DealtCard[]> {
    const rows = await this.q<DealtRow>(
      `SELECT slot, card, face_down, revealed_at FROM round_cards
        WHERE round_id IS NULL AND shoe_id = $1 AND corrected_by_id IS NULL ORDER BY id`,
      [shoeId],
    );
    return rows.map(dealt);
  }

  /** Every card row of the round in the order stored, corrected rows included. */
  async rowsOfRound(roundId: string): Promise<CardRecord[]> {
    const rows = await this.q<{
      id: string;
      slot: string;
      card: string;
      reading_id: string | null;
      face_down: boolean;
      dealt_at: Date;
      revealed_at: Date | null;
      corrected_by_id: string | null;
      correction_reason: string | null;
    }>(
      `SELECT id, slot, card, reading_id, face_down, dealt_at, revealed_at, corrected_by_id, correction_reason
         FROM round_cards WHERE round_id = $1 ORDER BY id`,
      [roundId],
    );
    return rows.map((c) => ({
      cardRowId: String(c.id),
      slot: c.slot,
      card: c.card,
      readingId: c.reading_id === null ? null : String(c.reading_id),
      faceDown: c.face_down,
      dealtAt: iso(c.dealt_at)!,
      revealedAt: iso(c.revealed_at),
      correctedByCardRowId: c.corrected_by_id === null ? null : String(c.corrected_by_id),
      correctionReason: c.correction_reason,
    }));
  }

  /** The round's scanned (uncorrected) cards next to the code their raw reading decoded to. */
  async withReadings(roundId: string): Promise<CardReading[]> {
    return this.q<CardReading>(
      `SELECT c.slot, c.card, s.decoded->>'code' AS decoded, encode(s.raw, 'hex') AS "rawHex",
              to_char(s.received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "receivedAt",
              s.device_seq AS sequence
         FROM round_cards c JOIN scanner_readings s ON s.id = c.reading_id
        WHERE c.round_id = $1 AND c.reading_id IS NOT NULL AND c.correction_reason IS NULL
          AND s.kind = 'card'
        ORDER BY c.id`,
      [roundId],
    );
  }

  async handsOfRound(roundId: string): Promise<HandRecord[]> {
    return this.q<HandRecord>(
      `SELECT hand, owner, cards, total, result FROM round_hands WHERE round_id = $1 ORDER BY id`,
      [roundId],
    );
  }
}
