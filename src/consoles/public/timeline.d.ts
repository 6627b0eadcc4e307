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
