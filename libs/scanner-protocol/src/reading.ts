import type { Card, CardCode } from '@studio/cards';

/**
 * What a card-shoe reader said, decoded. Every reading carries the exact bytes it was decoded from
 * (`raw`) and when the last of those bytes arrived (`receivedAt`, epoch milliseconds from the
 * caller's clock), so that nothing the reader sent is lost and every interpretation can be
 * re-checked against its bytes.
 */
export type ScannerReading =
  CardReading | UnrecognisedReading | StatusReading | HeartbeatReading | InvalidReading;

export type ReadingKind = ScannerReading['kind'];

interface ReadingBase {
  raw: Uint8Array;
  receivedAt: number;
}

/**
 * How a device sequence number relates to the one before it (framed formats only): `backwards` is
 * a number behind the previous one by more than it could have wrapped (over half the range).
 */
export type SequenceCheck = 'first' | 'next' | 'repeat' | 'gap' | 'backwards';

interface Sequenced {
  /** Device sequence number, when the wire format has one. */
  sequence?: number;
  sequenceCheck?: SequenceCheck;
  /** For `gap`: how many frames the device numbered but we never decoded. */
  missedFrames?: number;
}

export interface CardReading extends ReadingBase, Sequenced {
  kind: 'card';
  card: Card;
  code: CardCode;
}

/** The reader saw a card but could not read it: the same card must be scanned again. */
export interface UnrecognisedReading extends ReadingBase, Sequenced {
  kind: 'unrecognised';
  /** The reader's own code or the text it sent (`NOREAD`, `??`, `1X`). */
  code: string;
  reason: UnrecognisedReason;
}

export type UnrecognisedReason =
  /** The reader reported that it could not read the card (framed `U` frame). */
  | 'reader-reported'
  /** The reader sent text that is not a card code nor a configured alias (line mode). */
  | 'unknown-card-code';

export interface StatusReading extends ReadingBase, Sequenced {
  kind: 'status';
  status: string;
}

export interface HeartbeatReading extends ReadingBase, Sequenced {
  kind: 'heartbeat';
}

/** Bytes that are not a well-formed reading of the wire format. */
export interface InvalidReading extends ReadingBase, Sequenced {
  kind: 'invalid';
  reason: InvalidReason;
  /** One line, for people: what exactly was wrong. */
  detail: string;
}

export type InvalidReason =
  /** Bytes outside any frame (framed) or a line of unprintable bytes (line mode). */
  | 'noise'
  /** A frame started but another frame started, or the port closed, before it ended. */
  | 'truncated'
  /** A frame or line longer than the configured maximum; its bytes are reported in pieces. */
  | 'oversized'
  /** A complete frame that does not follow the grammar. */
  | 'malformed'
  | 'bad-checksum'
  /** A well-formed card frame whose card code names no card. */
  | 'impossible-card-code'
  /** A line with nothing but whitespace. */
  | 'blank-line';

/** A streaming decoder for one wire format. Never throws on input; buffers a bounded amount. */
export interface FrameDecoder {
  readonly wireFormat: string;
  /** Decodes what the bytes complete; keeps an incomplete frame for the next push. */
  push(chunk: Uint8Array, receivedAt: number): ScannerReading[];
  /** Reports a pending partial frame (the port closed mid-frame) and forgets it. */
  flush(receivedAt: number): ScannerReading[];
  /** Bytes currently held back waiting for the rest of a frame (bounded). */
  readonly bufferedBytes: number;
}

/** Options every decoder accepts; a format ignores what it has no use for. */
export interface DecoderOptions {
  /** Longest frame or line accepted, in bytes. */
  maxFrameBytes?: number;
  /** Longest run of bytes a single reading carries (noise and oversized input are split). */
  maxRawBytes?: number;
  /** Extra spellings a reader uses for cards, e.g. `{ "10S": "TS" }` (line mode). */
  aliases?: Readonly<Record<string, CardCode>>;
}

/** What an encoder can write (the virtual shoe and the tests speak every format through this). */
export type OutgoingFrame =
  | { kind: 'card'; code: CardCode }
  | { kind: 'unrecognised'; code: string }
  | { kind: 'status'; status: string }
  | { kind: 'heartbeat' };

export interface FrameEncoder {
  readonly wireFormat: string;
  /** Encodes one frame; `sequence` is used by formats that carry one. */
  encode(frame: OutgoingFrame, sequence: number): Uint8Array;
  /** Whether the format can express this frame kind at all (line mode has no heartbeats). */
  supports(kind: OutgoingFrame['kind']): boolean;
}
