import type { Logger } from '@nestjs/common';
import type { ScannerStatusChangedPayload } from '@studio/contracts';
import type { IdGenerator } from '../clock/clock';
import { oneLine } from '../common/one-line';
import type { ScannerStatusChange } from './serial-scanner-adapter';

/** What a reader's status change updates and publishes of its state. */
export interface ReaderStatus {
  tableId: string;
  port: string;
  wireFormat: string;
  virtual: boolean;
  status: ScannerStatusChange['status'];
  since: string;
  reason: string;
  reconnectAttempts: number;
}

/** Where the newsworthy status changes go: a ScannerStatusChanged event in the outbox. */
export interface ScannerStatusEvents {
  appendStatusChanged(id: string, at: Date, payload: ScannerStatusChangedPayload): Promise<unknown>;
}

/**
 * Platforms and consoles hear about problems and recoveries: disconnected, stale, and connected
 * again. The first connection after start-up and the stop at shutdown are routine; they show in
 * /health/ready and the log but are not published, so restarts do not flood the event stream.
 */
export function isNewsworthy(
  change: Pick<ScannerStatusChange, 'status' | 'previousStatus'>,
): boolean {
  if (change.status === 'stopped') return false;
  return !(change.previousStatus === 'connecting' && change.status === 'connected');
}

/**
 * A reader's status changes: kept in its state, logged, told to the status listeners (consoles),
 * and the newsworthy ones recorded, one after the other per reader (`chain`).
 */
export class ScannerStatusReporter<S extends ReaderStatus> {
  constructor(
    private readonly events: ScannerStatusEvents,
    private readonly ids: IdGenerator,
    private readonly listeners: ReadonlySet<(state: S) => void>,
    private readonly logger: Logger,
  ) {}

  /** Applies the change to `state`; resolves the chain with the event recorded (or logged). */
  changed(state: S, change: ScannerStatusChange, chain: Promise<void>): Promise<void> {
    state.status = change.status;
    state.since = change.at.toISOString();
    state.reason = change.reason;
    state.reconnectAttempts = change.reconnectAttempts;
    const message = `Table ${state.tableId} scanner ${change.previousStatus} -> ${change.status}: ${change.reason}`;
    if (change.status === 'disconnected' || change.status === 'stale') this.logger.warn(message);
    else this.logger[change.status === 'stopped' ? 'debug' : 'log'](message); // stopped: with its table
    for (const listener of this.listeners) {
      try {
        listener({ ...state });
      } catch (error) {
        this.logger.error(`Scanner status listener failed: ${oneLine(error)}`);
      }
    }
    if (!isNewsworthy(change)) return chain;
    const payload: ScannerStatusChangedPayload = {
      tableId: state.tableId,
      port: state.port,
      wireFormat: state.wireFormat,
      virtual: state.virtual,
      status: change.status,
      previousStatus: change.previousStatus,
      reason: change.reason,
      reconnectAttempts: change.reconnectAttempts,
    };
    return chain
      .then(() => this.events.appendStatusChanged(this.ids.newId(), change.at, payload))
      .then(
        () => undefined,
        (error) =>
          this.logger.error(
            `Cannot record ScannerStatusChanged for ${state.tableId}: ${oneLine(error)}`,
          ),
      );
  }
}
