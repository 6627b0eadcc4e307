import type { DataSource } from 'typeorm';
import { commandIdOfKey } from '../common/player-key';
import type { PlacedBetRef } from '../games/game-adapter';

/** The betId a PlaceBet's answer named (or the row's id), or that PlaceBet's command key. */
type BetReference = { betId: string } | { betCommandId: string };

/**
 * A player's accepted bet at a table, by the betId its answer named (or its row's id) or by its
 * PlaceBet's command id: the command's first row, the one that carries its answer. A bet placed
 * without a command id (optional over HTTP) has no stored answer: its rows are found by their id,
 * the betId its answer named. Filtered by the player key, which names the platform, so another
 * platform's bet is never found.
 */
const FIND_BET = `
  SELECT b.id, b.round_id, b.bet_type, b.spot, b.status, b.command_id,
         b.answer->'reply'->>'betId' AS answered_bet_id
    FROM bets b
   WHERE b.table_id = $1 AND b.player_id = $2
     AND (b.answer IS NOT NULL OR b.command_id IS NULL)
     AND ($4::uuid IS NULL OR b.round_id = $4::uuid)
     AND CASE WHEN $5 THEN b.command_id = $3
              ELSE (b.answer->'reply'->>'betId' = $3 OR b.id = $3) END
   ORDER BY b.placed_at DESC
   LIMIT 1`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The PlacedBets port of the cancel use case, over the history's bets. */
export class PlacedBetsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(
    tableId: string,
    playerKey: string,
    reference: BetReference,
    roundId?: string,
  ): Promise<(PlacedBetRef & { status: string }) | null> {
    // A round id that is no uuid names no round (rather than an error of the query).
    if (roundId !== undefined && !UUID.test(roundId)) return null;
    const byCommand = 'betCommandId' in reference;
    const rows: Array<Record<string, string | null>> = await this.dataSource.query(FIND_BET, [
      tableId,
      playerKey,
      byCommand ? reference.betCommandId : reference.betId,
      roundId ?? null,
      byCommand,
    ]);
    const row = rows[0];
    if (!row) return null;
    return {
      betId: row.id!,
      roundId: row.round_id!,
      betType: row.bet_type!,
      spot: row.spot,
      status: row.status!,
      answeredBetId: row.answered_bet_id,
      // As the platform knows it (its BetCancelled names it).
      commandId: row.command_id === null ? null : commandIdOfKey(row.command_id),
    };
  }
}
