import type { GameKind } from '@studio/contracts';
import type { CardCode } from '@studio/cards';
import type { ShoeRules } from '@studio/games/shoe';

/**
 * The one shape the table runtime needs from a game. Each game's pure engine has its own inputs
 * and effects; an adapter translates them into these records, which the runtime persists in one
 * transaction and then announces. Adapters are pure too: no I/O, no clock, no randomness.
 */

export type Visibility = 'public' | 'restricted';

/** Something that happened in a round. Restricted events (face-down cards) are never published. */
export interface RoundEvent {
  type: string;
  visibility: Visibility;
  payload: Record<string, unknown>;
}

export function publicEvent(type: string, payload: Record<string, unknown>): RoundEvent {
  return { type, visibility: 'public', payload };
}

export function restrictedEvent(type: string, payload: Record<string, unknown>): RoundEvent {
  return { type, visibility: 'restricted', payload };
}

export interface TimerRequest {
  /** e.g. `betting`, `decision`: a new request replaces a pending timer of the same name. */
  name: string;
  durationMs: number;
  /** Echoed back when the timer fires so a stale timer is recognised. */
  token: number;
}

export interface CardRecord {
  slot: string;
  card: CardCode;
  faceDown: boolean;
}

export interface BetRecord {
  betId: string;
  playerId: string;
  commandId?: string;
  betType: string;
  spot: string | null;
  amount: number;
  deducted: number;
  /** The bet's currency (filled by the table from the player's bet; the games leave it out). */
  currency?: string;
}

export interface DecisionRecord {
  playerId: string;
  hand: string | null;
  action: string;
  automatic: boolean;
  commandId?: string;
  /** The decision window it was taken in, for a game that numbers its windows. */
  window?: number;
}

export interface SettlementRecord {
  betId: string | null;
  playerId: string;
  betType: string;
  spot: string | null;
  stake: number;
  returned: number;
  net: number;
  outcome: string;
  /** Fraction of a minor unit dropped by rounding the payout down: `0`, or `1/2` for 3:2 on 5. */
  roundedDown: string;
  /** The bet's currency (filled by the table from the player's bet; the games leave it out). */
  currency?: string;
}

/** One hand of a finished round, as auditors read it back. */
export interface HandRecord {
  /** `player-3`, `banker`, `dealer`, `seat-2/1`, `node-4/2` ... */
  hand: string;
  /** Whose hand: a seat's player, a bot, or null for the dealer / banker / shared hands. */
  owner: string | null;
  cards: CardCode[];
  /** The hand's value as the game counts it: `soft 17`, `bust 24`, `7.4`. */
  total: string;
  /** How the hand ended against the dealer or banker, when the game says. */
  result: string | null;
}

export interface AdapterStep<S> {
  state: S;
  events: RoundEvent[];
  timers?: TimerRequest[];
  cancelTimers?: string[];
  cards?: CardRecord[];
  /** Slots whose face-down cards are now face up. */
  reveals?: string[];
  bets?: BetRecord[];
  decisions?: DecisionRecord[];
  settlements?: SettlementRecord[];
  /**
   * Bets taken back by their platform while betting is open (outcome `cancelled`, returned =
   * stake): written like settlements, but announced by the game's own BetCancelled event rather
   * than in BetsSettled (a cancelled bet is not part of the round's settlement).
   */
  cancellations?: SettlementRecord[];
}

export interface AdapterRejection {
  code: string;
  message: string;
}

export function rejection(code: string, message: string): { rejected: AdapterRejection } {
  return { rejected: { code, message } };
}

export type AdapterResult<S> = AdapterStep<S> | { rejected: AdapterRejection };

/**
 * Many commands of one kind applied in one step, with the same outcome as applying them one by
 * one: `results[i]` is null when item i was accepted, else why it was refused.
 */
export interface AdapterBatchStep<S> {
  step: AdapterStep<S>;
  results: Array<AdapterRejection | null>;
}

export interface RoundStart {
  roundId: string;
  shoeNumber: number;
  roundNumber: number;
}

export interface BetCommand {
  betId: string;
  /** When given, the bet is only for this round (a late command for an earlier round is refused). */
  roundId?: string;
  commandId?: string;
  playerId: string;
  /** Game-specific bet type: `main`, `pairs`, `bust-bonus`, `player`, `pair`, ... */
  betType: string;
  /** Where the bet goes when the game has spots or seats (`1`..`5`, seat `3`). */
  spot?: string;
  amount: number;
  /** Side bets placed together with a main bet (Infinite Blackjack), by bet type. */
  sideBets?: Record<string, number>;
  /** The bet's currency; absent: the table's default currency. */
  currency?: string;
}

export interface DecisionCommand {
  commandId?: string;
  /** When given, the decision is only for this round. */
  roundId?: string;
  playerId: string;
  action: string;
  seat?: string;
}

/** A bet as it was stored when it was accepted (its first row), found for a cancellation. */
export interface PlacedBetRef {
  /** The bet row's id (the game's own id for the bet, e.g. `<round>/<player>/main`). */
  betId: string;
  roundId: string;
  betType: string;
  spot: string | null;
  /** The betId its PlaceBet answer named, and that PlaceBet's command id (what the platform knows). */
  answeredBetId: string | null;
  commandId: string | null;
}

