import { roundOf, TableState } from '../table-core/table-machine';
import type { CardsOf, StoredCard } from './console-snapshot';

/** Runs one SQL statement (a DataSource's query, bound in the module). */
export type ConsoleQuery = <T = Record<string, unknown>>(
  sql: string,
  params?: unknown[],
) => Promise<T[]>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Which cards a console shows for a table in this state (the cache key is the id). */
export function consoleCardsSource(state: TableState | undefined): { of: CardsOf; id: string } {
  if (!state?.shoe) return { of: 'none', id: '' };
  const round = roundOf(state);
  if (round) return { of: 'round', id: round.id };
  if (state.shoe.state.phase === 'burning') return { of: 'burn', id: state.shoe.id };
  if (state.lastRoundId) return { of: 'last-round', id: state.lastRoundId };
  return { of: 'none', id: '' };
}

/**
 * The cards a console shows for a table right now: those of the round in progress; while a new
 * shoe is burnt, the burn; between rounds, the round that just ended (so the dealer sees the
 * revealed hands until the next round starts). A corrected card shows as its correction.
 */
export async function loadConsoleCards(
  query: ConsoleQuery,
  state: TableState | undefined,
): Promise<StoredCard[]> {
  const source = consoleCardsSource(state);
  const rows =
    source.of === 'round' || source.of === 'last-round'
      ? await query<CardRow>(
          // A corrected card stays where the card it replaced was dealt (the slot's first row).
          `SELECT c.slot, c.card, c.face_down, c.revealed_at FROM round_cards c
            WHERE c.round_id = $1 AND c.corrected_by_id IS NULL
            ORDER BY (SELECT min(o.id) FROM round_cards o
                       WHERE o.round_id = c.round_id AND o.slot = c.slot), c.id`,
          [source.id],
        )
      : source.of === 'burn'
        ? await query<CardRow>(
            `SELECT slot, card, face_down, revealed_at FROM round_cards
              WHERE round_id IS NULL AND shoe_id = $1 AND corrected_by_id IS NULL ORDER BY id`,
            [source.id],
          )
        : [];
  return rows.map((r) => ({
    slot: r.slot,
    card: r.card,
    faceDown: r.face_down,
    revealedAt: iso(r.revealed_at),
  }));
}

interface CardRow {
  slot: string;
  card: string;
  face_down: boolean;
  revealed_at: Date | null;
}

export interface ActionLogEntry {
  id: string;
  at: string;
  tableId: string;
  roundId: string | null;
  action: string;
  reason: string | null;
  by: string;
  status: string;
  approvedBy: string | null;
  details: Record<string, unknown>;
  /** For a void that took effect: every bet of the round and what it got back. */
  refunds?: Array<{
    playerId: string;
    betType: string;
    spot: string | null;
    stake: number;
    returned: number;
  }>;
}

/**
 * The supervisors' action log: pauses, resumes, voids (pending ones too), corrections and shoe
 * ends as recorded in supervisor_actions, newest first, with the refunds of each applied void
 * read from its round's settlements. No store of its own: the history is the record.
 */
export async function loadActionLog(
  query: ConsoleQuery,
  filter: { tableId?: string; limit: number },
): Promise<ActionLogEntry[]> {
  const rows = await query<{
    id: string;
    created_at: Date;
    table_id: string;
    round_id: string | null;
    action: string;
    reason: string | null;
    actor_name: string;
    status: string;
    approved_by: string | null;
    details: Record<string, unknown> | null;
    round_status: string | null;
  }>(
    `SELECT a.id, a.created_at, a.table_id, a.round_id, a.action, a.reason, a.actor_name, a.status,
            u.username AS approved_by, a.details, r.status AS round_status
       FROM supervisor_actions a
       LEFT JOIN users u ON u.id = a.approved_by_user_id
       LEFT JOIN rounds r ON r.id = a.round_id
      WHERE ($1::text IS NULL OR a.table_id = $1)
      ORDER BY a.created_at DESC, a.id DESC
      LIMIT $2`,
    [filter.tableId ?? null, filter.limit],
  );
  const voided = [
    ...new Set(
      rows
        .filter((r) => r.action === 'void' && r.status === 'applied' && r.round_status === 'voided')
        .map((r) => r.round_id!),
    ),
  ];
  const refunds = voided.length
    ? await query<{
        round_id: string;
        player_id: string;
        bet_type: string;
        spot: string | null;
        stake: string;
        returned: string;
      }>(
        `SELECT round_id, player_id, bet_type, spot, stake, returned FROM settlements
          WHERE round_id = ANY($1::uuid[]) ORDER BY id`,
        [voided],
      )
    : [];
  return rows.map((r) => ({
    id: String(r.id),
    at: iso(r.created_at)!,
    tableId: r.table_id,
    roundId: r.round_id,
    action: r.action,
    reason: r.reason,
    by: r.actor_name,
    status: r.status,
    approvedBy: r.approved_by,
    details: r.details ?? {},
    ...(r.action === 'void' && r.round_id && voided.includes(r.round_id)
      ? {
          refunds: refunds
            .filter((s) => s.round_id === r.round_id)
            .map((s) => ({
              playerId: s.player_id,
              betType: s.bet_type,
              spot: s.spot,
              stake: Number(s.stake),
              returned: Number(s.returned),
            })),
        }
      : {}),
  }));
}
