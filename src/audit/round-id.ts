import { AuditRequestError, validated } from './audit-query';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One round named by its id: the query of the timeline and of a round's replay. */
export class RoundIdQuery {
  private constructor(readonly roundId: string) {}

  static create(roundId: unknown): RoundIdQuery | AuditRequestError {
    return validated(() => {
      if (typeof roundId !== 'string' || !UUID.test(roundId)) {
        throw new AuditRequestError('bad-request', 'roundId must be a uuid');
      }
      return new RoundIdQuery(roundId);
    });
  }
}
