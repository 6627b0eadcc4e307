import type { FrameDecoder, FrameEncoder } from '../reading';
import { LINE, LineDecoder, LineDecoderOptions, LineEncoder } from './line';
import { STUDIO_FRAMED_V1, StudioFramedV1Decoder, StudioFramedV1Encoder } from './studio-framed-v1';

export type WireFormatOptions = LineDecoderOptions;

export interface WireFormatDefinition {
  name: string;
  /** What the format is, for configuration errors and docs. */
  description: string;
  /** Whether the reader sends heartbeats (otherwise silence is normal and never "stale"). */
  hasHeartbeats: boolean;
  createDecoder(options?: WireFormatOptions): FrameDecoder;
  /** Formats the virtual shoe can speak; a vendor format may come with a decoder only. */
  createEncoder?(): FrameEncoder;
}

/**
 * Every wire format a table may be configured with. Supporting a vendor's reader means writing its
 * decoder class and adding one entry here; configuration, adapter and persistence need no change.
 */
export const WIRE_FORMATS: readonly WireFormatDefinition[] = [
  {
    name: STUDIO_FRAMED_V1,
    description: 'STX seq,type[:data],crc16 ETX frames with heartbeats (docs/scanner-protocol.md)',
    hasHeartbeats: true,
    createDecoder: (options) => new StudioFramedV1Decoder(options),
    createEncoder: () => new StudioFramedV1Encoder(),
  },
  {
    name: LINE,
    description: 'one card code per line, as keyboard-style readers send',
    hasHeartbeats: false,
    createDecoder: (options) => new LineDecoder(options),
    createEncoder: () => new LineEncoder(),
  },
];

export const WIRE_FORMAT_NAMES = WIRE_FORMATS.map((f) => f.name);

export function wireFormat(name: string): WireFormatDefinition | undefined {
  return WIRE_FORMATS.find((f) => f.name === name);
}

export * from './line';
export * from './studio-framed-v1';
