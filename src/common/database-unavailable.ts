/** Node socket errors of a database connection that failed or could not be made. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/**
 * A bounded wait that ran out (statement_timeout: 57014, lock_timeout: 55P03): the database is too
 * slow or a lock is held elsewhere; the transaction was rolled back, the caller may try again.
 */
const BOUNDED_WAIT_CODES = new Set(['57014', '55P03']);

/**
 * Messages of pg and pg-pool for a connection lost or not obtained in time, and PostgreSQL's for a
 * database closed to connections (`ALLOW_CONNECTIONS false`, SQLSTATE 55000, a code it shares with
 * statement errors, so matched by its words).
 */
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not queryable|Query read timeout|the database system is (starting up|shutting down)|is not currently accepting connections/i;

/**
 * Whether an error means the database cannot be reached right now (not that a statement was
 * wrong): socket errors, PostgreSQL connection exceptions (SQLSTATE class 08), insufficient
 * resources (class 53: too many connections, out of memory, disk full), an operator shutdown
 * (57P01–57P03), a statement or lock timeout (57014, 55P03), pg's own messages for a lost
 * connection. Looks through `driverError` (TypeORM) and `cause`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return inErrorOrCauses(error, (e) => {
    // A table that holds a card reading until the database takes it refuses other input so.
    if (e.name === 'TableWaitsForDatabaseError') return true;
    if (typeof e.code === 'string') {
      if (
        SOCKET_CODES.has(e.code) ||
        /^(08|53)[0-9A-Z]{3}$/.test(e.code) ||
        /^57P0[123]$/.test(e.code) ||
        BOUNDED_WAIT_CODES.has(e.code)
      ) {
        return true;
      }
    }
    return typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message);
  });
}

interface ErrorFields {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
}

/** Whether `test` holds for the error, or for what it wraps (TypeORM's `driverError`, `cause`). */
function inErrorOrCauses(error: unknown, test: (e: ErrorFields) => boolean, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as ErrorFields;
  return (
    test(e) ||
    inErrorOrCauses(e.driverError, test, depth + 1) ||
    inErrorOrCauses(e.cause, test, depth + 1)
  );
}

/**
 * A table's commit refused by what a database outage left behind: its lease lapsed meanwhile
 * (`LeaseLostError`: kept again under the same epoch once the database answers, or the table moves
 * on elsewhere) or a commit landed whose answer was lost (`StaleTableStateError`: the table takes
 * that state up). Both pass in a moment; what was refused may be tried again.
 */
export function isLeftByOutage(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  return name === 'LeaseLostError' || name === 'StaleTableStateError';
}

/** Socket errors of a connection that broke after it was made: a query may have been in flight. */
const BROKEN_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/** pg's words for a connection lost while in use (not for one that could not be made). */
const BROKEN_MESSAGES =
  /Connection terminated(?! due to connection timeout)|Query read timeout|Connection is not queryable/i;

/**
 * Whether a failed statement may nonetheless have committed: the connection broke while it was in
 * flight, so the database may have committed it and the answer was lost. A connection refused or
 * not obtained in time, a timeout the database rolled back, or a statement it refused, did not.
 * Looks through `driverError` (TypeORM) and `cause`.
 */
export function mayHaveCommitted(error: unknown): boolean {
  return inErrorOrCauses(
    error,
    (e) =>
      (typeof e.code === 'string' && BROKEN_CODES.has(e.code)) ||
      (typeof e.message === 'string' && BROKEN_MESSAGES.test(e.message)),
  );
}
