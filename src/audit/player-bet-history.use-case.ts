import type { AuditQuery } from './audit-query';
import { decodeCursor, encodeCursor, pageSize, parseTime } from './keyset-cursor';

export interface PlayerBet {
  betId: string;
  roundId: string;
  tableId: string;
  game: string;
  roundStatus: string;
  betType: string;
  spot: string | null;
  amount: number;
  deducted: number;
  currency: string;
  status: string;
  placedAt: string;
  /** The bet's settlement, when it has one. */
  settlement: { returned: number; net: number; outcome: string; roundedDown: string } | null;
}

/** A player's bets, newest first, each with its round and its settlement; keyset-paginated. */
export class PlayerBetHistory {
  constructor(private readonly q: AuditQuery) {}

  async execute(
    playerId: string,
    query: { from?: string; to?: string; limit?: string; cursor?: string },
  ): Promise<{ items: PlayerBet[]; nextCursor: string | null }> {
    const limit = pageSize(query.limit);
    const after = decodeCursor(query.cursor);
    const rows = await this.q<{
      id: string;
      round_id: string;
      table_id: string;
      game: string;
      round_status: string;
      bet_type: string;
      spot: string | null;
      amount: string;
      deducted: string;
      currency: string;
      status: string;
      placed_at: Date;
      placed_key: string;
      returned: string | null;
      net: string | null;
      outcome: string | null;
      rounded_down: string | null;
    }>(
      `SELECT b.id, b.round_id, b.table_id, r.game, r.status AS round_status, b.bet_type, b.spot,
              b.amount, b.deducted, b.currency, b.status, b.placed_at, b.placed_at::text AS placed_key,
              s.returned, s.net, s.outcome, s.rounded_down
         FROM bets b
         JOIN rounds r ON r.id = b.round_id
         LEFT JOIN LATERAL (
           SELECT returned, net, outcome, rounded_down FROM settlements
            WHERE round_id = b.round_id AND bet_id = b.id ORDER BY id LIMIT 1) s ON true
        WHERE b.player_id = $1
          AND ($2::timestamptz IS NULL OR b.placed_at >= $2)
          AND ($3::timestamptz IS NULL OR b.placed_at < $3)
          AND ($4::timestamptz IS NULL OR (b.placed_at, b.id) < ($4::timestamptz, $5::text))
        ORDER BY b.placed_at DESC, b.id DESC LIMIT ${limit + 1}`,
      [
        playerId,
        parseTime('from', query.from) ?? null,
        parseTime('to', query.to) ?? null,
        after?.at ?? null,
        after?.id ?? null,
      ],
    );
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    return {
      items: page.map((b) => ({
        betId: b.id,
        roundId: b.round_id,
        tableId: b.table_id,
        game: b.game,
        roundStatus: b.round_status,
        betType: b.bet_type,
        spot: b.spot,
        amount: Number(b.amount),
        deducted: Number(b.deducted),
        currency: b.currency,
        status: b.status,
        placedAt: new Date(b.placed_at).toISOString(),
        settlement:
          b.outcome === null
            ? null
            : {
                returned: Number(b.returned),
                net: Number(b.net),
                outcome: b.outcome,
                roundedDown: b.rounded_down ?? '0',
              },
      })),
      nextCursor: more && last ? encodeCursor({ at: last.placed_key, id: last.id }) : null,
    };
  }
}
