import { autoDetect, BindingInterface, BindingPortInterface } from '@serialport/bindings-cpp';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PtyPair } from '@studio/virtual-shoe';
import {
  DeviceHungUpError,
  hangupAwareBinding,
  isNonBlocking,
} from '../../src/scanner/hangup-aware-binding';
import { settleWithin } from '../../src/common/settle-within';

jest.setTimeout(30_000);

/**
 * A reader unplugged while no read is waiting: by the time the port is read, the kernel has hung
 * it up and every read returns end of file. The adapter only learns of the unplug if that read
 * fails. (Reading at the exact moment of the unplug answers EIO instead, which is why an unplug
 * test over the whole adapter passes or fails by timing; this one does not depend on timing.)
 */
describe('a serial port read after the device hung up (socat pty)', () => {
  let dir: string;
  let pty: PtyPair;
  let port: BindingPortInterface | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pty-hangup-'));
    pty = await PtyPair.start(dir);
  });

  afterEach(async () => {
    if (port?.isOpen) await port.close().catch(() => undefined);
    port = undefined;
    await pty.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function openThenUnplug(binding: BindingInterface): Promise<BindingPortInterface> {
    port = await binding.open({ path: pty.readerPath, baudRate: 115200 });
    await pty.stop('SIGKILL'); // socat has exited: both masters are closed, the port hung up
    return port;
  }

  function settledWithin<T>(promise: Promise<T>, ms: number): Promise<'pending' | 'settled'> {
    const settled = promise.then(
      () => 'settled' as const,
      () => 'settled' as const,
    );
    return settleWithin(settled, ms, 'pending' as const);
  }

  it('fails as a disconnection, so serialport closes the port and the adapter reopens it', async () => {
    const hungUp = await openThenUnplug(hangupAwareBinding());
    const read = hungUp.read(Buffer.alloc(64), 0, 64);
    await expect(read).rejects.toBeInstanceOf(DeviceHungUpError);
    await expect(read).rejects.toMatchObject({ disconnect: true, code: 'EIO' });
  });

  it('still reads what the device sent before it hung up, then reports the hang-up', async () => {
    port = await hangupAwareBinding().open({ path: pty.readerPath, baudRate: 115200 });
    const shoe = await hangupAwareBinding().open({ path: pty.shoePath, baudRate: 115200 });
    await shoe.write(Buffer.from('C:AS\n'));
    await shoe.drain();
    await new Promise((r) => setTimeout(r, 100));
    await shoe.close();
    const buffer = Buffer.alloc(64);
    const { bytesRead } = await port.read(buffer, 0, 64);
    expect(buffer.subarray(0, bytesRead).toString()).toBe('C:AS\n');
    await pty.stop('SIGKILL');
    await expect(port.read(buffer, 0, 64)).rejects.toBeInstanceOf(DeviceHungUpError);
  });

  it('reads on the service thread without blocking it: a read waits for the poller, timers run', async () => {
    port = await hangupAwareBinding().open({ path: pty.readerPath, baudRate: 115200 });
    const shoe = await hangupAwareBinding().open({ path: pty.shoePath, baudRate: 115200 });
    const buffer = Buffer.alloc(64);
    const read = port.read(buffer, 0, 64);
    // Nothing sent yet: the read is pending and the event loop still turns. Counted in timer
    // turns, not against a clock: on a loaded machine 200 ms held only four 10 ms ticks, while a
    // read that blocked the thread would let none run at all.
    let ticks = 0;
    let turned: () => void = () => undefined;
    const sixTurns = new Promise<'turned'>((resolve) => (turned = () => resolve('turned')));
    const timer = setInterval(() => (ticks += 1) === 6 && turned(), 10);
    try {
      expect(await settleWithin(sixTurns, 10_000, 'stuck')).toBe('turned');
      expect(await settledWithin(read, 0)).toBe('pending');
    } finally {
      clearInterval(timer);
    }
    await shoe.write(Buffer.from('C:KH\n'));
    const { bytesRead } = await read;
    expect(buffer.subarray(0, bytesRead).toString()).toBe('C:KH\n');
    await shoe.close();
  });

  it('takes the in-thread read only for a non-blocking descriptor', async () => {
    port = await hangupAwareBinding().open({ path: pty.readerPath, baudRate: 115200 });
    expect(isNonBlocking((port as unknown as { fd: number }).fd)).toBe(true);
    const file = openSync(join(dir, 'plain'), 'w+'); // a blocking descriptor
    try {
      expect(isNonBlocking(file)).toBe(false);
    } finally {
      closeSync(file);
    }
    expect(isNonBlocking(987_654)).toBe(false); // no such descriptor
  });

  // Why the wrapper exists; if this starts failing, serialport has fixed
  // serialport/bindings-cpp#162 and hangup-aware-binding.ts can go.
  it("serialport's own binding never settles that read (it retries end of file forever)", async () => {
    const hungUp = await openThenUnplug(autoDetect() as BindingInterface);
    expect(await settledWithin(hungUp.read(Buffer.alloc(64), 0, 64), 1000)).toBe('pending');
  });
});
