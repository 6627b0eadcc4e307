import type { CardCode } from '@studio/cards';
import { isGameKind } from '@studio/contracts';
import type { GameDefinition } from '../../games/game-definition';
import { createGameAdapter, gameDefinition } from '../../games/game-registry';
import { historyReader, HistoryReader, HistorySource } from '../../history/reader/history-reader';
import type { DecisionRecord, SettlementRecord } from '../../history/reader/bets.reader';
import type { CardReading } from '../../history/reader/round-cards.reader';
import type { Keyset, ReplayRound } from '../../history/reader/rounds.reader';
import { tableRunSettings } from '../../tables/table-settings';
import { AuditRequestError } from '../audit-query';
import { compareReplay, ReplayMismatch, replayStoredRound, StoredRound } from '../../games/replay';
import { chainedReadingTimes, chainMismatches } from './chain-agreement';
import { voidRefundMismatches } from './void-refunds';

export type RoundVerdict =
  | { roundId: string; tableId: string; game: string; verdict: 'match'; settlements: number }
  | {
      roundId: string;
      tableId: string;
      game: string;
      verdict: 'mismatch';
      mismatches: ReplayMismatch[];
    }
  | {
      roundId: string;
      tableId: string;
      game: string;
      verdict: 'replay-failed';
      step: string;
      code: string;
      message: string;
    }
  | { roundId: string; tableId: string; game: string; verdict: 'skipped'; reason: string };

export interface RangeVerdict {
  from: string;
  to: string;
  rounds: number;
  matched: number;
  skipped: number;
  failed: RoundVerdict[];
}

/**
 * Replay verification: a completed round is recomputed from its stored bets, cards (checked
 * against the raw readings they came from), decisions and the rules it was played under (the
 * table configuration kept with the round) with the same pure engines the tables run, and every
 * settlement is compared with the stored one.
 */
export class VerifyRoundReplay {
  constructor(private readonly source: HistorySource) {}

  private get history(): HistoryReader {
    return historyReader(this.source);
  }

  async round(roundId: string): Promise<RoundVerdict> {
    const round = await this.history.rounds.forReplay(roundId);
    if (!round) throw new AuditRequestError('not-found', `No round ${roundId}`);
    return this.verify(round);
  }

  /**
   * Every round started in [from, to), oldest first; the verdicts of rounds that did not match.
   * With `maxRounds`, a range holding more rounds is refused before any is replayed.
   */
  async range(from: Date, to: Date, tableId?: string, maxRounds?: number): Promise<RangeVerdict> {
    if (maxRounds !== undefined) {
      const n = await this.history.rounds.countBetween({ from, to, tableId });
      if (n > maxRounds) {
        throw new AuditRequestError(
          'range-too-large',
          `${n} rounds started in that range; a replay verifies at most ${maxRounds} per call, split the range`,
        );
      }
    }
    const result: RangeVerdict = {
      from: from.toISOString(),
      to: to.toISOString(),
      rounds: 0,
      matched: 0,
      skipped: 0,
      failed: [],
    };
    let after: Keyset | undefined;
    for (;;) {
      const rounds = await this.history.rounds.forReplayBetween({ from, to, tableId }, after, 200);
      if (rounds.length === 0) break;
      for (const round of rounds) {
        const verdict = await this.verify(round);
        result.rounds += 1;
        if (verdict.verdict === 'match') result.matched += 1;
        else if (verdict.verdict === 'skipped') result.skipped += 1;
        else result.failed.push(verdict);
      }
      after = rounds[rounds.length - 1].key;
    }
    return result;
  }

  private async verify(row: ReplayRound): Promise<RoundVerdict> {
    const base = { roundId: row.id, tableId: row.tableId, game: row.game };
    if (row.status === 'voided') return this.verifyVoided(row, base);
    if (row.status !== 'completed') {
      return { ...base, verdict: 'skipped', reason: `round is ${row.status}` };
    }
    if (!isGameKind(row.game)) {
      return { ...base, verdict: 'skipped', reason: `no engine for ${row.game}` };
    }
    const adapter = createGameAdapter(
      tableRunSettings({
        ...row.configuration,
        id: row.tableId,
        game: row.game,
        currency: row.currency,
      }),
    );
    const [{ stored, settlements, decisions }, readings, events, cards] = await Promise.all([
      this.load(row),
      this.history.cards.withReadings(row.id),
      this.history.events.ofRound(row.id),
      this.history.cards.rowsOfRound(row.id),
    ]);
    const result = replayStoredRound(adapter, stored);
    if (!result.ok) {
      return {
        ...base,
        verdict: 'replay-failed',
        step: result.step,
        code: result.rejection.code,
        message: result.rejection.message,
      };
    }
    const mismatches = [
      ...decodedMismatches(readings),
      ...compareReplay(stored, result.replayed),
      ...chainMismatches(events, {
        settlements,
        readings,
        round: row,
        cards,
        decisions: chainedDecisionsOf(row, decisions),
        readingOutcomes: await this.readingOutcomes(row, events),
      }),
    ];
    return verdictOf(base, stored.settlements.length, mismatches);
  }

