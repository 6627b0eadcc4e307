import type { Keyset } from '../../history/reader/rounds.reader';
import { onlyKnownParams, textParam, timeRange } from '../audit-params';
import { AuditRequestError, validated } from '../audit-query';
import { KeysetCursors, pageSize } from '../keyset-cursor';

/** Query string of GET /audit/players/{playerId}/bets, as received. */
export interface PlayerBetParams {
  from?: string;
  to?: string;
  limit?: string;
  cursor?: string;
}

/** One player's bets in a time range: a page of `limit` after the signed cursor's bet. */
export class PlayerBetHistoryQuery {
  private constructor(
    readonly playerId: string,
    readonly range: { from?: Date; to?: Date },
    readonly limit: number,
    readonly after: Keyset | undefined,
  ) {}

  static create(
    playerId: unknown,
    params: PlayerBetParams,
    cursors: KeysetCursors,
  ): PlayerBetHistoryQuery | AuditRequestError {
    return validated(() => {
      onlyKnownParams(params, ['from', 'to', 'limit', 'cursor']);
      const player = textParam('playerId', playerId);
      if (player === undefined) throw new AuditRequestError('bad-request', 'playerId is required');
      return new PlayerBetHistoryQuery(
        player,
        timeRange(params),
        pageSize(params.limit),
        cursors.decode('player-bets', params.cursor),
      );
    });
  }
}
