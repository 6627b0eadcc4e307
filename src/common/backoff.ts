/**
 * Capped exponential back-off: `initialMs` for attempt 0, doubling with each attempt, never more
 * than `maxMs`. The exponent is capped, so an outage of days never overflows to Infinity or NaN.
 */
export function backoffMs(initialMs: number, maxMs: number, attempt: number): number {
  return Math.min(maxMs, initialMs * 2 ** Math.min(Math.max(attempt, 0), 30));
}
