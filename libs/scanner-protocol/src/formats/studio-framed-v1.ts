import { CARD_BY_INDEX, cardIndexOfBytes, CODE_BY_INDEX } from '../card-table';
import { crc16 } from '../crc16';
import type {
  CardReading,
  DecoderOptions,
  FrameDecoder,
  FrameEncoder,
  InvalidReason,
  OutgoingFrame,
  ScannerReading,
  SequenceCheck,
} from '../reading';
import {
  asciiBytes,
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_MAX_RAW_BYTES,
  emitPieces,
  printable,
} from './bytes';

/**
 * studio-framed-v1, the studio's reference reader protocol (docs/scanner-protocol.md):
 *
 *   STX <seq:5 digits> "," <type>[":" <data>] "," <crc:4 hex> ETX
 *
 * types: C card (`C:AS`), U unreadable card (`U:NOREAD`), H heartbeat, S status (`S:READY`).
 * The CRC-16/CCITT-FALSE covers the bytes between STX and the comma before the checksum.
 *
 * Resynchronisation: STX and ETX never occur inside a frame, so an STX always starts a new frame
 * (a frame in progress is reported as truncated) and bytes outside a frame are noise. Hence a valid
 * frame is decoded exactly once whatever garbage surrounds it.
 */
export const STUDIO_FRAMED_V1 = 'studio-framed-v1';

export const STX = 0x02;
export const ETX = 0x03;
const COMMA = 0x2c;
const COLON = 0x3a;
/** Device sequence numbers run 00000..99999 and wrap to 00000. */
export const SEQUENCE_MODULUS = 100_000;
/** STX + 5 digits + "," + type + "," + 4 hex + ETX. */
const MIN_FRAME = 14;
const MAX_TOKEN = 16;

const enum Mode {
  Hunting,
  InFrame,
}

const HEX_VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i += 1) HEX_VALUE['0123456789ABCDEF'.charCodeAt(i)] = i;

function isTokenByte(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || b === 0x2d;
}

export class StudioFramedV1Decoder implements FrameDecoder {
  readonly wireFormat = STUDIO_FRAMED_V1;
  private readonly maxFrame: number;
  private readonly maxRaw: number;
  private readonly frame: Uint8Array;
  private length = 0;
  private mode = Mode.Hunting;
  private lastSequence = -1;
  private missedFrames = 0;

  constructor(options: DecoderOptions = {}) {
    this.maxFrame = Math.max(MIN_FRAME, options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
    this.maxRaw = Math.max(1, options.maxRawBytes ?? DEFAULT_MAX_RAW_BYTES);
    this.frame = new Uint8Array(this.maxFrame);
  }

  get bufferedBytes(): number {
    return this.mode === Mode.InFrame ? this.length : 0;
  }

  push(chunk: Uint8Array, receivedAt: number): ScannerReading[] {
    const out: ScannerReading[] = [];
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      if (this.mode === Mode.Hunting) {
        const stx = chunk.indexOf(STX, i);
        const end = stx === -1 ? n : stx;
        if (end > i) {
          emitPieces(out, chunk, i, end, receivedAt, 'noise', 'bytes outside a frame', this.maxRaw);
        }
        if (stx === -1) break;
        this.frame[0] = STX;
        this.length = 1;
        this.mode = Mode.InFrame;
        i = stx + 1;
        continue;
      }
      // Copy the frame body byte by byte (frames are short; no per-frame subarray allocation).
      const frame = this.frame;
      const limit = this.maxFrame - 1; // one byte is kept for the ETX
      let length = this.length;
      let k = i;
      while (k < n) {
        const b = chunk[k];
        if (b === ETX || b === STX || length === limit) break;
        frame[length] = b;
        length += 1;
        k += 1;
      }
      this.length = length;
      i = k;
      if (k === n) break;
      if (chunk[k] !== ETX && chunk[k] !== STX) {
        out.push(
          this.invalid(
            'oversized',
            `no ETX within ${this.maxFrame} bytes: ${printable(frame, 0, length)}`,
            receivedAt,
          ),
        );
        this.mode = Mode.Hunting;
        continue;
      }
      if (chunk[k] === STX) {
        out.push(
          this.invalid(
            'truncated',
            `frame cut short by the next STX: ${printable(this.frame, 0, this.length)}`,
            receivedAt,
          ),
        );
        this.frame[0] = STX;
        this.length = 1;
      } else {
        this.frame[this.length] = ETX;
        this.length += 1;
        out.push(this.decodeFrame(receivedAt));
        this.mode = Mode.Hunting;
      }
      i = k + 1;
    }
    return out;
  }

