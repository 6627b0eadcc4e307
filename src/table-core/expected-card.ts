import { ingest, IngestionState } from '@studio/scanner-protocol';
import type { GameAdapter } from '../games/game-adapter';
import { runningPhase, TableState } from './table-state';

/** The card the dealer must put where, for consoles and the scanner's expectation. */
export function expectedCard(
  adapter: GameAdapter,
  state: TableState,
): { slot: string; label: string } | null {
  const shoe = state.shoe?.state;
  if (!shoe) return null;
  if (shoe.phase === 'burning') {
    if (shoe.burn.shownCard === null) {
      return { slot: 'shoe-burn/shown', label: 'New shoe: draw the first card and show it' };
    }
    const done = shoe.burn.burntCards.length;
    return {
      slot: `shoe-burn/${done + 1}`,
      label: `Burn card ${done + 1} of ${shoe.burn.toBurn ?? 0}, face down`,
    };
  }
  const phase = runningPhase(state);
  return phase.kind === 'in-round' ? adapter.expectedCard(phase.round.engine) : null;
}

/** An ingestion step that cannot be refused in this use (or is a no-op when it is). */
export function ingestOk(
  state: IngestionState,
  input: Parameters<typeof ingest>[1],
): IngestionState {
  const result = ingest(state, input);
  return 'rejected' in result ? state : result.state;
}
