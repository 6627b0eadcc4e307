import type { Clock } from '../clock/clock';
import type { TableDefinition } from '../config/tables-config';
import { summariseTransition } from '../logging/transition-summary';
import type { MachineOutcome } from '../table-core/table-machine';
import type { StudioMetrics } from './studio-metrics';

/**
 * Counts rounds, pauses, rescans and supervisor actions and times rounds, from committed
 * transitions.
 */
export class RoundMetricsListener {
  private readonly started = new Map<string, number>();
  private readonly games: Map<string, string>;

  constructor(
    tables: readonly TableDefinition[],
    private readonly metrics: StudioMetrics,
    private readonly clock: Clock,
  ) {
    this.games = new Map(tables.map((t) => [t.id, t.game]));
  }

  onTransition(table: string, outcome: MachineOutcome): void {
    const game = this.games.get(table) ?? 'unknown';
    // A public event (no card in it): the dealer was asked to scan a card again.
    const rescans = outcome.writes.events.filter((e) => e.type === 'RescanRequired').length;
    if (rescans > 0) this.metrics.operational?.rescans.inc({ table }, rescans);
    for (const note of summariseTransition(outcome)) {
      switch (note.kind) {
        case 'round-started':
          this.started.set(note.roundId, this.clock.now().getTime());
          break;
        case 'round-ended': {
          this.metrics.rounds.inc({ table, game, outcome: note.status });
          const since = this.started.get(note.roundId);
          this.started.delete(note.roundId);
          // A round taken over from another instance has no start here: not timed.
          if (since !== undefined) {
            this.metrics.roundDuration.observe(
              { game },
              (this.clock.now().getTime() - since) / 1000,
            );
          }
          break;
        }
        case 'automatic-pause':
          this.metrics.automaticPauses.inc({ table, cause: note.cause });
          break;
        case 'supervisor-action':
          this.metrics.supervisorActions.inc({ table, action: note.action });
          break;
      }
    }
  }
}
