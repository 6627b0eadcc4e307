import type { ScannerReading } from '@studio/scanner-protocol';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PtyPair } from '@studio/virtual-shoe';
import {
  ScannerStatusChange,
  SerialScannerAdapter,
} from '../../../src/scanner/serial-scanner-adapter';

/** Polls until the condition holds; fails with what was awaited. */
export async function until(
  condition: () => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A real socat pty pair with a scanner adapter reading its reader end. */
export class PtyReader {
  readonly readings: ScannerReading[] = [];
  readonly statuses: ScannerStatusChange[] = [];
  readonly adapter: SerialScannerAdapter;
  pty!: PtyPair;

  private constructor(
    readonly dir: string,
    wireFormat: string,
    onReading?: (reading: ScannerReading) => void,
  ) {
    this.adapter = new SerialScannerAdapter(
      {
        path: join(dir, 'reader'),
        wireFormat,
        line: { baudRate: 115200, dataBits: 8, parity: 'none', stopBits: 1 },
        heartbeatTimeoutMs: null,
        reconnectInitialDelayMs: 20,
        reconnectMaxDelayMs: 200,
        now: () => new Date(),
      },
      {
        reading: (r) => {
          this.readings.push(r);
          onReading?.(r);
        },
        status: (s) => this.statuses.push(s),
      },
    );
  }

  static async start(
    wireFormat: string,
    onReading?: (reading: ScannerReading) => void,
  ): Promise<PtyReader> {
    const reader = new PtyReader(
      mkdtempSync(join(tmpdir(), 'scanner-e2e-')),
      wireFormat,
      onReading,
    );
    reader.pty = await PtyPair.start(reader.dir);
    reader.adapter.start();
    await until(() => reader.adapter.status === 'connected', 'the adapter to connect');
    return reader;
  }

  get shoePath(): string {
    return this.pty.shoePath;
  }

  cards(): string[] {
    return this.readings.flatMap((r) => (r.kind === 'card' ? [r.code] : []));
  }

  /** Unplugs: ends socat, so both pty ends vanish mid-stream. */
  async unplug(): Promise<void> {
    await this.pty.stop('SIGKILL');
  }

  async replug(): Promise<void> {
    this.pty = await PtyPair.start(this.dir);
  }

  async close(): Promise<void> {
    await this.adapter.stop();
    await this.pty.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
