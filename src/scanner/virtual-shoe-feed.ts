import type { Logger } from '@nestjs/common';
import { wireFormat } from '@studio/scanner-protocol';
import { ByteSink, SerialPortSink, ShoeWriter, VirtualShoe } from '@studio/virtual-shoe';
import { oneLine } from '../common/one-line';
import type { ScannerSettings } from './scanner-settings';
import type { ScannerTransport } from './scanner-transport';

type VirtualShoeSettings = ScannerSettings & {
  virtualShoe: NonNullable<ScannerSettings['virtualShoe']>;
};

/**
 * A table's built-in virtual shoe: its order lives as long as the service, so a table that comes
 * back to this instance deals on from it (or resumes it from the table's counts).
 */
export function virtualShoe(settings: VirtualShoeSettings): VirtualShoe {
  const shoeSettings = settings.virtualShoe;
  return new VirtualShoe({
    seed: shoeSettings.seed,
    decks: shoeSettings.decks,
    encoder: wireFormat(settings.wireFormat)!.createEncoder!(),
    misreadRate: shoeSettings.misreadRate,
    noiseRate: shoeSettings.noiseRate,
    duplicateRate: shoeSettings.duplicateRate,
  });
}

/**
 * The writer that deals `shoe` onto its table's line (the transport, or `fallback`): one per
 * connection, made when this instance starts driving the table and stopped when it stops.
 */
export function shoeWriter(
  tableId: string,
  settings: VirtualShoeSettings,
  shoe: VirtualShoe,
  transport: ScannerTransport,
  fallback: ByteSink,
  logger: Logger,
): ShoeWriter {
  const shoeSettings = settings.virtualShoe;
  const sink: ByteSink =
    transport.tcpServer ??
    (transport.pty
      ? new SerialPortSink({ path: transport.pty.shoePath, baudRate: settings.baudRate })
      : fallback);
  return new ShoeWriter({
    shoe,
    sink,
    intervalMs: shoeSettings.intervalMs,
    heartbeatIntervalMs: shoeSettings.heartbeatIntervalMs,
    // A dealer needs a moment to rescan; self-paced shoes keep it within their interval.
    rescanDelayMs:
      shoeSettings.intervalMs > 0 ? Math.min(400, Math.floor(shoeSettings.intervalMs / 3)) : 400,
    onError: (error) => logger.warn(`Virtual shoe of table ${tableId}: ${oneLine(error)}`),
  });
}
