import { CardCode } from '@studio/cards';
import { handTotal } from '../core/hand';
import { currentHandIndex, legalActions, PlayerAction, PlayerHand } from '../core/player-hands';
import { indexOfPlayer } from './player-index';
import { INFINITE_SIDE_BETS, InfinitePhase, InfiniteSideBet, InfiniteState } from './state';

/**
 * What one player (or a platform on their behalf) may see. The dealer's hole card appears only
 * once it is revealed at the table; until then the view carries the up card alone.
 */
export interface InfinitePlayerView {
  readonly roundId: string | null;
  readonly phase: InfinitePhase;
  readonly window: number;
  readonly dealer: { readonly cards: readonly CardCode[]; readonly total: number | null };
  readonly commonDraws: readonly CardCode[];
  readonly player: {
    readonly playerId: string;
    readonly main: number;
    readonly insurance: number;
    readonly side: Readonly<Record<InfiniteSideBet, number>>;
    readonly hands: readonly { cards: readonly CardCode[]; stake: number; total: number }[];
    readonly currentHand: number;
    readonly legalActions: readonly PlayerAction[];
  } | null;
}

export function infiniteVisibleDealerCards(state: InfiniteState): CardCode[] {
  const { up, hole, holeRevealed, draws } = state.dealer;
  if (!up) return [];
  return holeRevealed && hole ? [up, hole, ...draws] : [up];
}

export function infinitePlayerView(state: InfiniteState, playerId: string): InfinitePlayerView {
  const dealerVisible = infiniteVisibleDealerCards(state);
  const i = indexOfPlayer(state.players.ids, playerId);
  const base = {
    roundId: state.roundId,
    phase: state.phase,
    window: state.window,
    dealer: {
      cards: dealerVisible,
      total: dealerVisible.length ? handTotal(dealerVisible).total : null,
    },
    commonDraws: state.commonDraws,
  };
  if (i < 0) return { ...base, player: null };
  const p = state.players;
  const main = p.main[i];
  const node = state.nodes[p.node[i]] ?? null;
  const hands: PlayerHand[] = node ? [...node.hands] : [];
  const current = node ? currentHandIndex(node) : -1;
  const side = {} as Record<InfiniteSideBet, number>;
  for (const k of INFINITE_SIDE_BETS) side[k] = p.side[k][i];
  return {
    ...base,
    player: {
      playerId,
      main,
      insurance: p.insurance[i],
      side,
      hands: hands.map((h) => ({
        cards: h.cards,
        stake: h.stake * main,
        total: handTotal(h.cards).total,
      })),
      currentHand: current,
      legalActions:
        state.phase === 'deciding' && node && current >= 0
          ? legalActions(node.hands[current], { handCount: node.hands.length }, state.config.rules)
          : [],
    },
  };
}
