// Types of timeline.js (a browser ES module, unit-tested from TypeScript).
export interface TimelineEntry {
  kind: string;
  at: string;
  type?: string;
  eventNo?: number;
  sameAs?: number[];
  [field: string]: unknown;
}
export function inOrder<T extends TimelineEntry>(timeline: readonly T[]): T[];
export const GROUP_OVER: number;
/** Money of one currency: `amount`, `deducted` (bets) or `stake`, `returned`, `net` (settlements). */
export type CurrencySums = { currency: string } & Record<string, number | string>;
export interface TimelineGroup<T> {
  group: string;
  key: string;
  entries: T[];
  parts: Array<Record<string, unknown> & { key: string; count: number; totals?: CurrencySums[] }>;
  /** Bets and settlements: their money per currency. */
  totals?: CurrencySums[];
}
export function sumsByCurrency(
  entries: ReadonlyArray<Record<string, unknown>>,
  fields: string[],
): CurrencySums[];
export function groupTimeline<T extends TimelineEntry>(
  timeline: readonly T[],
  over?: number,
): Array<{ entry: T } | TimelineGroup<T>>;
export function withCardLines<T extends TimelineEntry>(
  items: Array<{ entry: T } | TimelineGroup<T>>,
): Array<{ entry: T; reading?: T | null; events?: T[] } | TimelineGroup<T>>;