  /**
   * A voided round has no engine result to recompute, but its stored result is still checked:
   * every bet refunded exactly its stake (games.md §0), so an edited refund is a mismatch, and its
   * rows agree with its chained events (the refunds, the cards' bytes, the void's reason).
   */
  private async verifyVoided(
    row: ReplayRound,
    base: { roundId: string; tableId: string; game: string },
  ): Promise<RoundVerdict> {
    const h = this.history;
    const [bets, settlements, readings, events, voidActions, cards, decisions] = await Promise.all([
      h.bets.ofRound(row.id),
      h.bets.settlementsOfRound(row.id),
      h.cards.withReadings(row.id),
      h.events.ofRound(row.id),
      h.supervisorActions.ofRound(row.id),
      h.cards.rowsOfRound(row.id),
      h.bets.decisionsOfRound(row.id),
    ]);
    const mismatches = [
      ...voidRefundMismatches(bets, settlements),
      ...chainMismatches(events, {
        settlements,
        readings,
        voidReason: row.voidReason,
        round: row,
        voidActions,
        cards,
        voidTurnsOver: definitionOf(row)?.voidTurnsOver,
        decisions: chainedDecisionsOf(row, decisions),
        readingOutcomes: await this.readingOutcomes(row, events),
      }),
    ];
    return verdictOf(base, settlements.length, mismatches);
  }

  /** The outcome rows of the readings the round's chain names (none read when it names none). */
  private readingOutcomes(row: ReplayRound, events: Parameters<typeof chainedReadingTimes>[0]) {
    return this.history.readings.outcomesAt(row.tableId, chainedReadingTimes(events));
  }

  private async load(row: ReplayRound): Promise<{
    stored: StoredRound;
    settlements: SettlementRecord[];
    decisions: DecisionRecord[];
  }> {
    const h = this.history;
    const [bets, cards, decisions, settlements, hands] = await Promise.all([
      h.bets.ofRound(row.id),
      h.cards.inDealingOrder(row.id),
      h.bets.decisionsOfRound(row.id),
      h.bets.settlementsOfRound(row.id),
      h.cards.handsOfRound(row.id),
    ]);
    const stored: StoredRound = {
      roundId: row.id,
      game: row.game,
      shoeNumber: row.shoeNumber,
      roundNumber: row.roundNumber,
      bets: bets.map((b) => ({
        id: b.betId,
        playerId: b.playerId,
        betType: b.betType,
        spot: b.spot,
        amount: b.amount,
        currency: b.currency.trim(),
      })),
      cards: cards.map((c) => ({ slot: c.slot, card: c.card as CardCode })),
      decisions: decisions.map((d) => ({
        playerId: d.playerId,
        hand: d.hand,
        action: d.action,
        automatic: d.automatic,
        window: d.window,
      })),
      settlements: settlements.map((s) => ({
        betId: s.betId,
        playerId: s.playerId,
        betType: s.betType,
        spot: s.spot,
        stake: s.stake,
        returned: s.returned,
        net: s.net,
        outcome: s.outcome,
        roundedDown: s.roundedDown,
      })),
      hands: hands.map((h) => ({
        hand: h.hand,
        owner: h.owner,
        cards: h.cards as CardCode[],
        total: h.total,
        result: h.result,
      })),
    };
    return { stored, settlements, decisions };
  }
}

/** The round's game (GameDefinition): what of its rows its chain records. */
function definitionOf(row: ReplayRound): GameDefinition | undefined {
  return isGameKind(row.game) ? gameDefinition(row.game) : undefined;
}

/** The decisions rows to compare with the chain: those of a game that chains each one as stored. */
function chainedDecisionsOf(
  row: ReplayRound,
  decisions: DecisionRecord[],
): DecisionRecord[] | undefined {
  return definitionOf(row)?.chainsDecisionRows ? decisions : undefined;
}

/** A match (with how many settlements it checked) when nothing differs, else the mismatches. */
function verdictOf(
  base: { roundId: string; tableId: string; game: string },
  settlements: number,
  mismatches: ReplayMismatch[],
): RoundVerdict {
  return mismatches.length === 0
    ? { ...base, verdict: 'match', settlements }
    : { ...base, verdict: 'mismatch', mismatches };
}

/** A dealt card must be the card its raw reading decoded to (corrections aside). */
function decodedMismatches(rows: readonly CardReading[]): ReplayMismatch[] {
  return rows
    .filter((r) => r.decoded !== null && r.decoded !== r.card)
    .map((r) => ({ field: `card ${r.slot} reading`, stored: r.card, replayed: r.decoded }));
}
