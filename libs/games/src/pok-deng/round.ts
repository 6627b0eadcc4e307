import { CardCode, cardCode, parseCardCode } from '@studio/cards';
import { evaluateHand, formatScore, HandEvaluation, SpecialCombination } from './hand';
import { RoadmapEntry, roadmapEntry } from './roadmap';
import { POK_DENG_RULES, PokDengRules } from './rules';
import {
  BetOutcome,
  MoneyMovement,
  playerBetDeduction,
  settlePairBet,
  settlePlayerBet,
} from './settlement';

/**
 * One Pok Deng round as a pure state machine (games.md section 5):
 *
 *   betting open, cards dealt face down in the deal order (burn, P1..P5, Banker, P1..P5, Banker)
 *   -> betting closed -> reveal P1..P5, then the Banker -> every bet settled.
 *
 * Dealing and betting overlap: cards are scanned while betting is still open. The state is plain
 * JSON; every step returns the new state and effects, or a typed rejection (never throws).
 */

/** 1..playerHandCount for Player N, or the banker. */
export type HandId = number | 'banker';

export type DealSlot =
  | { readonly kind: 'burn' }
  | { readonly kind: 'hand'; readonly hand: HandId; readonly position: 1 | 2 };

export type BetSpot =
  | { readonly kind: 'player'; readonly hand: number }
  | { readonly kind: 'pair'; readonly hand: number };

export interface PokDengBet {
  readonly betId: string;
  readonly playerId: string;
  readonly spot: BetSpot;
  /** The bet in minor units; a Player N bet deducts this plus the deposit. */
  readonly amount: number;
  /** The bet's currency (absent: the table's only or default one); limits are in it. */
  readonly currency?: string;
}

export interface AcceptedBet extends PokDengBet {
  readonly deducted: number;
}

export interface BetSettlement extends MoneyMovement {
  readonly betId: string;
  readonly playerId: string;
  readonly spot: BetSpot;
  readonly amount: number;
  readonly outcome: BetOutcome;
}

export type RoundPhase =
  | 'betting'
  /** Betting closed; dealing may still be finishing. */
  | 'betting-closed'
  /** At least one hand revealed. */
  | 'revealing'
  | 'settled'
  | 'voided';

export interface PokDengRoundState {
  readonly rules: PokDengRules;
  readonly shoeNumber: number;
  readonly roundNumber: number;
  readonly phase: RoundPhase;
  /** The per-round burn card, face down; never revealed to players. */
  readonly burnCard: CardCode | null;
  /** Cards per hand: index 0..playerHandCount-1 for Player 1..N, the last index is the banker. */
  readonly hands: readonly (readonly CardCode[])[];
  /** Cards dealt this round including the burn card, 0..(2 × hands + 1). */
  readonly dealt: number;
  /** Hands revealed so far, in reveal order (Player 1..N, then the banker). */
  readonly revealed: number;
  readonly bets: readonly AcceptedBet[];
  /** Ids of bets taken back this round (never placed again: a bet id is used once). */
  readonly cancelledBetIds?: readonly string[];
  readonly settlements: readonly BetSettlement[] | null;
  readonly roadmap: RoadmapEntry | null;
  readonly voidReason: string | null;
}

export type PokDengInput =
  | { readonly type: 'card'; readonly card: CardCode }
  | { readonly type: 'place-bet'; readonly bet: PokDengBet }
  /** The platform takes the bet back while betting is open (only its own player's bet). */
  | { readonly type: 'cancel-bet'; readonly betId: string; readonly playerId: string }
  | { readonly type: 'close-betting' }
  | { readonly type: 'reveal-next' }
  | { readonly type: 'void'; readonly reason: string };

export interface RevealedHand {
  readonly hand: HandId;
  readonly cards: readonly CardCode[];
  readonly points: number;
  readonly combination: SpecialCombination | null;
  /** "7.4", "8": the score as the table shows it. */
  readonly score: string;
  readonly flush: boolean;
  readonly pair: boolean;
}

