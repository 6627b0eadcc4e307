/** Splits rows so that one statement's JSON parameter stays a moderate size. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Rows per insert statement: a whole intake batch (5,000 commands, ~1 MB of JSON) in one round
 * trip rather than five.
 */
export const ROWS_PER_STATEMENT = 5_000;
