import type { PlayerRef } from '../../common/player-key';
import type { HandRecord } from '../../history/reader/round-cards.reader';
import { historyReader, HistorySource } from '../../history/reader/history-reader';
import { roundSummary, RoundSummary } from '../../history/reader/rounds.reader';
import { AuditRequestError } from '../audit-query';
import { hiddenUntilRoundEnd, ShownRecords } from '../hidden-until-round-end';
import type { RoundIdQuery } from '../round-id';
import { betEntries, decisionEntries, handsWithPlayers, settlementEntries } from './player-entries';

export type TimelineEntry = { at: string; kind: string } & Record<string, unknown>;

export interface RoundTimelineView {
  round: RoundSummary;
  /**
   * Everything in time order: `reading` (raw bytes in hex, with the outcome: applied, rescan,
   * duplicate...), `card`, `bet`, `decision` (automatic ones marked), `settlement`,
   * `supervisor-action`, `event` (the hash-chained round events). Bets, decisions and
   * settlements keep `playerId` (the player's key) and add `player` (platform and playerId);
   * settlements their `currency`.
   */
  timeline: TimelineEntry[];
  /**
   * Every hand of the finished round with its cards, total and result (round_hands); a seat's
   * hand also names its player as (platform, playerId).
   */
  hands: Array<HandRecord & { player?: PlayerRef }>;
  counts: Record<string, number>;
}

/**
 * One round's full record for an auditor. Readings are those of the round's table between its
 * start and its end, so rescans and garbage the reader sent mid-round are there too, each with the
 * exact bytes received. Face-down cards are shown once the round has ended (hiddenUntilRoundEnd).
 */
export class RoundTimeline {
  constructor(private readonly source: HistorySource) {}

  async execute({ roundId }: RoundIdQuery): Promise<RoundTimelineView> {
    const h = historyReader(this.source);
    const round = await h.rounds.byId(roundId);
    if (!round) throw new AuditRequestError('not-found', `No round ${roundId}`);
    const [readings, cards, bets, decisions, settlements, actions, events, hands] =
      await Promise.all([
        h.readings.ofTableBetween(round.tableId, round.startedAtValue, round.endedAtValue),
        h.cards.rowsOfRound(roundId),
        h.bets.ofRound(roundId),
        h.bets.decisionsOfRound(roundId),
        h.bets.settlementsOfRound(roundId),
        h.supervisorActions.ofRound(roundId),
        h.events.ofRound(roundId),
        h.cards.handsOfRound(roundId),
      ]);
    const shown = hiddenUntilRoundEnd(round.status, { readings, cards, events, hands });
    // Stable merge: entries at the same instant keep the order of the kinds listed here.
    const entries: TimelineEntry[] = [
      ...readingEntries(shown),
      ...betEntries(bets),
      ...cardEntries(shown),
      ...decisionEntries(decisions),
      ...settlementEntries(settlements),
      ...actions.map(({ createdAt, ...a }) => ({ at: createdAt, kind: 'supervisor-action', ...a })),
      ...eventEntries(shown),
    ];
    const timeline = entries
      .map((e, i) => ({ e, i }))
      .sort((a, b) => (a.e.at < b.e.at ? -1 : a.e.at > b.e.at ? 1 : a.i - b.i))
      .map(({ e }) => e);
    const counts: Record<string, number> = {};
    for (const e of timeline) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
    return { round: roundSummary(round), timeline, hands: handsWithPlayers(shown.hands), counts };
  }
}

function readingEntries(shown: ShownRecords): TimelineEntry[] {
  return shown.readings.map(({ receivedAt, raw, withheld, ...r }) => ({
    at: receivedAt,
    kind: 'reading',
    readingId: r.readingId,
    port: r.port,
    wireFormat: r.wireFormat,
    readingKind: r.readingKind,
    rawHex: raw === null ? null : raw.toString('hex'),
    decoded: r.decoded,
    deviceSeq: r.deviceSeq,
    outcome: r.outcome,
    outcomeDetail: r.outcomeDetail,
    rescan: r.outcome.startsWith('rescan') || r.readingKind !== 'card',
    ...(withheld ? { withheld } : {}),
  }));
}

function cardEntries(shown: ShownRecords): TimelineEntry[] {
  return shown.cards.map(({ dealtAt, ...c }) => ({
    at: dealtAt,
    kind: 'card',
    cardRowId: c.cardRowId,
    slot: c.slot,
    card: c.card,
    readingId: c.readingId,
    faceDown: c.faceDown,
    revealedAt: c.revealedAt,
    correctedByCardRowId: c.correctedByCardRowId,
    correctionReason: c.correctionReason,
    ...(c.withheld ? { withheld: c.withheld } : {}),
  }));
}

function eventEntries(shown: ShownRecords): TimelineEntry[] {
  return shown.events.map((e) => ({
    at: e.occurredAt,
    kind: 'event',
    eventNo: e.eventNo,
    type: e.type,
    visibility: e.visibility,
    payload: e.payload,
    actor: e.actor,
    ...(e.hash === undefined ? {} : { prevHash: e.prevHash, hash: e.hash }),
  }));
}