  flush(receivedAt: number): ScannerReading[] {
    if (this.mode !== Mode.InFrame) return [];
    this.mode = Mode.Hunting;
    return [
      this.invalid(
        'truncated',
        `input ended inside a frame: ${printable(this.frame, 0, this.length)}`,
        receivedAt,
      ),
    ];
  }

  private invalid(reason: InvalidReason, detail: string, receivedAt: number): ScannerReading {
    return { kind: 'invalid', reason, detail, raw: this.frame.slice(0, this.length), receivedAt };
  }

  /** Decodes the complete frame STX..ETX held in `this.frame`. */
  private decodeFrame(receivedAt: number): ScannerReading {
    const f = this.frame;
    const len = this.length;
    const crcComma = len - 6;
    if (len < MIN_FRAME || f[6] !== COMMA || f[crcComma] !== COMMA) {
      return this.invalid(
        'malformed',
        `not <seq>,<type>,<crc>: ${printable(f, 0, len)}`,
        receivedAt,
      );
    }
    let sequence = 0;
    for (let p = 1; p <= 5; p += 1) {
      const d = f[p] - 0x30;
      if (d < 0 || d > 9) {
        return this.invalid(
          'malformed',
          `sequence is not 5 digits: ${printable(f, 0, len)}`,
          receivedAt,
        );
      }
      sequence = sequence * 10 + d;
    }
    let sent = 0;
    for (let p = crcComma + 1; p < len - 1; p += 1) {
      const h = HEX_VALUE[f[p]];
      if (h < 0) {
        return this.invalid(
          'malformed',
          `checksum is not 4 hex digits: ${printable(f, 0, len)}`,
          receivedAt,
        );
      }
      sent = (sent << 4) | h;
    }
    const computed = crc16(f, 1, crcComma);
    if (computed !== sent) {
      return this.invalid(
        'bad-checksum',
        `checksum ${hex4(sent)} but content gives ${hex4(computed)}: ${printable(f, 0, len)}`,
        receivedAt,
      );
    }
    // From here on the frame is authentic: its sequence number counts even if its content is bad.
    const sequenceCheck = this.checkSequence(sequence);
    const type = f[7];
    const dataStart = 9;
    const hasData = crcComma > 8;
    if (hasData && (f[8] !== COLON || crcComma === dataStart)) {
      return this.stamp(
        sequence,
        sequenceCheck,
        this.invalid(
          'malformed',
          `expected ":<data>" after the type: ${printable(f, 0, len)}`,
          receivedAt,
        ),
      );
    }
    const raw = f.slice(0, len);
    switch (type) {
      case 0x43: {
        // C: card
        const index = crcComma - dataStart === 2 ? cardIndexOfBytes(f[9], f[10]) : -1;
        if (index < 0) {
          return this.stamp(
            sequence,
            sequenceCheck,
            this.invalid(
              'impossible-card-code',
              `"${printable(f, dataStart, Math.max(dataStart, crcComma))}" is not a card`,
              receivedAt,
            ),
          );
        }
        // The hot path: one object literal of a fixed shape, no spreads.
        const reading: CardReading = {
          kind: 'card',
          card: CARD_BY_INDEX[index],
          code: CODE_BY_INDEX[index],
          raw,
          receivedAt,
          sequence,
          sequenceCheck,
        };
        if (sequenceCheck === 'gap') reading.missedFrames = this.missedFrames;
        return reading;
      }
      case 0x55: // U: unreadable card
      case 0x53: {
        // S: status
        const token = hasData ? tokenAt(f, dataStart, crcComma) : undefined;
        if (token === undefined) {
          return this.stamp(
            sequence,
            sequenceCheck,
            this.invalid(
              'malformed',
              `expected a code of 1-${MAX_TOKEN} of A-Z 0-9 -: ${printable(f, 0, len)}`,
              receivedAt,
            ),
          );
        }
        return type === 0x55
          ? this.stamp(sequence, sequenceCheck, {
              kind: 'unrecognised',
              code: token,
              reason: 'reader-reported',
              raw,
              receivedAt,
            })
          : this.stamp(sequence, sequenceCheck, { kind: 'status', status: token, raw, receivedAt });
      }
      case 0x48: // H: heartbeat
        if (hasData) {
          return this.stamp(
            sequence,
            sequenceCheck,
            this.invalid(
              'malformed',
              `a heartbeat carries no data: ${printable(f, 0, len)}`,
              receivedAt,
            ),
          );
        }
        return this.stamp(sequence, sequenceCheck, { kind: 'heartbeat', raw, receivedAt });
      default:
        return this.stamp(
          sequence,
          sequenceCheck,
          this.invalid('malformed', `unknown frame type "${printable(f, 7, 8)}"`, receivedAt),
        );
    }
  }