export type PokDengEffect =
  /** Hidden information: record it, never publish the card before the reveal (burn: never). */
  | {
      readonly type: 'card-dealt';
      readonly slot: DealSlot;
      readonly card: CardCode;
      readonly faceDown: true;
    }
  | { readonly type: 'all-cards-dealt' }
  | { readonly type: 'bet-accepted'; readonly bet: AcceptedBet }
  | { readonly type: 'bet-cancelled'; readonly bet: AcceptedBet }
  | { readonly type: 'betting-closed'; readonly bets: number }
  | { readonly type: 'hand-revealed'; readonly revealed: RevealedHand }
  | {
      readonly type: 'round-settled';
      readonly settlements: readonly BetSettlement[];
      readonly roadmap: RoadmapEntry;
    }
  | {
      readonly type: 'round-voided';
      readonly reason: string;
      readonly settlements: readonly BetSettlement[];
    };

export type PokDengRejection =
  | { readonly code: 'not-a-card'; readonly message: string }
  | { readonly code: 'no-card-expected'; readonly message: string }
  | { readonly code: 'betting-closed'; readonly message: string }
  | { readonly code: 'unknown-bet-spot'; readonly message: string }
  | { readonly code: 'invalid-amount'; readonly message: string }
  | { readonly code: 'wrong-currency'; readonly message: string }
  | { readonly code: 'below-table-minimum'; readonly message: string; readonly min: number }
  | { readonly code: 'above-table-maximum'; readonly message: string; readonly max: number }
  | { readonly code: 'duplicate-bet-id'; readonly message: string }
  | { readonly code: 'unknown-bet'; readonly message: string }
  | { readonly code: 'bet-already-cancelled'; readonly message: string }
  | { readonly code: 'betting-still-open'; readonly message: string }
  | { readonly code: 'cards-missing'; readonly message: string; readonly expected: DealSlot }
  | { readonly code: 'round-over'; readonly message: string };

export type PokDengStep =
  | { readonly state: PokDengRoundState; readonly effects: readonly PokDengEffect[] }
  | { readonly rejected: PokDengRejection };

export function newPokDengRound(
  shoeNumber: number,
  roundNumber: number,
  rules: PokDengRules = POK_DENG_RULES,
): PokDengRoundState {
  return {
    rules,
    shoeNumber,
    roundNumber,
    phase: 'betting',
    burnCard: null,
    hands: Array.from({ length: rules.playerHandCount + 1 }, () => []),
    dealt: 0,
    revealed: 0,
    bets: [],
    settlements: null,
    roadmap: null,
    voidReason: null,
  };
}

export function applyPokDengInput(state: PokDengRoundState, input: PokDengInput): PokDengStep {
  switch (input.type) {
    case 'card':
      return dealCard(state, input.card);
    case 'place-bet':
      return placeBet(state, input.bet);
    case 'cancel-bet':
      return cancelBet(state, input.betId, input.playerId);
    case 'close-betting':
      return closeBetting(state);
    case 'reveal-next':
      return revealNext(state);
    case 'void':
      return voidRound(state, input.reason);
  }
}

const handCount = (state: PokDengRoundState): number => state.rules.playerHandCount + 1;
const cardsPerRound = (state: PokDengRoundState): number => 1 + 2 * handCount(state);
const handId = (state: PokDengRoundState, index: number): HandId =>
  index === state.rules.playerHandCount ? 'banker' : index + 1;
const isOver = (state: PokDengRoundState): boolean =>
  state.phase === 'settled' || state.phase === 'voided';

/** The slot the next card goes to, or null when every card of the round has been dealt. */
export function expectedSlot(state: PokDengRoundState): DealSlot | null {
  if (isOver(state) || state.dealt >= cardsPerRound(state)) return null;
  if (state.dealt === 0) return { kind: 'burn' };
  const n = handCount(state);
  const index = (state.dealt - 1) % n;
  const position = state.dealt - 1 < n ? 1 : 2;
  return { kind: 'hand', hand: handId(state, index), position };
}

