/**
 * Decoder throughput on one core: frames per second for studio-framed-v1 (CRC checked, sequence
 * tracked) and for line mode, fed in 64 KiB chunks as a serial driver would. Prints figures;
 * asserts nothing.
 */
import { CODE_BY_INDEX } from '../libs/scanner-protocol/src/card-table';
import {
  LineDecoder,
  LineEncoder,
  OutgoingFrame,
  ScannerReading,
  StudioFramedV1Decoder,
  StudioFramedV1Encoder,
} from '../libs/scanner-protocol/src';

const FRAMES = 2_000_000;
const CHUNK = 64 * 1024;
const RUNS = 5;

function frameAt(i: number): OutgoingFrame {
  // Mostly cards, with the share of misreads and heartbeats a busy table produces.
  if (i % 20 === 19) return { kind: 'unrecognised', code: 'NOREAD' };
  if (i % 10 === 9) return { kind: 'heartbeat' };
  return { kind: 'card', code: CODE_BY_INDEX[(i * 7) % 52] };
}

function build(encode: (i: number) => Uint8Array): Buffer {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < FRAMES; i += 1) parts.push(encode(i));
  return Buffer.concat(parts);
}

function measure(
  name: string,
  input: Buffer,
  newDecoder: () => { push(c: Uint8Array, at: number): ScannerReading[] },
  expected: number,
): void {
  const rates: number[] = [];
  for (let run = 0; run < RUNS + 1; run += 1) {
    const decoder = newDecoder();
    let decoded = 0;
    const started = process.hrtime.bigint();
    for (let i = 0; i < input.length; i += CHUNK) {
      decoded += decoder.push(input.subarray(i, i + CHUNK), 1_764_400_000_000).length;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (decoded !== expected) throw new Error(`${name}: decoded ${decoded}, expected ${expected}`);
    if (run > 0) rates.push(decoded / seconds); // run 0 warms the JIT up
  }
  rates.sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)];
  console.log(
    `${name.padEnd(17)} ${expected.toLocaleString('en-US')} frames, ${(input.length / 1e6).toFixed(1)} MB: ` +
      `median ${Math.round(median).toLocaleString('en-US')} frames/s ` +
      `(${((median * input.length) / expected / 1e6).toFixed(1)} MB/s), best ${Math.round(rates.at(-1)!).toLocaleString('en-US')} frames/s over ${RUNS} runs`,
  );
}

const framed = new StudioFramedV1Encoder();
const framedInput = build((i) => framed.encode(frameAt(i), i));
measure('studio-framed-v1', framedInput, () => new StudioFramedV1Decoder(), FRAMES);

const line = new LineEncoder();
const lineInput = build((i) => {
  const f = frameAt(i);
  return line.encode(f.kind === 'heartbeat' ? { kind: 'card', code: 'TD' } : f);
});
measure('line', lineInput, () => new LineDecoder(), FRAMES);
