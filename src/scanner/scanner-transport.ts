import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPortMock } from 'serialport';
import { ByteSink, PtyPair, TcpShoeServer } from '@studio/virtual-shoe';
import type { PortFactory, SerialScannerAdapter } from './serial-scanner-adapter';
import type { ScannerSettings } from './scanner-settings';
import { isTcpPath } from './tcp-port';

/**
 * How the bytes reach the adapter: a serial device, a serial device server's TCP socket, or for
 * the virtual shoe a socat pty pair, serialport's in-process mock, or its own TCP server.
 */
export type ScannerTransportKind = 'serial' | 'tcp' | 'pty' | 'mock';

/** Where a table's reader reads from, and what the service started for it. */
export interface ScannerTransport {
  path: string;
  kind: ScannerTransportKind;
  pty?: PtyPair;
  tcpServer?: TcpShoeServer;
  /** The mock binding's port factory (no socat). */
  openPort?: PortFactory;
}

export const TRANSPORT_NAMES: Record<ScannerTransportKind, string> = {
  serial: 'serial device',
  tcp: 'its own TCP device server, which other instances can read too',
  pty: 'socat pty pair',
  mock: 'in-process mock port',
};

/** Pseudo-terminal pairs of the virtual shoes live in one temporary folder. */
export class PtyFolder {
  private dir?: string;

  get path(): string {
    this.dir ??= mkdtempSync(join(tmpdir(), 'studio-shoes-'));
    return this.dir;
  }

  get created(): string | undefined {
    return this.dir;
  }
}

/**
 * A table's device path as configured, or for a virtual shoe its own TCP server, a socat pty pair
 * (when socat is installed) or serialport's in-process mock port.
 */
export async function openTransport(
  tableId: string,
  settings: ScannerSettings,
  socat: boolean,
  ptys: PtyFolder,
): Promise<ScannerTransport> {
  if (settings.path) {
    return { path: settings.path, kind: isTcpPath(settings.path) ? 'tcp' : 'serial' };
  }
  if (settings.virtualShoe?.tcpPort !== undefined) {
    const tcpServer = await TcpShoeServer.listen({
      host: settings.virtualShoe.tcpHost,
      port: settings.virtualShoe.tcpPort,
    });
    return {
      path: `tcp://${connectHost(tcpServer.host)}:${tcpServer.port}`,
      kind: 'tcp',
      tcpServer,
    };
  }
  if (socat) {
    const pty = await PtyPair.start(ptys.path, {
      shoe: `${tableId}.shoe`,
      reader: `${tableId}.reader`,
    });
    return { path: pty.readerPath, kind: 'pty', pty };
  }
  const path = `/virtual/${tableId}`;
  SerialPortMock.binding.createPort(path, { echo: false, record: false });
  return {
    path,
    kind: 'mock',
    openPort: (p, line) => new SerialPortMock({ path: p, ...line, autoOpen: false }),
  };
}

/** The service's own adapter reaches a shoe listening on every interface through loopback. */
function connectHost(listening: string): string {
  if (listening === '0.0.0.0') return '127.0.0.1';
  if (listening === '::') return '[::1]';
  return listening.includes(':') ? `[${listening}]` : listening;
}

/** Without socat the virtual shoe hands its bytes straight to the adapter's mock port. */
export function mockSink(adapter: () => SerialScannerAdapter): ByteSink {
  return {
    async write(bytes) {
      const port = adapter().openPort as unknown as
        { port?: { emitData(data: Buffer): void } } | undefined;
      if (!port?.port) throw new Error('mock port is not open');
      port.port.emitData(Buffer.from(bytes));
    },
    async close() {},
  };
}
