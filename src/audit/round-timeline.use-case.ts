import type { AuditQuery } from './audit-query';
import { AuditRequestError } from './audit-query';
import { ROUND_COLUMNS, RoundRow, roundSummary, RoundSummary } from './search-rounds.use-case';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type TimelineEntry = { at: string; kind: string } & Record<string, unknown>;

export interface RoundTimelineView {
  round: RoundSummary;
  /**
   * Everything in time order: `reading` (raw bytes in hex, with the outcome: applied, rescan,
   * duplicate...), `card`, `bet`, `decision` (automatic ones marked), `settlement`,
   * `supervisor-action`, `event` (the hash-chained round events).
   */
  timeline: TimelineEntry[];
  /** Every hand of the finished round with its cards, total and result (round_hands). */
  hands: Array<{
    hand: string;
    owner: string | null;
    cards: string[];
    total: string;
    result: string | null;
  }>;
  counts: Record<string, number>;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const int = (v: string | null) => (v === null ? null : Number(v));

/**
 * One round's full record for an auditor. Readings are those of the round's table between its
 * start and its end, so rescans and garbage the reader sent mid-round are there too, each with the
 * exact bytes received. Face-down cards are shown: auditors see everything, after the fact.
 */
export class RoundTimeline {
  constructor(private readonly q: AuditQuery) {}

