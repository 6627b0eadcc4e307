import type { EntityManager } from 'typeorm';
import type { TableWrites } from '../../table-core/table-machine';
import { chunks, ROWS_PER_STATEMENT } from './sql-chunks';

/** Bets, players' decisions, settlements (bets marked settled or refunded) and final hands. */
export class WagersRepository {
  /**
   * `answers`: the answers of the accepted commands whose rows these are (placeAnswers), each
   * stored in the first row of its command.
   */
  async write(
    manager: EntityManager,
    tableId: string,
    w: TableWrites,
    at: Date,
    answers: ReadonlyMap<string, Record<string, unknown>> = new Map(),
  ): Promise<void> {
    const answered = new Set<string>();
    await this.insertBets(manager, tableId, w.bets, at, answers, answered);
    await this.insertDecisions(manager, w.decisions, at, answers, answered);
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
    answers: ReadonlyMap<string, Record<string, unknown>>,
    answered: Set<string>,
  ): Promise<void> {
    for (const chunk of chunks(bets, ROWS_PER_STATEMENT)) {
      // Column arrays (unnest) rather than a JSON document: PostgreSQL reads them without
      // parsing and building a record per row.
      await manager.query(
        `INSERT INTO bets (id, round_id, table_id, player_id, command_id, bet_type, spot, amount, deducted, currency, status, placed_at, answer)
         SELECT b.id, b.round_id, $1, b.player_id, b.command_id, b.bet_type, b.spot, b.amount, b.deducted, t.currency, 'accepted', $2, b.answer::jsonb
           FROM unnest($3::text[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[], $10::bigint[], $11::text[])
                AS b(id, round_id, player_id, command_id, bet_type, spot, amount, deducted, answer)
           JOIN studio_tables t ON t.id = $1`,
        [
          tableId,
          at,
          chunk.map((b) => b.betId),
          chunk.map((b) => b.roundId),
          chunk.map((b) => b.playerId),
          chunk.map((b) => b.commandId ?? null),
          chunk.map((b) => b.betType),
          chunk.map((b) => b.spot),
          chunk.map((b) => b.amount),
          chunk.map((b) => b.deducted),
          chunk.map((b) => answerOf(b.commandId, answers, answered)),
        ],
      );
    }
  }

  private async insertDecisions(
    manager: EntityManager,
    decisions: TableWrites['decisions'],
    at: Date,
    answers: ReadonlyMap<string, Record<string, unknown>>,
    answered: Set<string>,
  ): Promise<void> {
    for (const chunk of chunks(decisions, ROWS_PER_STATEMENT)) {
      await manager.query(
        `INSERT INTO decisions (round_id, player_id, hand, action, automatic, command_id, decided_at, answer, decision_window)
         SELECT d.round_id, d.player_id, d.hand, d.action, d.automatic, d.command_id, $1, d.answer::jsonb, d.decision_window
           FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::text[], $9::int[])
                AS d(round_id, player_id, hand, action, automatic, command_id, answer, decision_window)`,
        [
          at,
          chunk.map((d) => d.roundId),
          chunk.map((d) => d.playerId),
          chunk.map((d) => d.hand),
          chunk.map((d) => d.action),
          chunk.map((d) => d.automatic),
          chunk.map((d) => d.commandId ?? null),
          chunk.map((d) => answerOf(d.commandId, answers, answered)),
          chunk.map((d) => d.window ?? null),
        ],
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

/** The stored answer of the command's first row (JSON), null for its other rows. */
export function answerOf(
  commandId: string | null | undefined,
  answers: ReadonlyMap<string, Record<string, unknown>>,
  answered: Set<string>,
): string | null {
  if (!commandId || answered.has(commandId)) return null;
  const answer = answers.get(commandId);
  if (answer === undefined) return null;
  answered.add(commandId);
  return JSON.stringify(answer);
}
