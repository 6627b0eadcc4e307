import type { CancelBet, Decide, PlaceBet } from './generated/messages';

/** A command's HTTP body: the command without what the path says (`tableId`) or implies. */
type HttpBody<C> = Omit<C, 'type' | 'schemaVersion' | 'tableId' | 'commandId'> & {
  commandId?: string;
};

export type PlaceBetBody = HttpBody<PlaceBet>;
export type DecideBody = HttpBody<Decide>;
/** A cancellation's body: the path names the bet (by betId or by its PlaceBet's commandId). */
export type CancelBetBody = Omit<HttpBody<CancelBet>, 'betId' | 'betCommandId'>;

export interface Accepted {
  accepted: true;
  duplicate?: boolean;
  [produced: string]: unknown;
}

export interface HttpError {
  error: string;
  message: string;
  pointer?: string;
}

/** One line of the settlement report: a UTC day, a table and a currency (minor units). */
export interface SettlementReportLine {
  day: string;
  tableId: string;
  currency: string;
  rounds: number;
  bets: number;
  stake: number;
  payout: number;
  refunds: number;
  cancellations: number;
  cancelledStake: number;
  net: number;
}

/** GET /platform/reports/settlements (docs/wallet-model.md, rule 7): reconcile once `final`. */
export interface SettlementReport {
  platformId: string;
  from: string;
  to: string;
  final: boolean;
  openRounds: number;
  openRoundsByTable: Array<{ tableId: string; rounds: number }>;
  lines: SettlementReportLine[];
}

/** GET /platform/rounds/:roundId: a round as this platform may see it (a player's dispute). */
export interface PlatformRound {
  roundId: string;
  tableId: string;
  game: string;
  status: 'in-progress' | 'paused' | 'completed' | 'voided';
  startedAt: string;
  endedAt: string | null;
  bets: Array<{
    betId: string;
    playerId: string;
    commandId: string | null;
    betType: string;
    spot: string | null;
    amount: number;
    deducted: number;
    currency: string;
    status: string;
    placedAt: string;
  }>;
  decisions: Array<{
    playerId: string;
    hand: string | null;
    action: string;
    automatic: boolean;
    commandId: string | null;
    decidedAt: string;
  }>;
  settlements: Array<{
    betId: string;
    playerId: string;
    betType: string;
    spot: string | null;
    stake: number;
    returned: number;
    net: number;
    currency: string;
    outcome: string;
    settledAt: string;
  }>;
  /** In dealing order; a card still face down by its slot only. */
  cards: Array<{ slot: string; card?: string; faceDown?: true }>;
  hands: Array<{
    hand: string;
    owner: string | null;
    /** A card never shown at the table (a voided round's) is null, and the hand's total with it. */
    cards: Array<string | null>;
    total: string | null;
    result: string | null;
  }>;
}
