/**
 * One parameterised read on the database: a DataSource's `query`, or a pg pool adapted to it (the
 * audit CLI and the benchmarks read the history without the service).
 */
export type HistoryQuery = <T = Record<string, unknown>>(
  sql: string,
  params?: unknown[],
) => Promise<T[]>;

/** Anything with a `query(sql, params)` (a TypeORM DataSource, a pg Pool). */
export interface QueryableDatabase {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** The history reader's query function over a DataSource. */
export function historyQueryOf(database: QueryableDatabase): HistoryQuery {
  return async <T>(sql: string, params?: unknown[]) => (await database.query(sql, params)) as T[];
}

/** A timestamptz as JSON: ISO 8601 UTC, null stays null. */
export const iso = (d: Date | string | null): string | null =>
  d === null ? null : new Date(d).toISOString();

/** A bigint/numeric column (pg returns text) as a number; null stays null. */
export const int = (v: string | number | null): number | null => (v === null ? null : Number(v));
