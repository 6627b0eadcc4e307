import type { EntityManager } from 'typeorm';
import type { TableWrites } from '../../table-core/table-machine';
import { chunks, ROWS_PER_STATEMENT } from './sql-chunks';

/** Bets, players' decisions, settlements (bets marked settled or refunded) and final hands. */
export class WagersRepository {
  async write(manager: EntityManager, tableId: string, w: TableWrites, at: Date): Promise<void> {
    await this.insertBets(manager, tableId, w.bets, at);
    await this.insertDecisions(manager, w.decisions, at);
    await this.insertSettlements(manager, w.settlements, at);
    if (w.hands && w.hands.hands.length > 0) {
      await manager.query(
        `INSERT INTO round_hands (round_id, hand, owner, cards, total, result)
         SELECT $2, h.hand, h.owner, ARRAY(SELECT jsonb_array_elements_text(h.cards)), h.total, h.result
           FROM jsonb_to_recordset($1::jsonb) AS h(hand text, owner text, cards jsonb, total text, result text)`,
        [JSON.stringify(w.hands.hands), w.hands.roundId],
      );
    }
  }

  private async insertBets(
    manager: EntityManager,
    tableId: string,
    bets: TableWrites['bets'],
    at: Date,
  ): Promise<void> {
    if (bets.length === 0) return;
    const [{ currency }] = await manager.query(`SELECT currency FROM studio_tables WHERE id = $1`, [
      tableId,
    ]);
    for (const chunk of chunks(bets, ROWS_PER_STATEMENT)) {
      const rows = chunk.map((b) => ({
        id: b.betId,
        round_id: b.roundId,
        player_id: b.playerId,
        command_id: b.commandId ?? null,
        bet_type: b.betType,
        spot: b.spot,
        amount: b.amount,
        deducted: b.deducted,
      }));
      await manager.query(
        `INSERT INTO bets (id, round_id, table_id, player_id, command_id, bet_type, spot, amount, deducted, currency, status, placed_at)
         SELECT b.id, b.round_id, $2, b.player_id, b.command_id, b.bet_type, b.spot, b.amount, b.deducted, $3, 'accepted', $4
           FROM jsonb_to_recordset($1::jsonb) AS b(id text, round_id uuid, player_id text, command_id text,
                bet_type text, spot text, amount bigint, deducted bigint)`,
        [JSON.stringify(rows), tableId, currency, at],
      );
    }
  }

  private async insertDecisions(
    manager: EntityManager,
    decisions: TableWrites['decisions'],
    at: Date,
  ): Promise<void> {
    for (const chunk of chunks(decisions, ROWS_PER_STATEMENT)) {
      const rows = chunk.map((d) => ({
        round_id: d.roundId,
        player_id: d.playerId,
        hand: d.hand,
        action: d.action,
        automatic: d.automatic,
        command_id: d.commandId ?? null,
      }));
      await manager.query(
        `INSERT INTO decisions (round_id, player_id, hand, action, automatic, command_id, decided_at)
         SELECT d.round_id, d.player_id, d.hand, d.action, d.automatic, d.command_id, $2
           FROM jsonb_to_recordset($1::jsonb) AS d(round_id uuid, player_id text, hand text,
                action text, automatic boolean, command_id text)`,
        [JSON.stringify(rows), at],
      );
    }
  }

  private async insertSettlements(
    manager: EntityManager,
    settlements: TableWrites['settlements'],
    at: Date,
  ): Promise<void> {
    for (const chunk of chunks(settlements, 1000)) {
      const rows = JSON.stringify(
        chunk.map((s) => ({
          round_id: s.roundId,
          bet_id: s.betId,
          player_id: s.playerId,
          bet_type: s.betType,
          spot: s.spot,
          stake: s.stake,
          returned: s.returned,
          net: s.net,
          outcome: s.outcome,
          rounded_down: s.roundedDown,
        })),
      );
      await manager.query(
        `INSERT INTO settlements (round_id, bet_id, player_id, bet_type, spot, stake, returned, net, outcome, rounded_down, settled_at)
         SELECT s.round_id, s.bet_id, s.player_id, s.bet_type, s.spot, s.stake, s.returned, s.net, s.outcome, s.rounded_down, $2
           FROM jsonb_to_recordset($1::jsonb) AS s(round_id uuid, bet_id text, player_id text, bet_type text,
                spot text, stake bigint, returned bigint, net bigint, outcome text, rounded_down text)`,
        [rows, at],
      );
      await manager.query(
        `UPDATE bets SET status = CASE WHEN s.outcome = 'void-refund' THEN 'refunded' ELSE 'settled' END
           FROM jsonb_to_recordset($1::jsonb) AS s(bet_id text, outcome text)
          WHERE bets.id = s.bet_id`,
        [rows],
      );
    }
  }
}