  async execute(roundId: string): Promise<RoundTimelineView> {
    if (!UUID.test(roundId)) throw new AuditRequestError('bad-request', 'roundId must be a uuid');
    const [round] = await this.q<RoundRow>(
      `SELECT ${ROUND_COLUMNS} FROM rounds r WHERE r.id = $1`,
      [roundId],
    );
    if (!round) throw new AuditRequestError('not-found', `No round ${roundId}`);
    const [readings, cards, bets, decisions, settlements, actions, events, hands] =
      await Promise.all([
        this.q<{
          id: string;
          port: string;
          wire_format: string;
          kind: string;
          raw: Buffer;
          decoded: Record<string, unknown>;
          device_seq: number | null;
          received_at: Date;
          outcome: string;
          outcome_detail: unknown;
        }>(
          `SELECT id, port, wire_format, kind, raw, decoded, device_seq, received_at, outcome, outcome_detail
           FROM scanner_readings
          WHERE table_id = $1 AND received_at >= $2 AND received_at <= COALESCE($3, now())
            AND kind IN ('card', 'unrecognised', 'invalid')
          ORDER BY received_at, id`,
          [round.table_id, round.started_at, round.ended_at],
        ),
        this.q<{
          id: string;
          slot: string;
          card: string;
          reading_id: string | null;
          face_down: boolean;
          dealt_at: Date;
          revealed_at: Date | null;
          corrected_by_id: string | null;
          correction_reason: string | null;
        }>(
          `SELECT id, slot, card, reading_id, face_down, dealt_at, revealed_at, corrected_by_id, correction_reason
           FROM round_cards WHERE round_id = $1 ORDER BY id`,
          [roundId],
        ),
        this.q<{
          id: string;
          player_id: string;
          command_id: string | null;
          bet_type: string;
          spot: string | null;
          amount: string;
          deducted: string;
          currency: string;
          status: string;
          placed_at: Date;
        }>(
          `SELECT id, player_id, command_id, bet_type, spot, amount, deducted, currency, status, placed_at
           FROM bets WHERE round_id = $1 ORDER BY placed_at, id`,
          [roundId],
        ),
        this.q<{
          id: string;
          player_id: string;
          hand: string | null;
          action: string;
          automatic: boolean;
          command_id: string | null;
          decided_at: Date;
        }>(
          `SELECT id, player_id, hand, action, automatic, command_id, decided_at
           FROM decisions WHERE round_id = $1 ORDER BY id`,
          [roundId],
        ),
        this.q<{
          id: string;
          bet_id: string | null;
          player_id: string;
          bet_type: string;
          spot: string | null;
          stake: string;
          returned: string;
          net: string;
          outcome: string;
          rounded_down: string;
          settled_at: Date;
        }>(
          `SELECT id, bet_id, player_id, bet_type, spot, stake, returned, net, outcome, rounded_down, settled_at
           FROM settlements WHERE round_id = $1 ORDER BY id`,
          [roundId],
        ),
        this.q<{
          id: string;
          action: string;
          reason: string | null;
          actor_name: string;
          status: string;
          details: unknown;
          created_at: Date;
        }>(
          `SELECT id, action, reason, actor_name, status, details, created_at
           FROM supervisor_actions WHERE round_id = $1 ORDER BY id`,
          [roundId],
        ),
        this.q<{
          event_no: string;
          type: string;
          visibility: string;
          payload: unknown;
          actor: string | null;
          occurred_at: Date;
          prev_hash: string;
          hash: string;
        }>(
          `SELECT event_no, type, visibility, payload, actor, occurred_at, prev_hash, hash
           FROM round_events WHERE round_id = $1 ORDER BY event_no`,
          [roundId],
        ),
        this.q<RoundTimelineView['hands'][number]>(
          `SELECT hand, owner, cards, total, result FROM round_hands WHERE round_id = $1 ORDER BY id`,
          [roundId],
        ),
      ]);
    // Stable merge: entries at the same instant keep the order of the kinds listed here.
    const entries: TimelineEntry[] = [
      ...readings.map((r) => ({
        at: iso(r.received_at)!,
        kind: 'reading',
        readingId: String(r.id),
        port: r.port,
        wireFormat: r.wire_format,
        readingKind: r.kind,
        rawHex: Buffer.from(r.raw).toString('hex'),
        decoded: r.decoded,
        deviceSeq: r.device_seq,
        outcome: r.outcome,
        outcomeDetail: r.outcome_detail,
        rescan: r.outcome.startsWith('rescan') || r.kind !== 'card',
      })),
      ...bets.map((b) => ({
        at: iso(b.placed_at)!,
        kind: 'bet',
        betId: b.id,
        playerId: b.player_id,
        commandId: b.command_id,
        betType: b.bet_type,
        spot: b.spot,
        amount: Number(b.amount),
        deducted: Number(b.deducted),
        currency: b.currency,
        status: b.status,
      })),
      ...cards.map((c) => ({
        at: iso(c.dealt_at)!,
        kind: 'card',
        cardRowId: String(c.id),
        slot: c.slot,
        card: c.card,
        readingId: c.reading_id === null ? null : String(c.reading_id),
        faceDown: c.face_down,
        revealedAt: iso(c.revealed_at),
        correctedByCardRowId: c.corrected_by_id === null ? null : String(c.corrected_by_id),
        correctionReason: c.correction_reason,
      })),
      ...decisions.map((d) => ({
        at: iso(d.decided_at)!,
        kind: 'decision',
        playerId: d.player_id,
        hand: d.hand,
        action: d.action,
        automatic: d.automatic,
        commandId: d.command_id,
      })),
      ...settlements.map((s) => ({
        at: iso(s.settled_at)!,
        kind: 'settlement',
        betId: s.bet_id,
        playerId: s.player_id,
        betType: s.bet_type,
        spot: s.spot,
        stake: int(s.stake),
        returned: int(s.returned),
        net: int(s.net),
        outcome: s.outcome,
        roundedDown: s.rounded_down,
      })),
      ...actions.map((a) => ({
        at: iso(a.created_at)!,
        kind: 'supervisor-action',
        action: a.action,
        reason: a.reason,
        actor: a.actor_name,
        status: a.status,
        details: a.details,
      })),
      ...events.map((e) => ({
        at: iso(e.occurred_at)!,
        kind: 'event',
        eventNo: Number(e.event_no),
        type: e.type,
        visibility: e.visibility,
        payload: e.payload,
        actor: e.actor,
        prevHash: e.prev_hash,
        hash: e.hash,
      })),
    ];
    const timeline = entries
      .map((e, i) => ({ e, i }))
      .sort((a, b) => (a.e.at < b.e.at ? -1 : a.e.at > b.e.at ? 1 : a.i - b.i))
      .map(({ e }) => e);
    const counts: Record<string, number> = {};
    for (const e of timeline) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
    return { round: roundSummary(round), timeline, hands, counts };
  }
}
