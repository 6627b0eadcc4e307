/**
 * A table's card-shoe reader changed state. Consoles show it to dealers and supervisors; platforms
 * may use it to explain a stalled round. Readings themselves are not published: they stay in the
 * studio's audit record (a card read face down must not leave the service early).
 */
export type ScannerConnectionStatus =
  /** Opening the port (at start-up, or after a disconnection). */
  | 'connecting'
  /** Port open and the reader is talking (heartbeats or readings within the timeout). */
  | 'connected'
  /** Port open but the reader has been silent for longer than its heartbeat timeout. */
  | 'stale'
  /** Port closed, failed or unplugged; reconnecting with capped backoff. */
  | 'disconnected'
  /** The service stopped the adapter (shutdown). */
  | 'stopped';

export interface ScannerStatusChangedPayload {
  tableId: string;
  /** Serial device path the adapter reads (a pseudo-terminal for the virtual shoe). */
  port: string;
  wireFormat: string;
  /** True when the table is fed by the built-in virtual shoe rather than a physical reader. */
  virtual: boolean;
  status: ScannerConnectionStatus;
  previousStatus: ScannerConnectionStatus;
  /** One line: why the status changed (the OS error, "no data for 5000 ms", ...). */
  reason: string;
  /** Reconnection attempts since the port was last open (0 when connected). */
  reconnectAttempts: number;
}

export const SCANNER_STATUS_CHANGED = 'ScannerStatusChanged' as const;
export const SCANNER_STATUS_CHANGED_SCHEMA_VERSION = 1;