export function dealCard(state: PokDengRoundState, code: CardCode): PokDengStep {
  const parsed = parseCardCode(code);
  if (!parsed) return { rejected: { code: 'not-a-card', message: `Not a card code: "${code}"` } };
  const slot = expectedSlot(state);
  if (!slot) {
    return {
      rejected: { code: 'no-card-expected', message: 'Every card of this round has been dealt' },
    };
  }
  const card = cardCode(parsed);
  const dealt = state.dealt + 1;
  let next: PokDengRoundState;
  if (slot.kind === 'burn') {
    next = { ...state, burnCard: card, dealt };
  } else {
    const index = slot.hand === 'banker' ? state.rules.playerHandCount : slot.hand - 1;
    const hands = state.hands.map((h, i) => (i === index ? [...h, card] : h));
    next = { ...state, hands, dealt };
  }
  const effects: PokDengEffect[] = [{ type: 'card-dealt', slot, card, faceDown: true }];
  if (dealt === cardsPerRound(state)) effects.push({ type: 'all-cards-dealt' });
  return { state: next, effects };
}

/**
 * The limits of a bet in its currency (the table's per-currency limits), else the rules' own;
 * null for a currency the per-currency limits do not name (the table does not take it).
 */
function betLimits(
  rules: PokDengRules,
  currency: string | undefined,
): PokDengRules['limits'] | null {
  const byCurrency = rules.limitsByCurrency;
  if (currency === undefined || !byCurrency) return rules.limits;
  return Object.hasOwn(byCurrency, currency) ? byCurrency[currency] : null;
}

export function placeBet(state: PokDengRoundState, bet: PokDengBet): PokDengStep {
  if (state.phase !== 'betting') {
    return { rejected: { code: 'betting-closed', message: 'Betting is closed for this round' } };
  }
  const { spot, amount } = bet;
  if (
    typeof spot !== 'object' ||
    spot === null ||
    (spot.kind !== 'player' && spot.kind !== 'pair') ||
    !Number.isInteger(spot.hand) ||
    spot.hand < 1 ||
    spot.hand > state.rules.playerHandCount
  ) {
    return { rejected: { code: 'unknown-bet-spot', message: 'No such bet spot at this table' } };
  }
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    return {
      rejected: {
        code: 'invalid-amount',
        message: 'A bet is a positive whole number of minor units',
      },
    };
  }
  const inCurrency = betLimits(state.rules, bet.currency);
  if (inCurrency === null) {
    return {
      rejected: { code: 'wrong-currency', message: `This table takes no bet in ${bet.currency}` },
    };
  }
  const limits = inCurrency?.[spot.kind];
  if (limits && amount < limits.min) {
    return {
      rejected: { code: 'below-table-minimum', message: 'Bet below the table minimum', ...limits },
    };
  }
  if (limits && amount > limits.max) {
    return {
      rejected: { code: 'above-table-maximum', message: 'Bet above the table maximum', ...limits },
    };
  }
  if (state.bets.some((b) => b.betId === bet.betId) || state.cancelledBetIds?.includes(bet.betId)) {
    return { rejected: { code: 'duplicate-bet-id', message: `Bet ${bet.betId} already placed` } };
  }
  const deducted = spot.kind === 'player' ? playerBetDeduction(state.rules, amount) : amount;
  const accepted: AcceptedBet = { ...bet, spot: { ...spot }, deducted };
  return {
    state: { ...state, bets: [...state.bets, accepted] },
    effects: [{ type: 'bet-accepted', bet: accepted }],
  };
}

/**
 * Takes an accepted bet back while betting is open: it leaves the round (no settlement) and the
 * platform credits its deduction back. Another player's bet id is refused as unknown.
 */
export function cancelBet(state: PokDengRoundState, betId: string, playerId: string): PokDengStep {
  if (state.phase !== 'betting') {
    return { rejected: { code: 'betting-closed', message: 'Betting is closed for this round' } };
  }
  const bet = state.bets.find((b) => b.betId === betId && b.playerId === playerId);
  if (!bet) {
    if (state.cancelledBetIds?.includes(betId)) {
      return {
        rejected: { code: 'bet-already-cancelled', message: `Bet ${betId} was cancelled before` },
      };
    }
    return { rejected: { code: 'unknown-bet', message: `No bet ${betId} of ${playerId}` } };
  }
  return {
    state: {
      ...state,
      bets: state.bets.filter((b) => b !== bet),
      cancelledBetIds: [...(state.cancelledBetIds ?? []), betId],
    },
    effects: [{ type: 'bet-cancelled', bet }],
  };
}

