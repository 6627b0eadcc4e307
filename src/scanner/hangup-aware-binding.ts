import {
  autoDetect,
  BindingInterface,
  DarwinPortBinding,
  LinuxPortBinding,
} from '@serialport/bindings-cpp';
import { unixRead } from '@serialport/bindings-cpp/dist/unix-read';
import { read, readFileSync, readSync } from 'node:fs';
import { promisify } from 'node:util';

const readAsync = promisify(read);
type ReadResult = Awaited<ReturnType<typeof readAsync>>;

/** What serialport's stream treats as a disconnection (it closes the port with this error). */
export class DeviceHungUpError extends Error {
  readonly code = 'EIO';
  readonly disconnect = true;

  constructor() {
    super('the device hung up (a read returned end of file)');
  }
}

/**
 * A 0-byte read is end of file. Ports are opened non-blocking with VMIN 1, so "no data yet" is
 * EAGAIN, never 0: a 0 means the other end has gone (a USB reader unplugged, a pty's master
 * closed) and every later read returns 0 as well.
 */
function hangUpAtEndOfFile(result: ReadResult): ReadResult {
  if (result.bytesRead === 0) throw new DeviceHungUpError();
  return result;
}

const readOrHangUp: typeof readAsync = (async (...args: Parameters<typeof readAsync>) =>
  hangUpAtEndOfFile(await readAsync(...args))) as typeof readAsync;

/**
 * The same read on the service's thread: on a non-blocking port it returns at once, with the bytes
 * waiting or EAGAIN (then serialport waits for its poller to say readable, and reads again). An
 * fs.read goes through libuv's thread pool instead: measured here at ~60 µs of the service's
 * thread a read against ~5 µs, and a frame takes two reads (EAGAIN, then the frame), for every
 * card of every table.
 */
const readNowOrHangUp = (async (fd: number, buffer: Buffer, offset: number, length: number) =>
  hangUpAtEndOfFile({
    bytesRead: readSync(fd, buffer, offset, length, null),
    buffer,
  })) as unknown as typeof readAsync;

const O_NONBLOCK = 0o4000;

/**
 * Whether the descriptor is non-blocking, from Linux's /proc/self/fdinfo (octal `flags:`); false
 * where that cannot be read, so the read stays in the thread pool rather than ever blocking.
 */
export function isNonBlocking(fd: number): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
    return flags !== null && (parseInt(flags[1], 8) & O_NONBLOCK) !== 0;
  } catch {
    return false;
  }
}

/**
 * serialport's own binding, except that end of file on a Unix port closes it as disconnected.
 * The stock read retries a 0-byte read at once and forever (serialport/bindings-cpp#162): when the
 * read comes after the kernel has hung the port up, rather than in the brief moment when it still
 * answers EIO, the port spins a libuv thread and never reports the disconnection, so an unplugged
 * shoe reader stayed "connected" and was never reopened.
 */
export function hangupAwareBinding(
  base: BindingInterface = autoDetect() as BindingInterface,
): BindingInterface {
  return {
    list: () => base.list(),
    open: async (options) => {
      const port = await base.open(options);
      if (port instanceof LinuxPortBinding || port instanceof DarwinPortBinding) {
        const stockRead = port.read.bind(port);
        const fsReadAsync =
          port.fd !== null && isNonBlocking(port.fd) ? readNowOrHangUp : readOrHangUp;
        port.read = (buffer, offset, length) =>
          port.isOpen && buffer.length >= offset + length
            ? unixRead({ binding: port, buffer, offset, length, fsReadAsync })
            : stockRead(buffer, offset, length);
      }
      return port;
    },
  };
}