/** A platform takes back its player's accepted bet while betting is open (CancelBet). */
export interface CancelCommand {
  commandId?: string;
  /** The player key; the bet is the player's own (the lookup matched both). */
  playerId: string;
  bet: PlacedBetRef;
}

/**
 * The announcement of a cancelled bet, on its platform's private topic only (BetCancelled is
 * private): the bet as the platform knows it (the betId of its answer and its PlaceBet's command
 * id), each part taken back (the main bet and its side bets) and what the platform credits back.
 */
export function betCancelledEvent(
  cancel: CancelCommand,
  rows: readonly SettlementRecord[],
): RoundEvent {
  const bet = cancel.bet;
  return publicEvent('BetCancelled', {
    betId: bet.answeredBetId ?? bet.betId,
    ...(bet.commandId ? { betCommandId: bet.commandId } : {}),
    playerId: cancel.playerId,
    betType: bet.betType,
    ...(bet.spot !== null ? { spot: bet.spot } : {}),
    parts: rows.map((r) => ({ betType: r.betType, amount: r.stake })),
    returned: rows.reduce((sum, r) => sum + r.returned, 0),
  });
}

/** The row of one part of a cancelled bet: its whole stake goes back, nothing won or lost. */
export function cancelledRow(
  playerId: string,
  betId: string,
  betType: string,
  spot: string | null,
  amount: number,
): SettlementRecord {
  return {
    betId,
    playerId,
    betType,
    spot,
    stake: amount,
    returned: amount,
    net: 0,
    outcome: 'cancelled',
    roundedDown: '0',
  };
}

export interface ExpectedCard {
  /** Stable id of the slot within the round, e.g. `player-2/1`, `dealer-hole`. */
  slot: string;
  /** For the dealer: where the card goes, in words. */
  label: string;
}

export interface GameAdapter<S = unknown> {
  readonly game: GameKind;
  /** Shoe rules (decks, burn values, side-bet cut-offs by round). */
  readonly shoeRules: ShoeRules;
  /**
   * True for games the service deals itself from a shuffled virtual shoe (the practice table):
   * the table machine draws each expected card from the recorded order instead of a scanner.
   */
  readonly dealsOwnCards?: boolean;
  /**
   * Opens a round. Games whose table outlives a round (Lux seats, with their round of grace)
   * set `keepsStateBetweenRounds` and receive the previous round's final state.
   */
  startRound(start: RoundStart, previous?: S): AdapterResult<S>;
  readonly keepsStateBetweenRounds?: boolean;
  expectedCard(state: S): ExpectedCard | null;
  card(state: S, card: CardCode): AdapterResult<S>;
  placeBet(state: S, bet: BetCommand, roundOfShoe: number): AdapterResult<S>;
  decide(state: S, decision: DecisionCommand): AdapterResult<S>;
  /**
   * Takes back an accepted bet while betting is open (the table checked that betting is open
   * and the bet is of this round): the game forgets it, so it is neither dealt for nor settled,
   * and returns its `cancellations` rows and a BetCancelled event. A bet the game no longer holds
   * is refused (`unknown-bet`), one cancelled before `bet-already-cancelled`.
   */
  cancelBet(state: S, cancel: CancelCommand): AdapterResult<S>;
  /**
   * A bet the table refused before the game saw it (e.g. below the table minimum) may still count
   * in the round: in Blackjack Lux a seated player whose seat bet is refused loses the seat when
   * betting closes. Null (or absent): the refusal changes nothing.
   */
  betRefused?(state: S, bet: BetCommand): AdapterResult<S> | null;
  /**
   * Optional batch forms of placeBet / decide for games with many players per round: one step
   * (one copy of the round's columns) for a whole window's worth of commands. Betting (for bets)
   * or a decision window (for decisions) must be open; the table checks that first.
   */
  placeBets?(state: S, bets: readonly BetCommand[], roundOfShoe: number): AdapterBatchStep<S>;
  decideMany?(state: S, decisions: readonly DecisionCommand[]): AdapterBatchStep<S>;
  closeBetting(state: S): AdapterResult<S>;
  timerFired(state: S, name: string, token: number): AdapterResult<S>;
  /** A step the table takes by itself when nothing else is awaited (reveal the next hand...). */
  autoStep(state: S): AdapterResult<S> | null;
  voidRound(state: S, reason: string): AdapterResult<S>;
  /** Every hand of a finished (or voided) round, for the hands table. */
  hands?(state: S): HandRecord[];
  /** Replaces a face-down card before it is revealed (supervisor correction of a mis-scan). */
  correctCard?(state: S, slot: string, card: CardCode): AdapterResult<S>;
  phase(state: S): string;
  isBettingOpen(state: S): boolean;
  isRoundOver(state: S): boolean;
  /** What anyone may see of the round right now (no face-down card). */
  publicView(state: S): unknown;
}
