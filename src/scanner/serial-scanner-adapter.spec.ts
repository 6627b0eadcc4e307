import { MockBinding, MockPortBinding } from '@serialport/binding-mock';
import { EventEmitter } from 'node:events';
import { studioFramedV1Frame, ScannerReading } from '@studio/scanner-protocol';
import { DisconnectedError, SerialPortStream } from '@serialport/stream';
import { SerialPortMock } from 'serialport';
import { PortFactory, ScannerStatusChange, SerialScannerAdapter } from './serial-scanner-adapter';
import type { ScannerPort } from './tcp-port';
import { until } from '../../test/support/until';

const PATH = '/dev/mock-reader';
const mockPort: PortFactory = (path, line) =>
  new SerialPortMock({ path, ...line, autoOpen: false });

function makeAdapter(overrides: { heartbeatTimeoutMs?: number | null } = {}) {
  const readings: ScannerReading[] = [];
  const statuses: ScannerStatusChange[] = [];
  const adapter = new SerialScannerAdapter(
    {
      path: PATH,
      wireFormat: 'studio-framed-v1',
      line: { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 },
      heartbeatTimeoutMs: overrides.heartbeatTimeoutMs ?? null,
      reconnectInitialDelayMs: 20,
      reconnectMaxDelayMs: 80,
      now: () => new Date(),
      openPort: mockPort,
    },
    { reading: (r) => readings.push(r), status: (s) => statuses.push(s) },
  );
  return { adapter, readings, statuses };
}

/** The mock device behind the adapter's open port: what the reader "sends" is emitted here. */
const device = (adapter: SerialScannerAdapter) =>
  (adapter.openPort as unknown as { port: MockPortBinding }).port;

describe('SerialScannerAdapter (serialport mock binding)', () => {
  beforeEach(() => {
    MockBinding.reset();
    MockBinding.createPort(PATH, { echo: false, record: false });
  });

  it('opens, reports connected and decodes what the reader sends', async () => {
    const { adapter, readings, statuses } = makeAdapter();
    adapter.start();
    await adapter.waitUntilConnected(1000);
    device(adapter).emitData(Buffer.from(studioFramedV1Frame(1, 'C:AS')));
    await until(() => readings.length === 1);
    expect(readings[0]).toMatchObject({ kind: 'card', code: 'AS', sequence: 1 });
    expect(statuses.map((s) => s.status)).toEqual(['connected']);
    await adapter.stop();
    expect(statuses.map((s) => s.status)).toEqual(['connected', 'stopped']);
  });

  it('reports disconnected when unplugged mid-frame, flushes the partial frame, and reconnects with backoff', async () => {
    const { adapter, readings, statuses } = makeAdapter();
    adapter.start();
    await adapter.waitUntilConnected(1000);
    const frame = studioFramedV1Frame(2, 'C:KH');
    device(adapter).emitData(Buffer.from(frame.subarray(0, 6)));
    await until(() => adapter.openPort !== undefined);
    // Let the mock deliver the partial frame before the unplug.
    await new Promise((r) => setTimeout(r, 20));
    MockBinding.reset(); // the device is gone: reopening fails until it comes back
    (adapter.openPort as SerialPortStream).close(
      undefined,
      new DisconnectedError('device unplugged'),
    );
    await until(() => adapter.status === 'disconnected');
    expect(readings.at(-1)).toMatchObject({
      kind: 'invalid',
      reason: 'truncated',
      raw: frame.subarray(0, 6),
    });
    await until(() => adapter.attempts >= 3, 3000);
    MockBinding.createPort(PATH, { echo: false, record: false });
    await adapter.waitUntilConnected(2000);
    device(adapter).emitData(Buffer.from(studioFramedV1Frame(3, 'C:2D')));
    await until(() => readings.some((r) => r.kind === 'card' && r.code === '2D'));
    expect(statuses.map((s) => s.status)).toEqual(['connected', 'disconnected', 'connected']);
    expect(statuses[1].reason).toContain('device unplugged');
    await adapter.stop();
  });

  it('marks a silent reader stale after the heartbeat timeout and connected again on the next frame', async () => {
    const { adapter, statuses } = makeAdapter({ heartbeatTimeoutMs: 100 });
    adapter.start();
    await adapter.waitUntilConnected(1000);
    // A line that carries only noise is as good as a silent one.
    const noise = setInterval(() => device(adapter).emitData(Buffer.from([0, 13, 10])), 20);
    try {
      await until(() => adapter.status === 'stale', 2000);
    } finally {
      clearInterval(noise);
    }
    expect(statuses.at(-1)!.reason).toMatch(
      /nothing but noise or silence for \d+ ms \(timeout 100 ms\)/,
    );
    device(adapter).emitData(Buffer.from(studioFramedV1Frame(1, 'H')));
    await until(() => adapter.status === 'connected');
    expect(statuses.map((s) => s.status)).toEqual(['connected', 'stale', 'connected']);
    await adapter.stop();
  });

  it('backs off from a reader that drops every connection at once, and starts over after a good one', () => {
    jest.useFakeTimers();
    try {
      /** A device server that accepts; the test drops each connection. */
      const ports: Array<EventEmitter & { isOpen: boolean }> = [];
      const acceptThenDrop: PortFactory = () => {
        const port = Object.assign(new EventEmitter(), {
          isOpen: false,
          open(callback: (error: Error | null) => void) {
            port.isOpen = true;
            callback(null);
          },
          close(callback: () => void) {
            port.isOpen = false;
            callback();
          },
        });
        ports.push(port);
        return port as unknown as ScannerPort;
      };
      const adapter = new SerialScannerAdapter(
        {
          path: 'tcp://shoe-7:4001',
          wireFormat: 'studio-framed-v1',
          line: { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 },
          heartbeatTimeoutMs: null,
          reconnectInitialDelayMs: 200,
          reconnectMaxDelayMs: 5_000,
          now: () => new Date(),
          openPort: acceptThenDrop,
        },
        { reading: () => undefined, status: () => undefined },
      );
      /** Keeps the connection open for `heldMs`, drops it; the ms until the adapter reconnects. */
      const dropAfter = (heldMs: number): number => {
        jest.advanceTimersByTime(heldMs);
        const open = ports.length;
        ports[open - 1].isOpen = false;
        ports[open - 1].emit('close', new Error('connection reset by peer'));
        let waited = 0;
        // Bounded: a synchronous loop that never ended would hang the worker, not fail the test.
        while (ports.length === open && waited < 60_000) {
          jest.advanceTimersByTime(100);
          waited += 100;
        }
        return waited;
      };
      adapter.start();
      expect([0, 0, 0, 0, 0, 0, 0].map(() => dropAfter(0))).toEqual([
        200, 400, 800, 1_600, 3_200, 5_000, 5_000,
      ]);
      expect(adapter.attempts).toBe(0); // connected again: no failed try in this outage
      // A connection that held for the longest delay was a good one: back to the shortest.
      expect(dropAfter(5_000)).toBe(200);
      expect(dropAfter(0)).toBe(400);
      void adapter.stop();
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps retrying a port that does not exist, reporting disconnected once', async () => {
    MockBinding.reset();
    const { adapter, statuses } = makeAdapter();
    adapter.start();
    await until(() => adapter.attempts >= 4, 3000);
    expect(statuses.map((s) => s.status)).toEqual(['disconnected']);
    expect(statuses[0].reason).toContain(`cannot open ${PATH}`);
    await adapter.stop();
  });
});
