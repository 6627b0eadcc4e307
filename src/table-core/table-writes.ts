import type { CardCode } from '@studio/cards';
import type {
  BetRecord,
  CardRecord,
  DecisionRecord,
  HandRecord,
  RoundEvent,
  SettlementRecord,
} from '../games/game-adapter';

export interface SupervisorActionWrite {
  action: string;
  reason: string | null;
  actor: string;
  roundId: string | null;
  details: Record<string, unknown>;
  /** A void request: its row is inserted with this id as pending-approval. */
  pendingRequestId?: string;
  /** Set when this applies a pending request: that row becomes applied, approved by this user. */
  approval?: { requestId: string; approvedBy: string };
}

/** Rows the runtime writes in the transition's transaction. */
export interface TableWrites {
  events: Array<RoundEvent & { roundId: string | null; actor?: string }>;
  newShoe?: { id: string; shoeNumber: number; deckCount: number };
  finishShoe?: { id: string; reason: string };
  newRound?: { id: string; shoeId: string; shoeNumber: number; roundNumber: number };
  roundStatus?: {
    id: string;
    status: 'in-progress' | 'paused' | 'completed' | 'voided';
    phase: string;
    ended: boolean;
    voidReason?: string;
    finalState?: unknown;
  };
  cards: Array<CardRecord & { roundId: string | null; shoeId: string; readingId: string | null }>;
  corrections: Array<{ slot: string; roundId: string | null; card: CardCode; reason: string }>;
  reveals: Array<{ roundId: string; slot: string }>;
  bets: Array<BetRecord & { roundId: string }>;
  decisions: Array<DecisionRecord & { roundId: string }>;
  settlements: Array<SettlementRecord & { roundId: string }>;
  /** Every hand of a round that ended in this transition. */
  hands?: { roundId: string; hands: HandRecord[] };
  supervisorAction?: SupervisorActionWrite;
  /** Void requests still pending when their round ended in this transition. */
  lapsedVoidRequests?: { roundId: string; requestIds: string[] };
  readingOutcome?: { readingId: string; outcome: string; detail: Record<string, unknown> };
}

/**
 * The reading id a table's machine gets for a reading not stored yet: the transition that applies
 * it writes the reading's row in the same commit, and the rows that name it get the row's id.
 */
export const UNSTORED_READING = 'unstored';

export function emptyWrites(): TableWrites {
  return {
    events: [],
    cards: [],
    corrections: [],
    reveals: [],
    bets: [],
    decisions: [],
    settlements: [],
  };
}

/** Writes that happen at most once per transition (exported for merging) (round or shoe changes, one supervisor act). */
export const SINGLE_WRITES = [
  'newShoe',
  'finishShoe',
  'newRound',
  'roundStatus',
  'hands',
  'supervisorAction',
  'lapsedVoidRequests',
  'readingOutcome',
] as const;

export const LIST_WRITES = [
  'events',
  'cards',
  'corrections',
  'reveals',
  'bets',
  'decisions',
  'settlements',
] as const;

/** Whether a transition has anything to commit besides its new state. */
export function hasWrites(writes: TableWrites): boolean {
  return (
    LIST_WRITES.some((key) => writes[key].length > 0) ||
    SINGLE_WRITES.some((key) => writes[key] !== undefined)
  );
}
