import type { InvalidReason, InvalidReading, ScannerReading } from '../reading';

export const DEFAULT_MAX_FRAME_BYTES = 64;
export const DEFAULT_MAX_RAW_BYTES = 4096;

/** Reports bytes [start, end) as invalid readings of at most `maxRaw` bytes each (memory stays bounded). */
export function emitPieces(
  out: ScannerReading[],
  bytes: Uint8Array,
  start: number,
  end: number,
  receivedAt: number,
  reason: InvalidReason,
  detail: string,
  maxRaw: number,
): void {
  for (let from = start; from < end; from += maxRaw) {
    const to = Math.min(end, from + maxRaw);
    const reading: InvalidReading = {
      kind: 'invalid',
      reason,
      detail,
      raw: bytes.slice(from, to),
      receivedAt,
    };
    out.push(reading);
  }
}

/** Printable, escaped rendering of bytes for one-line details and logs. */
export function printable(bytes: Uint8Array, start = 0, end = bytes.length, max = 40): string {
  let text = '';
  for (let i = start; i < end && i - start < max; i += 1) {
    const b = bytes[i];
    text +=
      b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return end - start > max ? `${text}...` : text;
}

export function latin1(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i += 1) text += String.fromCharCode(bytes[i]);
  return text;
}

export function asciiBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}
