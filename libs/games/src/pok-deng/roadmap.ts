import { compareHands, HandEvaluation } from './hand';

export type RoadmapResult = 'win' | 'loss' | 'tie';

/** One Player hand's line in the roadmap (the game's history display). */
export interface RoadmapMark {
  /** Player 1..N. */
  readonly hand: number;
  /** From the Player hand's side against the banker. */
  readonly result: RoadmapResult;
  /** Both cards of the Player hand had the same suit. */
  readonly flush: boolean;
  /** Both cards of the Player hand had the same rank. */
  readonly pair: boolean;
}

export interface RoadmapEntry {
  readonly roundNumber: number;
  readonly hands: readonly RoadmapMark[];
}

/** `hands`: every Player hand's evaluation in order, then the banker's last. */
export function roadmapEntry(roundNumber: number, hands: readonly HandEvaluation[]): RoadmapEntry {
  const banker = hands[hands.length - 1];
  const results: Record<-1 | 0 | 1, RoadmapResult> = { 1: 'win', 0: 'tie', [-1]: 'loss' };
  return {
    roundNumber,
    hands: hands.slice(0, -1).map((player, i) => ({
      hand: i + 1,
      result: results[compareHands(player, banker)],
      flush: player.flush,
      pair: player.pair,
    })),
  };
}
