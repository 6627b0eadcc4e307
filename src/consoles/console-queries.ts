import { PlayerRef, playerOfKey } from '../common/player-key';
import type { BetRecord, SettlementRecord } from '../history/reader/bets.reader';
import { historyReader, HistorySource } from '../history/reader/history-reader';
import { roundOf, TableState } from '../table-core/table-machine';
import type { CardsOf, StoredCard } from './console-cards';

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
  history: HistorySource,
  state: TableState | undefined,
): Promise<StoredCard[]> {
  const source = consoleCardsSource(state);
  const cards = historyReader(history).cards;
  if (source.of === 'round' || source.of === 'last-round') return cards.inDealingOrder(source.id);
  if (source.of === 'burn') return cards.burnOfShoe(source.id);
  return [];
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
  refunds?: Refund[];
}

export interface Refund {
  /** The player's key as stored (`casino-a:alice`; a `default` player's bare id). */
  playerId: string;
  /** Who that is: the platform and the platform's own playerId, shown apart. */
  player: PlayerRef;
  betType: string;
  spot: string | null;
  /** What the settlement staked: everything deducted for the bet. */
  stake: number;
  /**
   * What the stake is made of: the bet itself, the deposit taken with it (a Pok Deng Player
   * bet's equal amount) and what doubles and splits added; null when no bet row matches.
   */
  parts: { bet: number; deposit: number; added: number } | null;
  returned: number;
  /** The refund's currency, as its settlement row stores it. */
  currency: string;
}

/**
 * The supervisors' action log: pauses, resumes, voids (pending ones too), corrections and shoe
 * ends as recorded in supervisor_actions, newest first, with the refunds of each applied void
 * read from its round's settlements. No store of its own: the history is the record.
 */
export async function loadActionLog(
  history: HistorySource,
  filter: { tableId?: string; limit: number },
): Promise<ActionLogEntry[]> {
  const reader = historyReader(history);
  const rows = await reader.supervisorActions.log(filter);
  const voided = [
    ...new Set(
      rows
        .filter((r) => r.action === 'void' && r.status === 'applied' && r.roundStatus === 'voided')
        .map((r) => r.roundId!),
    ),
  ];
  const settlements = await reader.bets.settlementsOfRounds(voided);
  // The bets say what each stake is made of (a Pok Deng Player bet deducts twice its amount)
  // and in which currency it was.
  const betsOf = new Map(
    await Promise.all(voided.map(async (id) => [id, await reader.bets.ofRound(id)] as const)),
  );
  const refundsOf = (roundId: string): Refund[] => {
    const bets = betsOf.get(roundId) ?? [];
    const byId = new Map(bets.map((b) => [b.betId, b]));
    return settlements
      .filter((s) => s.roundId === roundId)
      .map((s) => refund(s, s.betId === null ? undefined : byId.get(s.betId)));
  };
  return rows.map(({ roundStatus: _status, ...r }) => ({
    ...r,
    // Only the void that was applied refunded the round: a request that lapsed or was replaced
    // by another one for the same round must not show those refunds a second time.
    ...(r.action === 'void' && r.status === 'applied' && r.roundId && betsOf.has(r.roundId)
      ? { refunds: refundsOf(r.roundId) }
      : {}),
  }));
}

function refund(s: SettlementRecord, bet: BetRecord | undefined): Refund {
  return {
    playerId: s.playerId,
    player: playerOfKey(s.playerId),
    betType: s.betType,
    spot: s.spot,
    stake: s.stake,
    parts: bet
      ? { bet: bet.amount, deposit: bet.deducted - bet.amount, added: s.stake - bet.deducted }
      : null,
    returned: s.returned,
    currency: s.currency,
  };
}
