import type { RoundFilter } from '../../history/reader/rounds.reader';
import { onlyKnownParams, textParam } from '../audit-params';
import { AuditRequestError, validated } from '../audit-query';
import { parseRoundFilter, ROUND_SEARCH_PARAMS, RoundSearchParams } from '../round-filter';

/** What an export reads: a search's filter (an export is not paged) and its format. */
const EXPORT_PARAMS = [
  ...ROUND_SEARCH_PARAMS.filter((name) => name !== 'limit' && name !== 'cursor'),
  'format',
];

export type ExportFormat = 'csv' | 'ndjson';

/**
 * An export: its format and the round filter with both ends of the time range. Every parameter
 * is checked here, before the answer starts streaming (a 400 cannot follow a 200).
 */
export class ExportRoundsQuery {
  private constructor(
    readonly format: ExportFormat,
    readonly filter: RoundFilter,
  ) {}

  static create(
    params: RoundSearchParams & { format?: string },
  ): ExportRoundsQuery | AuditRequestError {
    return validated(() => {
      onlyKnownParams(params, EXPORT_PARAMS);
      const format = textParam('format', params.format) ?? 'ndjson';
      if (format !== 'csv' && format !== 'ndjson') {
        throw new AuditRequestError('bad-request', 'format must be csv or ndjson');
      }
      const filter = parseRoundFilter(params);
      if (!filter.from || !filter.to) {
        throw new AuditRequestError('bad-request', 'an export needs a time range: from and to');
      }
      return new ExportRoundsQuery(format, filter);
    });
  }
}
