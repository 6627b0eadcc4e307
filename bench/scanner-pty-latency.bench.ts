/**
 * Write-to-reading latency over a real pseudo-terminal pair (socat): the time from writing one
 * studio-framed-v1 frame on the shoe end to the adapter handing the decoded reading to its
 * listener. One frame at a time, so each sample is a full round through socat, the tty layer,
 * serialport and the decoder. Prints p50/p99/max; asserts nothing.
 */
import { StudioFramedV1Encoder } from '../libs/scanner-protocol/src';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPort } from 'serialport';
import { PtyPair } from '@studio/virtual-shoe';
import { SerialScannerAdapter } from '../src/scanner/serial-scanner-adapter';

const WARM_UP = 200;
const SAMPLES = 3000;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'scanner-latency-'));
  const pty = await PtyPair.start(dir);
  let resolveReading: (() => void) | undefined;
  const adapter = new SerialScannerAdapter(
    {
      path: pty.readerPath,
      wireFormat: 'studio-framed-v1',
      line: { baudRate: 115200, dataBits: 8, parity: 'none', stopBits: 1 },
      heartbeatTimeoutMs: null,
      reconnectInitialDelayMs: 50,
      reconnectMaxDelayMs: 500,
      now: () => new Date(),
    },
    { reading: () => resolveReading?.(), status: () => undefined },
  );
  adapter.start();
  if (!(await adapter.waitUntilConnected(5000))) throw new Error('adapter did not connect');
  const shoe = new SerialPort({ path: pty.shoePath, baudRate: 115200, autoOpen: false });
  await new Promise<void>((resolve, reject) => shoe.open((e) => (e ? reject(e) : resolve())));

  const encoder = new StudioFramedV1Encoder();
  const latenciesMs: number[] = [];
  for (let i = 0; i < WARM_UP + SAMPLES; i += 1) {
    const frame = Buffer.from(encoder.encode({ kind: 'card', code: 'AS' }, i));
    const arrived = new Promise<void>((resolve) => (resolveReading = resolve));
    const started = process.hrtime.bigint();
    shoe.write(frame);
    await arrived;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (i >= WARM_UP) latenciesMs.push(ms);
  }
  latenciesMs.sort((a, b) => a - b);
  const pct = (p: number) =>
    latenciesMs[Math.min(latenciesMs.length - 1, Math.floor((p / 100) * latenciesMs.length))];
  console.log(
    `pty write -> decoded reading, ${SAMPLES.toLocaleString('en-US')} frames one at a time: ` +
      `p50 ${pct(50).toFixed(3)} ms, p90 ${pct(90).toFixed(3)} ms, p99 ${pct(99).toFixed(3)} ms, max ${latenciesMs.at(-1)!.toFixed(3)} ms`,
  );

  await new Promise<void>((resolve) => shoe.close(() => resolve()));
  await adapter.stop();
  await pty.stop();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
