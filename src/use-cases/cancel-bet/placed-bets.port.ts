import type { PlacedBetRef } from '../../games/game-adapter';

/** How a platform names the bet it cancels: the betId its answer gave, or its PlaceBet's command id. */
export type BetReference = { betId: string } | { betCommandId: string };

/** A stored bet as a cancellation needs it: where it is, and whether it was cancelled already. */
export type PlacedBet = PlacedBetRef & { status: string };

/**
 * The bets a platform's players placed, as the cancel use case looks one up before its table sees
 * the cancellation (the engines know bets by player and seat, not by the id an answer named). Only
 * the player's own bets at that table are found: another platform's bet is not there to find.
 */
export interface PlacedBets {
  find(
    tableId: string,
    playerKey: string,
    reference: BetReference,
    roundId?: string,
  ): Promise<PlacedBet | null>;
}

/** Injection token of the PlacedBets port (the history's bets). */
export const PLACED_BETS = Symbol('PlacedBets');
