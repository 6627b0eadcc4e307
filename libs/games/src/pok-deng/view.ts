import { CardCode, parseCardCode } from '@studio/cards';
import { evaluateHand, formatScore, SpecialCombination } from './hand';
import { BetSettlement, HandId, PokDengRoundState, RoundPhase } from './round';
import { RoadmapEntry } from './roadmap';

export interface HandView {
  readonly hand: HandId;
  /** Cards dealt face down so far; their identity is absent until the hand is revealed. */
  readonly faceDownCards: number;
  /** Present only once the hand is revealed at the table. */
  readonly revealed: {
    readonly cards: readonly CardCode[];
    readonly points: number;
    readonly combination: SpecialCombination | null;
    readonly score: string;
    readonly flush: boolean;
    readonly pair: boolean;
  } | null;
}

/** What a player (or platform, or bot) may see of a round: never a card before its reveal. */
export interface PokDengPlayerView {
  readonly shoeNumber: number;
  readonly roundNumber: number;
  readonly phase: RoundPhase;
  readonly bettingOpen: boolean;
  /** Whether the round's burn card is out; the burn card itself is never shown. */
  readonly burnCardDealt: boolean;
  readonly hands: readonly HandView[];
  readonly settlements: readonly BetSettlement[] | null;
  readonly roadmap: RoadmapEntry | null;
}

/**
 * Builds the view from the round state. With `playerId`, settlements are limited to that
 * player's bets (other players' stakes are not theirs to see).
 */
export function playerView(state: PokDengRoundState, playerId?: string): PokDengPlayerView {
  const last = state.hands.length - 1;
  return {
    shoeNumber: state.shoeNumber,
    roundNumber: state.roundNumber,
    phase: state.phase,
    bettingOpen: state.phase === 'betting',
    burnCardDealt: state.burnCard !== null,
    hands: state.hands.map((cards, index) => {
      const hand: HandId = index === last ? 'banker' : index + 1;
      if (index >= state.revealed) return { hand, faceDownCards: cards.length, revealed: null };
      const e = evaluateHand(parseCardCode(cards[0])!, parseCardCode(cards[1])!);
      return {
        hand,
        faceDownCards: 0,
        revealed: {
          cards: [...cards],
          points: e.points,
          combination: e.combination,
          score: formatScore(e.score),
          flush: e.flush,
          pair: e.pair,
        },
      };
    }),
    settlements:
      state.settlements &&
      state.settlements.filter((s) => playerId === undefined || s.playerId === playerId),
    roadmap: state.roadmap,
  };
}
