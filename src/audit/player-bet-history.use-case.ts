import type { PlayerBetRecord } from '../history/reader/bets.reader';
import { historyReader, HistorySource } from '../history/reader/history-reader';
import { textParam, timeRange } from './audit-params';
import { AuditRequestError } from './audit-query';
import { decodeCursor, encodeCursor, pageSize } from './keyset-cursor';

/** A player's bet as the auditor sees it: the bet, its round and its settlement if it has one. */
export type PlayerBet = Omit<PlayerBetRecord, 'key'>;

/** A player's bets, newest first, each with its round and its settlement; keyset-paginated. */
export class PlayerBetHistory {
  constructor(private readonly source: HistorySource) {}

  async execute(
    playerId: string,
    query: { from?: string; to?: string; limit?: string; cursor?: string },
  ): Promise<{ items: PlayerBet[]; nextCursor: string | null }> {
    const player = textParam('playerId', playerId);
    if (player === undefined) throw new AuditRequestError('bad-request', 'playerId is required');
    const range = timeRange(query);
    const limit = pageSize(query.limit);
    const rows = await historyReader(this.source).bets.ofPlayer(
      player,
      range,
      decodeCursor(query.cursor, 'text'),
      limit + 1,
    );
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    return {
      items: page.map(({ key: _key, ...bet }) => bet),
      nextCursor: more && last ? encodeCursor(last.key) : null,
    };
  }
}
