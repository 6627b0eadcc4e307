import type { CardCode } from '@studio/cards';
import type { ScannerReading } from '@studio/scanner-protocol';
import type { BetCommand, DecisionCommand, PlacedBetRef } from '../games/game-adapter';
import type { TableState } from './table-state';
import type { TableWrites } from './table-writes';

/** What a scanner reports: applied to the table's expected card. */
export type ReadingInput = { type: 'reading'; readingId: string | null; reading: ScannerReading };

/**
 * A platform takes back its player's bet. The bet was looked up among the platform's own stored
 * bets before the table sees it (by the id its answer named, or the PlaceBet's command id):
 * `bet` is null when the platform has no such bet (never existed, or another platform's).
 */
export interface CancelBetInput {
  commandId?: string;
  /** The player key of the platform's player who cancels. */
  playerId: string;
  /** How the platform named the bet (its betId, or its PlaceBet's command id), for the answer. */
  reference: string;
  bet: (PlacedBetRef & { status: string }) | null;
}

/** What a casino platform asks for. */
export type CommandInput =
  | { type: 'bet'; bet: BetCommand }
  | { type: 'decide'; decision: DecisionCommand }
  | { type: 'cancel-bet'; cancel: CancelBetInput };

/** What a dealer or supervisor does at the table. */
export type SupervisionInput =
  | { type: 'close-betting'; by: string }
  | { type: 'cut-card'; by: string }
  | { type: 'pause'; by: string; reason: string }
  | { type: 'resume'; by: string }
  /**
   * Voids the round at once (second-supervisor approval switched off). `roundId`, when given, is
   * the round the supervisor meant: the void is refused (`round-changed`) if another is in play.
   */
  | { type: 'void'; by: string; reason: string; roundId?: string }
  /** Asks for a void that a different supervisor must approve; `requestId` names its record. */
  | { type: 'request-void'; requestId: string; by: string; reason: string; roundId?: string }
  | { type: 'approve-void'; requestId: string; by: string }
  | {
      type: 'correct-card';
      by: string;
      slot: string;
      card: string;
      reason: string;
      roundId?: string;
    }
  | { type: 'end-shoe'; by: string; reason: string };

/** Time passing: the first start, deadlines, and the rescan clock. */
export type TimeInput =
  { type: 'start' } | { type: 'timer'; name: string; token: number } | { type: 'tick' };

export type TableInput = ReadingInput | CommandInput | SupervisionInput | TimeInput;

/** The answer to one command of a batch. */
export type ItemResult =
  | { accepted: true; reply: Record<string, unknown> }
  | { accepted: false; code: string; message: string };

export interface MachineContext {
  now: number;
  newId(): string;
  /**
   * A freshly shuffled shoe for tables whose game deals from a service-shuffled virtual shoe
   * (cryptographically secure Fisher-Yates at the runtime's edge; injected so the machine stays
   * pure and tests deterministic).
   */
  shuffle?(cards: readonly CardCode[]): CardCode[];
}

export interface MachineRejection {
  code: string;
  message: string;
}

export interface MachineOutcome {
  state: TableState;
  writes: TableWrites;
  /** Set when the input was refused; writes may still record it (a rejected reading is kept). */
  rejection?: MachineRejection;
  /** Answer for the caller of an accepted command. */
  reply?: Record<string, unknown>;
}

/**
 * The combined outcome of the first `results.length` commands of a batch, to be committed as one
 * transition. The caller submits the rest again from the new state.
 */
export interface BatchOutcome {
  outcome: MachineOutcome;
  results: ItemResult[];
}
