/** A parameterised read on the database (DataSource.query or a pg client adapted to it). */
export type AuditQuery = <T = Record<string, unknown>>(
  sql: string,
  params?: unknown[],
) => Promise<T[]>;

/** The auditor asked for something that does not exist or cannot be read as asked. */
export class AuditRequestError extends Error {
  constructor(
    readonly code: 'bad-request' | 'not-found',
    message: string,
  ) {
    super(message);
    this.name = 'AuditRequestError';
  }
}
