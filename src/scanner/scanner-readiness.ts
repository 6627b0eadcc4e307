import type { ReadinessCheck } from '../health/readiness';
import type { ScannerService } from './scanner.service';

/** Ready when every configured reader is connected; lists each table's reader either way. */
export function scannersCheck(scanners: ScannerService): ReadinessCheck {
  return {
    name: 'scanners',
    async check() {
      const states = scanners.states();
      const tables = Object.fromEntries(
        states.map(({ tableId, ...rest }) => [tableId, rest] as const),
      );
      if (states.length === 0) {
        return { status: 'disabled', message: 'no table has a card scanner', tables };
      }
      // A device scanner of a table another instance drives is that instance's to connect.
      const failing = states.filter((s) => !s.drivenElsewhere && s.status !== 'connected');
      if (failing.length === 0) return { status: 'ok', tables };
      return {
        status: 'error',
        message: failing.map((s) => `${s.tableId} ${s.status}: ${s.reason}`).join('; '),
        tables,
      };
    },
  };
}
