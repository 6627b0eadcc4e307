import type { TableDefinition } from '../config/tables-config';
import { pauseOf, roundOf } from '../table-core/table-machine';
import type { TableRuntime } from './table-runtime';

/**
 * What a console shows of a table. Face-down cards appear only in the supervisor's view (they are
 * needed to correct a mis-scan); the dealer's view, like the platforms', never carries them.
 */
export function tableView(
  table: TableDefinition,
  runtime: TableRuntime | undefined,
  privileged: boolean,
) {
  const base = { tableId: table.id, name: table.name, game: table.game, currency: table.currency };
  if (!runtime) return { ...base, driven: false };
  const state = runtime.snapshot;
  const adapter = runtime.machine.adapter;
  const slot = state.ingestion.slot;
  const round = roundOf(state);
  const pause = pauseOf(state);
  return {
    ...base,
    driven: true,
    shoe: state.shoe
      ? {
          id: state.shoe.id,
          number: state.shoe.state.shoeNumber,
          phase: state.shoe.state.phase,
          roundNumber: state.shoe.state.roundNumber,
          lastRoundNumber: state.shoe.state.lastRoundNumber,
          cardsDrawn: state.shoe.state.cardsDrawn,
        }
      : null,
    round: round
      ? {
          id: round.id,
          number: round.roundNumber,
          phase: adapter.phase(round.engine),
          bettingOpen: adapter.isBettingOpen(round.engine),
          view: adapter.publicView(round.engine),
        }
      : null,
    expectedCard: runtime.machine.expected(state),
    rescan:
      slot && slot.failedAttempts > 0
        ? { attempts: slot.failedAttempts, escalated: slot.escalated }
        : null,
    paused: pause ? { kind: pause.kind, reason: pause.reason, by: pause.by, at: pause.at } : null,
    timers: state.timers.map((t) => ({ name: t.name, dueAt: new Date(t.dueAt).toISOString() })),
    ...(privileged ? { faceDownCards: state.faceDownCards } : {}),
  };
}
