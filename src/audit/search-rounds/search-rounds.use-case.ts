import { historyReader, HistorySource } from '../../history/reader/history-reader';
import type { RoundSummary } from '../../history/reader/rounds.reader';
import { roundSummary } from '../../history/reader/rounds.reader';
import type { KeysetCursors } from '../keyset-cursor';
import type { SearchRoundsQuery } from './search-rounds.query';

export type { RoundSummary };

export interface RoundPage {
  items: RoundSummary[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** Rounds by table, game, time range, status, shoe and player; newest first, keyset-paginated. */
export class SearchRounds {
  constructor(
    private readonly source: HistorySource,
    private readonly cursors: KeysetCursors,
  ) {}

  async execute(query: SearchRoundsQuery): Promise<RoundPage> {
    const rows = await historyReader(this.source).rounds.search(
      query.filter,
      query.after,
      query.limit + 1,
    );
    const more = rows.length > query.limit;
    const page = more ? rows.slice(0, query.limit) : rows;
    const last = page[page.length - 1];
    return {
      items: page.map(roundSummary),
      nextCursor: more && last ? this.cursors.encode('rounds', last.key) : null,
    };
  }
}
