import { MAX_REPLAY_ROUNDS, onlyKnownParams, replayRange, textParam } from '../audit-params';
import { AuditRequestError, validated } from '../audit-query';

/** Every round started in [from, to) (at most MAX_REPLAY_DAYS), of one table or of all. */
export class ReplayRangeQuery {
  /** Most rounds one call replays: a range holding more is refused before any is replayed. */
  readonly maxRounds = MAX_REPLAY_ROUNDS;

  private constructor(
    readonly from: Date,
    readonly to: Date,
    readonly tableId: string | undefined,
  ) {}

  static create(params: {
    from?: unknown;
    to?: unknown;
    tableId?: unknown;
  }): ReplayRangeQuery | AuditRequestError {
    return validated(() => {
      onlyKnownParams(params, ['from', 'to', 'tableId']);
      const { from, to } = replayRange(params);
      return new ReplayRangeQuery(from, to, textParam('tableId', params.tableId));
    });
  }
}
