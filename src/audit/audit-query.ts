import type { HistoryQuery } from '../history/reader/history-query';

/** A parameterised read on the database; the audit use cases hand it to the history reader. */
export type AuditQuery = HistoryQuery;

/** Why an auditor's request is refused: the `error` of the 400 / 404 answer. */
export type AuditErrorCode =
  | 'bad-request'
  | 'not-found'
  /** A text parameter holding NUL, a lone surrogate, too many characters, or several values. */
  | 'invalid-text'
  /** A time that is not ISO 8601, not a real date, or outside the years the history can hold. */
  | 'invalid-time'
  /** A cursor this API did not hand out (garbled, edited, or from another listing). */
  | 'invalid-cursor'
  /** A query parameter the endpoint does not read (a misspelt filter must not be ignored). */
  | 'unknown-parameter'
  /** A replay asked for more days or rounds than one call verifies. */
  | 'range-too-large';

/** The auditor asked for something that does not exist or cannot be read as asked. */
export class AuditRequestError extends Error {
  constructor(
    readonly code: AuditErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AuditRequestError';
  }
}

/**
 * What a query object's `create` answers: the validated query, or the refusal of its input (the
 * parameter parsers throw AuditRequestError; `create` hands it back instead, as the table commands
 * of src/use-cases do with their rejections).
 */
export function validated<T>(parse: () => T): T | AuditRequestError {
  try {
    return parse();
  } catch (error) {
    if (error instanceof AuditRequestError) return error;
    throw error;
  }
}
