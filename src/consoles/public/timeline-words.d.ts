// Types of timeline-words.js (a browser ES module, unit-tested from TypeScript).
export function groupTitle(group: {
  group: string;
  key: string;
  entries: unknown[];
  totals?: Array<Record<string, unknown>>;
}): string;
export function partText(group: string, part: Record<string, unknown>): string;
