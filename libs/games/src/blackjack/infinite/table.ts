import {
  DEFAULT_INFINITE_CONFIG,
  InfiniteConfig,
  InfinitePlayerColumns,
  InfiniteSideBet,
  InfiniteState,
} from './state';

/**
 * A new table, and the empty shapes a round starts from: the per-player columns and a node of
 * the decision trie without children.
 */

export const emptySide = <T>(make: () => T): Record<InfiniteSideBet, T> =>
  ({
    pairs: make(),
    'bust-bonus': make(),
    'lucky-trio': make(),
    'poker-trio': make(),
  }) as Record<InfiniteSideBet, T>;

const emptyColumns = (): InfinitePlayerColumns => ({
  ids: [],
  main: [],
  insurance: [],
  side: emptySide(() => []),
  node: [],
  pending: [],
});

/** Child node per action code: none yet. */
export const NO_CHILDREN: readonly number[] = [-1, -1, -1, -1, -1];

export function newInfiniteTable(config: Partial<InfiniteConfig> = {}): InfiniteState {
  return {
    game: 'infinite-blackjack',
    config: { ...DEFAULT_INFINITE_CONFIG, ...config },
    phase: 'idle',
    roundId: null,
    roundOfShoe: 0,
    window: 0,
    dealt: 0,
    playerCards: [],
    dealer: { up: null, hole: null, holeRevealed: false, draws: [] },
    peeked: false,
    commonDraws: [],
    cardCounts: {},
    players: emptyColumns(),
    nodes: [],
    sideTotals: emptySide(() => 0),
    settlement: null,
    voidReason: null,
  };
}

/** The decisions that lead from the root to a node, e.g. ['split', 'hit', 'stand']. */
export function infiniteNodePath(state: InfiniteState, id: number): string[] {
  const path: string[] = [];
  for (let k = id; k > 0; k = state.nodes[k].parent) path.unshift(state.nodes[k].action as string);
  return path;
}
