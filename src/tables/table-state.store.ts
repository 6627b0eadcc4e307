import { topicName } from '@studio/contracts';
import { appendTableEvents } from '@studio/persistence';
import { DataSource, EntityManager } from 'typeorm';
import { eventHash, GENESIS_HASH } from './event-chain';
import type { MachineOutcome, TableState, TableWrites } from '../table-core/table-machine';
import { TableLease, TableLeaseRepository } from './table-lease.repository';

export interface StoredTableState {
  version: number;
  state: TableState;
}

export interface CommitContext {
  lease: TableLease;
  expectedVersion: number;
  occurredAt: Date;
  newId(): string;
  /** Idempotency records of the commands this transition answers (none for readings, timers). */
  commands?: CommandRecord[];
}

/** A command's first answer, kept so that a repeat of its command id gets the same answer. */
export interface CommandRecord {
  commandId: string;
  kind: string;
  result: Record<string, unknown>;
}

/** Version conflict: another writer changed the table (should be impossible under the lease). */
export class StaleTableStateError extends Error {
  constructor(tableId: string, expected: number) {
    super(`Table ${tableId} changed underneath (expected version ${expected}); reloading`);
    this.name = 'StaleTableStateError';
  }
}

/**
 * Writes one table transition in one transaction: the lease fence, the new table state, the
 * history rows, the hash-chained round events and the outbox rows for the public ones. Nothing is
 * announced before this commits, and a crash before the commit leaves no trace of the transition.
 */
