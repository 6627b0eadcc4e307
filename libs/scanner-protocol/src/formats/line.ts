import { cardIndex, parseCardCode } from '@studio/cards';
import { CARD_BY_INDEX, CODE_BY_INDEX, standardSpellings } from '../card-table';
import type {
  DecoderOptions,
  FrameDecoder,
  FrameEncoder,
  OutgoingFrame,
  ScannerReading,
} from '../reading';
import {
  asciiBytes,
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_MAX_RAW_BYTES,
  emitPieces,
  latin1,
  printable,
} from './bytes';

/**
 * Plain line mode, as sent by simple keyboard-style readers: one card code per line (`AS`, `10H`,
 * `Td`, or a configured alias), terminated by LF (a CR before it is ignored). Any other printable
 * line is an unrecognised card: these readers have no separate "could not read" code and send
 * whatever they made of the card. No sequence numbers and no heartbeats exist in this format.
 */
export const LINE = 'line';

const LF = 0x0a;

export interface LineDecoderOptions extends DecoderOptions {
  /** Byte that ends a line: LF (default, CRLF works too) or CR for readers that send only CR. */
  lineEnding?: 'lf' | 'cr';
}

function upper(b: number): number {
  return b >= 0x61 && b <= 0x7a ? b - 0x20 : b;
}

function isWhitespace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

export class LineDecoder implements FrameDecoder {
  readonly wireFormat = LINE;
  private readonly maxLine: number;
  private readonly maxRaw: number;
  private readonly terminator: number;
  private readonly spellings: Map<string, number>;
  /** Two upper-cased bytes -> card index or -1: the common case without building a string. */
  private readonly twoByte = new Int16Array(65536).fill(-1);
  private readonly line: Uint8Array;
  private length = 0;
  /** After an oversized line: bytes up to the next terminator are reported, not interpreted. */
  private discarding = false;

  constructor(options: LineDecoderOptions = {}) {
    this.maxLine = Math.max(4, options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
    this.maxRaw = Math.max(1, options.maxRawBytes ?? DEFAULT_MAX_RAW_BYTES);
    this.terminator = options.lineEnding === 'cr' ? 0x0d : LF;
    this.line = new Uint8Array(this.maxLine);
    this.spellings = standardSpellings();
    for (const [alias, code] of Object.entries(options.aliases ?? {})) {
      const target = parseCardCode(code);
      if (target) this.spellings.set(alias.trim().toUpperCase(), cardIndex(target));
    }
    for (const [spelling, index] of this.spellings) {
      if (spelling.length === 2) {
        this.twoByte[((spelling.charCodeAt(0) & 0xff) << 8) | (spelling.charCodeAt(1) & 0xff)] =
          index;
      }
    }
  }

  get bufferedBytes(): number {
    return this.length;
  }

  push(chunk: Uint8Array, receivedAt: number): ScannerReading[] {
    const out: ScannerReading[] = [];
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      const t = chunk.indexOf(this.terminator, i);
      const end = t === -1 ? n : t + 1; // the terminator belongs to its line
      if (this.discarding) {
        // Noise, as the bytes a framed reader sends after an oversized frame: the line was one
        // failed read, reported once as `oversized`. Each 4 KiB piece of its rest counted as a
        // failed read of its own, so one long line used several rescan attempts (a 20 KB one
        // escalated to the supervisor at once).
        emitPieces(
          out,
          chunk,
          i,
          end,
          receivedAt,
          'noise',
          'rest of an oversized line',
          this.maxRaw,
        );
        if (t !== -1) this.discarding = false;
        i = end;
        continue;
      }
      const count = end - i;
      if (this.length + count > this.maxLine) {
        const room = this.maxLine - this.length;
        this.line.set(chunk.subarray(i, i + room), this.length);
        this.length += room;
        out.push({
          kind: 'invalid',
          reason: 'oversized',
          detail: `line longer than ${this.maxLine} bytes: ${printable(this.line, 0, this.length)}`,
          raw: this.line.slice(0, this.length),
          receivedAt,
        });
        this.length = 0;
        this.discarding = true;
        i += room;
        continue;
      }
      // Lines are short: a byte loop beats allocating a subarray per line.
      const line = this.line;
      let length = this.length;
      for (let p = i; p < end; p += 1) line[length++] = chunk[p];
      this.length = length;
      i = end;
      if (t !== -1) {
        out.push(this.interpret(receivedAt));
        this.length = 0;
      }
    }
    return out;
  }

  flush(receivedAt: number): ScannerReading[] {
    this.discarding = false;
    if (this.length === 0) return [];
    const raw = this.line.slice(0, this.length);
    this.length = 0;
    return [
      {
        kind: 'invalid',
        reason: 'truncated',
        detail: `input ended inside a line: ${printable(raw)}`,
        raw,
        receivedAt,
      },
    ];
  }

  private interpret(receivedAt: number): ScannerReading {
    const l = this.line;
    let start = 0;
    let end = this.length;
    while (start < end && isWhitespace(l[start])) start += 1;
    while (end > start && isWhitespace(l[end - 1])) end -= 1;
    const raw = l.slice(0, this.length);
    if (start === end) {
      return { kind: 'invalid', reason: 'blank-line', detail: 'empty line', raw, receivedAt };
    }
    for (let p = start; p < end; p += 1) {
      if (l[p] < 0x20 || l[p] > 0x7e) {
        return {
          kind: 'invalid',
          reason: 'noise',
          detail: `unprintable bytes in a line: ${printable(l, start, end)}`,
          raw,
          receivedAt,
        };
      }
    }
    if (end - start === 2) {
      const index = this.twoByte[(upper(l[start]) << 8) | upper(l[start + 1])];
      if (index >= 0) {
        return {
          kind: 'card',
          card: CARD_BY_INDEX[index],
          code: CODE_BY_INDEX[index],
          raw,
          receivedAt,
        };
      }
    }
    const text = latin1(l, start, end);
    const index = this.spellings.get(text.toUpperCase());
    if (index === undefined) {
      return { kind: 'unrecognised', code: text, reason: 'unknown-card-code', raw, receivedAt };
    }
    return {
      kind: 'card',
      card: CARD_BY_INDEX[index],
      code: CODE_BY_INDEX[index],
      raw,
      receivedAt,
    };
  }
}

export class LineEncoder implements FrameEncoder {
  readonly wireFormat = LINE;

  supports(kind: OutgoingFrame['kind']): boolean {
    return kind === 'card' || kind === 'unrecognised';
  }

  /** Unsupported kinds (heartbeat, status) encode to nothing. */
  encode(frame: OutgoingFrame): Uint8Array {
    if (frame.kind === 'card') return asciiBytes(`${frame.code}\r\n`);
    if (frame.kind === 'unrecognised') return asciiBytes(`${frame.code}\r\n`);
    return new Uint8Array(0);
  }
}