export function closeBetting(state: PokDengRoundState): PokDengStep {
  if (state.phase !== 'betting') {
    return { rejected: { code: 'betting-closed', message: 'Betting is already closed' } };
  }
  return {
    state: { ...state, phase: 'betting-closed' },
    effects: [{ type: 'betting-closed', bets: state.bets.length }],
  };
}

/** The hand the next reveal shows (Player 1..N, then the banker), or null when all are shown. */
export function nextReveal(state: PokDengRoundState): HandId | null {
  return state.revealed < handCount(state) ? handId(state, state.revealed) : null;
}

/** Reveals the next hand; revealing the banker settles every bet of the round. */
export function revealNext(state: PokDengRoundState): PokDengStep {
  if (isOver(state)) {
    return { rejected: { code: 'round-over', message: `The round is ${state.phase}` } };
  }
  if (state.phase === 'betting') {
    return {
      rejected: {
        code: 'betting-still-open',
        message: 'Hands are revealed only after betting closes',
      },
    };
  }
  const missing = expectedSlot(state);
  if (missing) {
    return {
      rejected: {
        code: 'cards-missing',
        message: 'Every card must be dealt before the reveal',
        expected: missing,
      },
    };
  }
  const index = state.revealed;
  const revealed = revealedHand(state, index);
  const next: PokDengRoundState = { ...state, phase: 'revealing', revealed: index + 1 };
  const effects: PokDengEffect[] = [{ type: 'hand-revealed', revealed }];
  if (revealed.hand !== 'banker') return { state: next, effects };

  const settlements = settleRound(next);
  const roadmap = roadmapEntry(next.roundNumber, evaluations(next));
  effects.push({ type: 'round-settled', settlements, roadmap });
  return { state: { ...next, phase: 'settled', settlements, roadmap }, effects };
}

/** Cancels the round (supervisor): no winners, no losers, every bet refunded in full. */
export function voidRound(state: PokDengRoundState, reason: string): PokDengStep {
  if (isOver(state)) {
    return { rejected: { code: 'round-over', message: `The round is ${state.phase}` } };
  }
  const settlements: BetSettlement[] = state.bets.map((bet) => ({
    betId: bet.betId,
    playerId: bet.playerId,
    spot: bet.spot,
    amount: bet.amount,
    outcome: 'void-refund',
    deducted: bet.deducted,
    returned: bet.deducted,
    net: 0,
    ratio: null,
    roundedDown: { numerator: 0, denominator: 1 },
  }));
  return {
    state: { ...state, phase: 'voided', settlements, voidReason: reason },
    effects: [{ type: 'round-voided', reason, settlements }],
  };
}

/** Evaluations of every hand, players first then the banker (all cards must be dealt). */
function evaluations(state: PokDengRoundState): HandEvaluation[] {
  return state.hands.map((cards) => {
    const [a, b] = cards.map((c) => parseCardCode(c)!);
    return evaluateHand(a, b);
  });
}

function revealedHand(state: PokDengRoundState, index: number): RevealedHand {
  const cards = state.hands[index];
  const evaluation = evaluateHand(parseCardCode(cards[0])!, parseCardCode(cards[1])!);
  return {
    hand: handId(state, index),
    cards,
    points: evaluation.points,
    combination: evaluation.combination,
    score: formatScore(evaluation.score),
    flush: evaluation.flush,
    pair: evaluation.pair,
  };
}

function settleRound(state: PokDengRoundState): BetSettlement[] {
  const all = evaluations(state);
  const banker = all[state.rules.playerHandCount];
  return state.bets.map((bet) => {
    const player = all[bet.spot.hand - 1];
    const money =
      bet.spot.kind === 'player'
        ? settlePlayerBet(state.rules, bet.amount, player, banker)
        : settlePairBet(state.rules, bet.amount, player);
    return {
      betId: bet.betId,
      playerId: bet.playerId,
      spot: bet.spot,
      amount: bet.amount,
      ...money,
    };
  });
}
