import type { Logger } from '@nestjs/common';
import { wireFormat } from '@studio/scanner-protocol';
import { ByteSink, SerialPortSink, ShoeWriter, VirtualShoe } from '@studio/virtual-shoe';
import { oneLine } from '../common/one-line';
import type { ScannerSettings } from './scanner-settings';
import type { ScannerTransport } from './scanner-transport';

/** A table's built-in virtual shoe and the writer that deals it onto the reader's line. */
export interface VirtualShoeFeed {
  shoe: VirtualShoe;
  writer: ShoeWriter;
}

/** The virtual shoe of a table without a device, writing to its transport (or `fallback`). */
export function virtualShoeFeed(
  tableId: string,
  settings: ScannerSettings & { virtualShoe: NonNullable<ScannerSettings['virtualShoe']> },
  transport: ScannerTransport,
  fallback: ByteSink,
  logger: Logger,
): VirtualShoeFeed {
  const shoeSettings = settings.virtualShoe;
  const encoder = wireFormat(settings.wireFormat)!.createEncoder!();
  const sink: ByteSink =
    transport.tcpServer ??
    (transport.pty
      ? new SerialPortSink({ path: transport.pty.shoePath, baudRate: settings.baudRate })
      : fallback);
  const shoe = new VirtualShoe({
    seed: shoeSettings.seed,
    decks: shoeSettings.decks,
    encoder,
    misreadRate: shoeSettings.misreadRate,
    noiseRate: shoeSettings.noiseRate,
    duplicateRate: shoeSettings.duplicateRate,
  });
  const writer = new ShoeWriter({
    shoe,
    sink,
    intervalMs: shoeSettings.intervalMs,
    heartbeatIntervalMs: shoeSettings.heartbeatIntervalMs,
    // A dealer needs a moment to rescan; self-paced shoes keep it within their interval.
    rescanDelayMs:
      shoeSettings.intervalMs > 0 ? Math.min(400, Math.floor(shoeSettings.intervalMs / 3)) : 400,
    onError: (error) => logger.warn(`Virtual shoe of table ${tableId}: ${oneLine(error)}`),
  });
  return { shoe, writer };
}
