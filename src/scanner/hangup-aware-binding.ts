import {
  autoDetect,
  BindingInterface,
  DarwinPortBinding,
  LinuxPortBinding,
} from '@serialport/bindings-cpp';
import { unixRead } from '@serialport/bindings-cpp/dist/unix-read';
import { read } from 'node:fs';
import { promisify } from 'node:util';

const readAsync = promisify(read);

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
const readOrHangUp: typeof readAsync = (async (...args: Parameters<typeof readAsync>) => {
  const result = await readAsync(...args);
  if (result.bytesRead === 0) throw new DeviceHungUpError();
  return result;
}) as typeof readAsync;

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
        port.read = (buffer, offset, length) =>
          port.isOpen && buffer.length >= offset + length
            ? unixRead({ binding: port, buffer, offset, length, fsReadAsync: readOrHangUp })
            : stockRead(buffer, offset, length);
      }
      return port;
    },
  };
}
