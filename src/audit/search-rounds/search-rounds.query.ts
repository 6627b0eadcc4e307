import type { Keyset, RoundFilter } from '../../history/reader/rounds.reader';
import { AuditRequestError, validated } from '../audit-query';
import { KeysetCursors, pageSize } from '../keyset-cursor';
import { onlyKnownParams } from '../audit-params';
import { parseRoundFilter, ROUND_SEARCH_PARAMS, RoundSearchParams } from '../round-filter';

/** A round search: its filter, page size and the signed cursor it continues after. */
export class SearchRoundsQuery {
  private constructor(
    readonly filter: RoundFilter,
    readonly limit: number,
    readonly after: Keyset | undefined,
  ) {}

  static create(
    params: RoundSearchParams,
    cursors: KeysetCursors,
  ): SearchRoundsQuery | AuditRequestError {
    return validated(() => {
      onlyKnownParams(params, ROUND_SEARCH_PARAMS);
      return new SearchRoundsQuery(
        parseRoundFilter(params),
        pageSize(params.limit),
        cursors.decode('rounds', params.cursor),
      );
    });
  }
}
