import type { EntityManager } from 'typeorm';
import type { TableWrites } from '../../table-core/table-machine';
import { chunks, copyField, copyInto } from './sql-chunks';

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
    if (bets.length === 0) return;
    const [{ currency }] = await manager.query(`SELECT currency FROM studio_tables WHERE id = $1`, [
      tableId,
    ]);
    const placedAt = at.toISOString();
    // COPY on the transaction's connection: a window's bets cost what loading them costs.
    await copyInto(
      manager,
      `COPY bets (id, round_id, table_id, player_id, command_id, bet_type, spot, amount, deducted, currency, status, placed_at, answer) FROM STDIN`,
      bets.map((b) => [
        copyField(b.betId),
        copyField(b.roundId),
        copyField(tableId),
        copyField(b.playerId),
        copyField(b.commandId),
        copyField(b.betType),
        copyField(b.spot),
        copyField(b.amount),
        copyField(b.deducted),
        copyField(currency),
        'accepted',
        placedAt,
        copyField(answerOf(b.commandId, answers, answered)),
      ]),
    );
  }

  private async insertDecisions(
    manager: EntityManager,
    decisions: TableWrites['decisions'],
    at: Date,
    answers: ReadonlyMap<string, Record<string, unknown>>,
    answered: Set<string>,
  ): Promise<void> {
    if (decisions.length === 0) return;
    const decidedAt = at.toISOString();
    await copyInto(
      manager,
      `COPY decisions (round_id, player_id, hand, action, automatic, command_id, decided_at, answer) FROM STDIN`,
      decisions.map((d) => [
        copyField(d.roundId),
        copyField(d.playerId),
        copyField(d.hand),
        copyField(d.action),
        d.automatic ? 't' : 'f',
        copyField(d.commandId),
        decidedAt,
        copyField(answerOf(d.commandId, answers, answered)),
      ]),
    );
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
function answerOf(
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
