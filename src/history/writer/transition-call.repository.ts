import type { DataSource } from 'typeorm';
import { LeaseLostError, TableLease } from '../../database/table-lease.repository';
import type { TableWrites } from '../../table-core/table-machine';
import { GENESIS_HASH } from '../../tables/event-chain';
import type { ChainedEventRow, ChainHead, OutboxRow } from './round-events.repository';
import { StaleTableStateError } from './table-state.repository';

/** The rows of one transition, as studio_commit_transition takes them. */
export interface TransitionCall {
  lease: TableLease;
  expectedVersion: number;
  at: Date;
  /** The new state (snapshot) or its delta from the previous version, as JSON text. */
  state: { mode: 'snapshot' | 'delta'; json: string };
  writes: TableWrites;
  /** The transition's own reading, not stored yet (see readingRow). */
  reading?: Record<string, unknown>;
  prev: ChainHead;
  events: ChainedEventRow[];
  outbox: OutboxRow[];
}

/** The hash chain moved under the owner (its remembered head is stale): nothing was written. */
export class ChainMovedError extends Error {
  constructor(tableId: string) {
    super(`The event chain of table ${tableId} is not where this instance left it`);
    this.name = 'ChainMovedError';
  }
}

/**
 * A transition in one round trip: one call of studio_commit_transition (migration
 * 1764710000000), which checks the lease, the state version and the chain's head and writes every
 * row of the transition in its own statement, so in one commit.
 */
export class TransitionCallRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Writes the transition; returns the new version and the id of its reading row, if any. */
  async commit(call: TransitionCall): Promise<{ version: number; readingId: string | null }> {
    const w = call.writes;
    const tableId = call.lease.tableId;
    const t = {
      tableId,
      owner: call.lease.owner,
      epoch: call.lease.epoch,
      expectedVersion: call.expectedVersion,
      at: call.at.toISOString(),
      stateMode: call.state.mode,
      reading: call.reading ?? null,
      newShoe: w.newShoe ?? null,
      finishShoe: w.finishShoe ?? null,
      newRound: w.newRound ?? null,
      roundStatus: w.roundStatus ?? null,
      cards: w.cards,
      reveals: w.reveals,
      settlements: w.settlements.map((x) => ({
        round_id: x.roundId,
        bet_id: x.betId,
        player_id: x.playerId,
        bet_type: x.betType,
        spot: x.spot,
        stake: x.stake,
        returned: x.returned,
        net: x.net,
        outcome: x.outcome,
        rounded_down: x.roundedDown,
      })),
      hands: w.hands ?? null,
      lapse: w.roundStatus?.ended
        ? { roundId: w.roundStatus.id, requestIds: w.lapsedVoidRequests?.requestIds ?? [] }
        : null,
      // Readings replayed in tests carry made-up ids; only stored readings have numeric ones.
      readingOutcome:
        w.readingOutcome && /^\d+$/.test(w.readingOutcome.readingId) ? w.readingOutcome : null,
      prevEventNo: call.prev.eventNo,
      prevHash: call.prev.hash,
      genesis: GENESIS_HASH,
      events: call.events,
      outbox: call.outbox,
    };
    try {
      const [row] = await this.dataSource.query(
        `SELECT studio_commit_transition($1::jsonb, $2::json) AS r`,
        [JSON.stringify(t), call.state.json],
      );
      const r = row.r as { version: number | string; readingId: string | null };
      return { version: Number(r.version), readingId: r.readingId };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'SL001') throw new LeaseLostError(call.lease);
      if (code === 'SL002') throw new StaleTableStateError(tableId, call.expectedVersion);
      if (code === 'SL003') throw new ChainMovedError(tableId);
      throw error;
    }
  }
}