  /** Adds the sequence fields to a reading of an authentic (CRC-checked) frame. */
  private stamp(sequence: number, check: SequenceCheck, reading: ScannerReading): ScannerReading {
    reading.sequence = sequence;
    reading.sequenceCheck = check;
    if (check === 'gap') reading.missedFrames = this.missedFrames;
    return reading;
  }

  /** Classifies a sequence number against the previous one; a gap's size goes to missedFrames. */
  private checkSequence(sequence: number): SequenceCheck {
    const last = this.lastSequence;
    this.lastSequence = sequence;
    if (last < 0) return 'first';
    if (sequence === last) return 'repeat';
    const forward = (sequence - last + SEQUENCE_MODULUS) % SEQUENCE_MODULUS;
    // 99999 -> 3 is a wrap (4 ahead); 500 -> 3 went back: no device skips half its range.
    if (forward > SEQUENCE_MODULUS / 2) return 'backwards';
    this.missedFrames = forward - 1;
    return this.missedFrames === 0 ? 'next' : 'gap';
  }
}

function tokenAt(f: Uint8Array, start: number, end: number): string | undefined {
  if (end - start < 1 || end - start > MAX_TOKEN) return undefined;
  let text = '';
  for (let p = start; p < end; p += 1) {
    if (!isTokenByte(f[p])) return undefined;
    text += String.fromCharCode(f[p]);
  }
  return text;
}

function hex4(value: number): string {
  return value.toString(16).toUpperCase().padStart(4, '0');
}

export class StudioFramedV1Encoder implements FrameEncoder {
  readonly wireFormat = STUDIO_FRAMED_V1;

  supports(): boolean {
    return true;
  }

  encode(frame: OutgoingFrame, sequence: number): Uint8Array {
    return studioFramedV1Frame(sequence, payloadOf(frame));
  }
}

/** Builds one frame around any payload text (tests use it to forge bad content with a good CRC). */
export function studioFramedV1Frame(sequence: number, payload: string): Uint8Array {
  const seq = String(
    ((sequence % SEQUENCE_MODULUS) + SEQUENCE_MODULUS) % SEQUENCE_MODULUS,
  ).padStart(5, '0');
  const body = `${seq},${payload}`;
  return asciiBytes(`\x02${body},${hex4(crc16(asciiBytes(body)))}\x03`);
}

function payloadOf(frame: OutgoingFrame): string {
  switch (frame.kind) {
    case 'card':
      return `C:${frame.code}`;
    case 'unrecognised':
      return `U:${frame.code}`;
    case 'status':
      return `S:${frame.status}`;
    case 'heartbeat':
      return 'H';
  }
}