export class TableStateStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly leases: TableLeaseRepository,
    private readonly topicPrefix: string,
  ) {}

  async load(tableId: string): Promise<StoredTableState | undefined> {
    const rows = await this.dataSource.query(
      `SELECT version, state FROM table_state WHERE table_id = $1`,
      [tableId],
    );
    return rows.length === 1
      ? { version: Number(rows[0].version), state: rows[0].state as TableState }
      : undefined;
  }

  async findCommand(commandId: string): Promise<Record<string, unknown> | undefined> {
    const rows = await this.dataSource.query(
      `SELECT result FROM processed_commands WHERE command_id = $1`,
      [commandId],
    );
    return rows[0]?.result;
  }

  /** The stored first answers of those of these command ids that were already processed. */
  async findCommands(commandIds: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
    const found = new Map<string, Record<string, unknown>>();
    for (const chunk of chunks(commandIds, 5000)) {
      const rows = await this.dataSource.query(
        `SELECT command_id, result FROM processed_commands WHERE command_id = ANY($1::text[])`,
        [chunk],
      );
      for (const row of rows) found.set(row.command_id, row.result);
    }
    return found;
  }

  /** Records the answers to commands that changed nothing (rejections), for idempotent repeats. */
  async recordCommands(
    tableId: string | null,
    commands: readonly CommandRecord[],
    at: Date,
  ): Promise<void> {
    if (commands.length === 0) return;
    await this.dataSource.transaction((manager) =>
      this.insertCommands(manager, tableId, commands, at, 'ON CONFLICT (command_id) DO NOTHING'),
    );
  }

  private async insertCommands(
    manager: EntityManager,
    tableId: string | null,
    commands: readonly CommandRecord[],
    at: Date,
    onConflict = '',
  ): Promise<void> {
    for (const chunk of chunks(commands, 1000)) {
      await manager.query(
        `INSERT INTO processed_commands (command_id, table_id, kind, result, received_at)
         SELECT c."commandId", $2, c.kind, c.result, $3
           FROM jsonb_to_recordset($1::jsonb) AS c("commandId" text, kind text, result jsonb)
         ${onConflict}`,
        [JSON.stringify(chunk), tableId, at],
      );
    }
  }

  async commit(outcome: MachineOutcome, ctx: CommitContext): Promise<number> {
    const state = outcome.state;
    return this.dataSource.transaction(async (manager) => {
      await this.leases.assertHeld(manager, ctx.lease);
      const version = await this.writeState(manager, state, ctx);
      await this.writeHistory(manager, state.tableId, outcome.writes, ctx);
      await this.insertCommands(manager, state.tableId, ctx.commands ?? [], ctx.occurredAt);
      return version;
    });
  }

  private async writeState(
    manager: EntityManager,
    state: TableState,
    ctx: CommitContext,
  ): Promise<number> {
    if (ctx.expectedVersion === 0) {
      const inserted = await manager.query(
        `INSERT INTO table_state (table_id, version, state, updated_at)
         VALUES ($1, 1, $2, $3) ON CONFLICT (table_id) DO NOTHING RETURNING version`,
        [state.tableId, state, ctx.occurredAt],
      );
      if (inserted.length !== 1) throw new StaleTableStateError(state.tableId, 0);
      return 1;
    }
    const rows = await manager.query(
      `WITH updated AS (
         UPDATE table_state SET version = version + 1, state = $3, updated_at = $4
          WHERE table_id = $1 AND version = $2 RETURNING version)
       SELECT version FROM updated`,
      [state.tableId, ctx.expectedVersion, state, ctx.occurredAt],
    );
    if (rows.length !== 1) throw new StaleTableStateError(state.tableId, ctx.expectedVersion);
    return Number(rows[0].version);
  }

  private async writeHistory(
    manager: EntityManager,
    tableId: string,
    writes: TableWrites,
    ctx: CommitContext,
  ): Promise<void> {
    const at = ctx.occurredAt;
    if (writes.newShoe) {
      await manager.query(
        `INSERT INTO shoes (id, table_id, shoe_number, deck_count, status, started_at)
         VALUES ($1, $2, $3, $4, 'open', $5)`,
        [writes.newShoe.id, tableId, writes.newShoe.shoeNumber, writes.newShoe.deckCount, at],
      );
    }
    if (writes.finishShoe) {
      await manager.query(
        `UPDATE shoes SET status = 'finished', finished_at = $2, finish_reason = $3 WHERE id = $1`,
        [writes.finishShoe.id, at, writes.finishShoe.reason],
      );
    }
    if (writes.newRound) {
      const r = writes.newRound;
      await manager.query(
        // The configuration the round is played under, kept with it for replay.
        `INSERT INTO rounds (id, table_id, shoe_id, shoe_number, round_number, game, status, phase, started_at, configuration)
         SELECT $1, $2, $3, $4, $5, game, 'in-progress', 'started', $6, configuration FROM studio_tables WHERE id = $2`,
        [r.id, tableId, r.shoeId, r.shoeNumber, r.roundNumber, at],
      );
    }
    if (writes.roundStatus) {
      const s = writes.roundStatus;
      await manager.query(
        `UPDATE rounds SET status = $2, phase = $3,
                ended_at = CASE WHEN $4 THEN $5::timestamptz ELSE ended_at END,
                void_reason = COALESCE($6, void_reason),
                final_state = COALESCE($7::jsonb, final_state)
          WHERE id = $1`,
        [
          s.id,
          s.status,
          s.phase,
          s.ended,
          at,
          s.voidReason ?? null,
          s.finalState === undefined ? null : JSON.stringify(s.finalState),
        ],
      );
    }
    for (const c of writes.cards) {
      await manager.query(
        `INSERT INTO round_cards (round_id, shoe_id, table_id, slot, card, reading_id, face_down, dealt_at, revealed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          c.roundId,
          c.shoeId,
          tableId,
          c.slot,
          c.card,
          c.readingId,
          c.faceDown,
          at,
          c.faceDown ? null : at,
        ],
      );
    }
    for (const fix of writes.corrections) {
      const [old] = await manager.query(
        `SELECT id, shoe_id, reading_id FROM round_cards
          WHERE round_id = $1 AND slot = $2 AND corrected_by_id IS NULL ORDER BY id DESC LIMIT 1`,
        [fix.roundId, fix.slot],
      );
      const [created] = await manager.query(
        `INSERT INTO round_cards (round_id, shoe_id, table_id, slot, card, reading_id, face_down, dealt_at, correction_reason)
         VALUES ($1, $2, $3, $4, $5, NULL, true, $6, $7) RETURNING id`,
        [fix.roundId, old.shoe_id, tableId, fix.slot, fix.card, at, fix.reason],
      );
      await manager.query(`UPDATE round_cards SET corrected_by_id = $2 WHERE id = $1`, [
        old.id,
        created.id,
      ]);
    }
    for (const r of writes.reveals) {
      await manager.query(
        `UPDATE round_cards SET revealed_at = $3
          WHERE round_id = $1 AND slot = $2 AND revealed_at IS NULL AND corrected_by_id IS NULL`,
        [r.roundId, r.slot, at],
      );
    }
    await this.insertBets(manager, tableId, writes, at);
    for (const chunk of chunks(writes.decisions, 1000)) {
      await manager.query(
        `INSERT INTO decisions (round_id, player_id, hand, action, automatic, command_id, decided_at)
         SELECT d.round_id, d.player_id, d.hand, d.action, d.automatic, d.command_id, $2
           FROM jsonb_to_recordset($1::jsonb) AS d(round_id uuid, player_id text, hand text,
                action text, automatic boolean, command_id text)`,
        [
          JSON.stringify(
            chunk.map((d) => ({
              round_id: d.roundId,
              player_id: d.playerId,
              hand: d.hand,
              action: d.action,
              automatic: d.automatic,
              command_id: d.commandId ?? null,
            })),
          ),
          at,
        ],
      );
    }
    await this.insertSettlements(manager, writes, at);
    if (writes.hands && writes.hands.hands.length > 0) {
      await manager.query(
        `INSERT INTO round_hands (round_id, hand, owner, cards, total, result)
         SELECT $2, h.hand, h.owner, ARRAY(SELECT jsonb_array_elements_text(h.cards)), h.total, h.result
           FROM jsonb_to_recordset($1::jsonb) AS h(hand text, owner text, cards jsonb, total text, result text)`,
        [JSON.stringify(writes.hands.hands), writes.hands.roundId],
      );
    }
    if (writes.supervisorAction?.approval) {
      const a = writes.supervisorAction;
      const updated = await manager.query(
        `WITH resolved AS (
           UPDATE supervisor_actions
              SET status = 'applied', approved_by_user_id = (SELECT id FROM users WHERE username = $2),
                  details = details || jsonb_build_object('approvedBy', $2::text, 'approvedAt', $3::timestamptz)
            WHERE id = $1 AND status = 'pending-approval' RETURNING id)
         SELECT id FROM resolved`,
        [a.approval!.requestId, a.approval!.approvedBy, at],
      );
      // Approved twice, or approved after it was withdrawn: the whole transition rolls back.
      if (updated.length !== 1)
        throw new Error(`Void request ${a.approval!.requestId} is no longer pending`);
    } else if (writes.supervisorAction) {
      const a = writes.supervisorAction;
      await manager.query(
        `INSERT INTO supervisor_actions (table_id, round_id, action, reason, actor_user_id, actor_name, status, details, created_at)
         VALUES ($1, $2, $3, $4, (SELECT id FROM users WHERE username = $5), $5, 'applied', $6, $7)`,
        [tableId, a.roundId, a.action, a.reason, a.actor, a.details, at],
      );
    }
    if (writes.roundStatus?.ended) {
      // After the approval above: the request being applied is no longer pending.
      await manager.query(
        `UPDATE supervisor_actions
            SET status = 'lapsed',
                details = details || jsonb_build_object('lapsedAt', $2::timestamptz,
                  'lapsedBecause', 'the round ended before a second supervisor approved')
          WHERE round_id = $1 AND status = 'pending-approval'`,
        [writes.roundStatus.id, at],
      );
    }
    if (writes.readingOutcome && /^\d+$/.test(writes.readingOutcome.readingId)) {
      await manager.query(
        `UPDATE scanner_readings SET outcome = $2, outcome_detail = $3 WHERE id = $1 AND table_id = $4`,
        [
          writes.readingOutcome.readingId,
          writes.readingOutcome.outcome,
          writes.readingOutcome.detail,
          tableId,
        ],
      );
    }
    await this.appendEvents(manager, tableId, writes, ctx);
  }

  private async insertBets(
    manager: EntityManager,
    tableId: string,
    writes: TableWrites,
    at: Date,
  ): Promise<void> {
    if (writes.bets.length === 0) return;
    const [{ currency }] = await manager.query(`SELECT currency FROM studio_tables WHERE id = $1`, [
      tableId,
    ]);
    for (const chunk of chunks(writes.bets, 1000)) {
      await manager.query(
        `INSERT INTO bets (id, round_id, table_id, player_id, command_id, bet_type, spot, amount, deducted, currency, status, placed_at)
         SELECT b.id, b.round_id, $2, b.player_id, b.command_id, b.bet_type, b.spot, b.amount, b.deducted, $3, 'accepted', $4
           FROM jsonb_to_recordset($1::jsonb) AS b(id text, round_id uuid, player_id text, command_id text,
                bet_type text, spot text, amount bigint, deducted bigint)`,
        [
          JSON.stringify(
            chunk.map((b) => ({
              id: b.betId,
              round_id: b.roundId,
              player_id: b.playerId,
              command_id: b.commandId ?? null,
              bet_type: b.betType,
              spot: b.spot,
              amount: b.amount,
              deducted: b.deducted,
            })),
          ),
          tableId,
          currency,
          at,
        ],
      );
    }
  }

  private async insertSettlements(
    manager: EntityManager,
    writes: TableWrites,
    at: Date,
  ): Promise<void> {
    for (const chunk of chunks(writes.settlements, 1000)) {
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

  private async appendEvents(
    manager: EntityManager,
    tableId: string,
    writes: TableWrites,
    ctx: CommitContext,
  ): Promise<void> {
    if (writes.events.length === 0) return;
    const [last] = await manager.query(
      `SELECT event_no, hash FROM round_events WHERE table_id = $1 ORDER BY event_no DESC LIMIT 1`,
      [tableId],
    );
    let eventNo = last ? Number(last.event_no) : 0;
    let prevHash: string = last ? last.hash : GENESIS_HASH;
    const occurredAt = ctx.occurredAt.toISOString();
    const rows: unknown[] = [];
    for (const e of writes.events) {
      eventNo += 1;
      const fields = {
        tableId,
        eventNo,
        roundId: e.roundId,
        type: e.type,
        visibility: e.visibility,
        payload: e.payload,
        actor: e.actor ?? null,
        occurredAt,
      };
      const hash = eventHash(prevHash, fields);
      rows.push({ ...fields, prevHash, hash });
      prevHash = hash;
    }
    await manager.query(
      `INSERT INTO round_events (table_id, event_no, round_id, type, visibility, payload, actor, occurred_at, prev_hash, hash)
       SELECT $2, e."eventNo", e."roundId", e.type, e.visibility, e.payload, e.actor, e."occurredAt", e."prevHash", e.hash
         FROM jsonb_to_recordset($1::jsonb) AS e("eventNo" bigint, "roundId" uuid, type text, visibility text,
              payload jsonb, actor text, "occurredAt" timestamptz, "prevHash" text, hash text)`,
      [JSON.stringify(rows), tableId],
    );
    const published = writes.events.filter((e) => e.visibility === 'public');
    if (published.length > 0) {
      await appendTableEvents(
        manager,
        published.map((e) => ({
          eventId: ctx.newId(),
          topic: topicName('tableEvents', this.topicPrefix),
          tableId,
          roundId: e.roundId ?? undefined,
          type: e.type,
          schemaVersion: 1,
          occurredAt: ctx.occurredAt,
          payload: e.payload,
        })),
      );
    }
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
