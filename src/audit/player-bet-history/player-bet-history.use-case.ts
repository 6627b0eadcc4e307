import type { PlayerBetRecord } from '../../history/reader/bets.reader';
import { historyReader, HistorySource } from '../../history/reader/history-reader';
import type { KeysetCursors } from '../keyset-cursor';
import type { PlayerBetHistoryQuery } from './player-bet-history.query';

/** A player's bet as the auditor sees it: the bet, its round and its settlement if it has one. */
export type PlayerBet = Omit<PlayerBetRecord, 'key'>;

/** A player's bets, newest first, each with its round and its settlement; keyset-paginated. */
export class PlayerBetHistory {
  constructor(
    private readonly source: HistorySource,
    private readonly cursors: KeysetCursors,
  ) {}

  async execute(
    query: PlayerBetHistoryQuery,
  ): Promise<{ items: PlayerBet[]; nextCursor: string | null }> {
    const rows = await historyReader(this.source).bets.ofPlayer(
      query.playerId,
      query.range,
      query.after,
      query.limit + 1,
    );
    const more = rows.length > query.limit;
    const page = more ? rows.slice(0, query.limit) : rows;
    const last = page[page.length - 1];
    return {
      items: page.map(({ key: _key, ...bet }) => bet),
      nextCursor: more && last ? this.cursors.encode('player-bets', last.key) : null,
    };
  }
}
