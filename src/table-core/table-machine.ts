import type { GameAdapter } from '../games/game-adapter';
import { cancelBet, decide, decideMany, placeBet, placeBets } from './commands';
import { expectedCard } from './expected-card';
import { ensureShoe, settle } from './lifecycle';
import { applyReading, tick } from './readings';
import { cutCard, pause } from './shared-steps';
import {
  approveVoid,
  closeBetting,
  correctCard,
  endShoe,
  requestVoid,
  resume,
  voidRound,
} from './supervision';
import type {
  BatchOutcome,
  CommandInput,
  ItemResult,
  MachineContext,
  MachineOutcome,
  SupervisionInput,
  TableInput,
} from './table-input';
import type { TableSettings, TableState } from './table-state';
import { mergeable, mergeOutcomes } from './merge-outcomes';
import { timer } from './time';
import { Transition } from './transition';

export * from './table-input';
export * from './table-state';
export * from './table-writes';
export { upgradeTableState } from './upgrade-table-state';

/**
 * The table as a pure state machine around a game adapter: shoe lifecycle and burn, rounds one
 * after another, the expected card and its slot, rescans and escalation, timers as deadlines,
 * pause / resume / void (with or without a second supervisor) / card correction / end of shoe.
 * `(state, input, context) -> outcome`: no I/O, no clock (time comes in the context), no
 * randomness (ids come in the context). The runtime persists each outcome in one transaction
 * before it announces anything.
 */
export class TableMachine {
  constructor(
    readonly settings: TableSettings,
    readonly adapter: GameAdapter,
  ) {}

  step(state: TableState, input: TableInput, ctx: MachineContext): MachineOutcome {
    const tx = new Transition(this.settings, this.adapter, state, ctx);
    apply(tx, input);
    if (!tx.rejection) settle(tx);
    return tx.outcome();
  }

  /**
   * Applies commands in order with the same answers, state and rows as stepping them one at a
   * time, but committed together: a window's bets (or decisions) go to the game in one step when
   * the game takes batches (adapter.placeBets / decideMany), otherwise one step each, merged. A
   * step that would write a second round or shoe change ends the group (it is not consumed).
   */
  stepCommands(
    state: TableState,
    inputs: readonly CommandInput[],
    ctx: MachineContext,
  ): BatchOutcome {
    if (inputs.length === 0) throw new Error('stepCommands needs at least one command');
    const kind = inputs[0].type;
    const batchable =
      kind === 'bet' ? !!this.adapter.placeBets : kind === 'decide' && !!this.adapter.decideMany;
    if (batchable) return this.inOneStep(state, inputs, ctx);
    // Cancellations are few: stepped alone, so that a window's bets or decisions behind them
    // still go to the game in one step (the caller submits the rest from the new state).
    if (kind === 'cancel-bet') return this.oneByOne(state, leadingRun(inputs), ctx);
    return this.oneByOne(state, inputs, ctx);
  }

  /** The card the dealer must put where, for consoles. */
  expected(state: TableState): { slot: string; label: string } | null {
    return expectedCard(this.adapter, state);
  }

  /** The leading run of commands of one kind, to the game in one adapter step. */
  private inOneStep(
    state: TableState,
    inputs: readonly CommandInput[],
    ctx: MachineContext,
  ): BatchOutcome {
    const tx = new Transition(this.settings, this.adapter, state, ctx);
    const run = leadingRun(inputs);
    const results = run.every((i) => i.type === 'bet')
      ? placeBets(
          tx,
          run.map((i) => i.bet),
        )
      : decideMany(
          tx,
          run.map((i) => (i as Extract<CommandInput, { type: 'decide' }>).decision),
        );
    settle(tx);
    return { outcome: tx.outcome(), results };
  }

  private oneByOne(
    state: TableState,
    inputs: readonly CommandInput[],
    ctx: MachineContext,
  ): BatchOutcome {
    let merged: MachineOutcome | undefined;
    const results: ItemResult[] = [];
    for (const input of inputs) {
      const outcome = this.step(merged?.state ?? state, input, ctx);
      if (merged && !mergeable(merged.writes, outcome.writes)) break;
      merged = mergeOutcomes(merged, outcome);
      results.push(
        outcome.rejection
          ? { accepted: false, ...outcome.rejection }
          : { accepted: true, reply: outcome.reply ?? {} },
      );
    }
    return { outcome: merged!, results };
  }
}

/** The leading commands of the first one's kind. */
function leadingRun(inputs: readonly CommandInput[]): readonly CommandInput[] {
  let n = 1;
  while (n < inputs.length && inputs[n].type === inputs[0].type) n += 1;
  return inputs.slice(0, n);
}

/** Routes an input to its handler by kind. */
function apply(tx: Transition, input: TableInput): void {
  switch (input.type) {
    case 'start':
      return ensureShoe(tx);
    case 'timer':
      return timer(tx, input.name, input.token);
    case 'tick':
      return tick(tx);
    case 'reading':
      return applyReading(tx, input.readingId, input.reading);
    case 'bet':
      return placeBet(tx, input.bet);
    case 'decide':
      return decide(tx, input.decision);
    case 'cancel-bet':
      return cancelBet(tx, input.cancel);
    default:
      return supervise(tx, input);
  }
}

function supervise(tx: Transition, input: SupervisionInput): void {
  switch (input.type) {
    case 'close-betting':
      return closeBetting(tx, input.by);
    case 'cut-card':
      return cutCard(tx, input.by);
    case 'pause':
      return pause(tx, 'supervisor', input.by, input.reason);
    case 'resume':
      return resume(tx, input.by);
    case 'void':
      if (roundChanged(tx, input.roundId)) return;
      return voidRound(tx, input.by, input.reason);
    case 'request-void':
      if (roundChanged(tx, input.roundId)) return;
      return requestVoid(tx, input.requestId, input.by, input.reason);
    case 'approve-void':
      return approveVoid(tx, input.requestId, input.by);
    case 'correct-card':
      if (roundChanged(tx, input.roundId)) return;
      return correctCard(tx, input.by, input.slot, input.card, input.reason);
    case 'end-shoe':
      return endShoe(tx, input.by, input.reason);
  }
}

/**
 * A supervisor's void or correction names the round it was decided on: when that round has
 * ended and another is in play (a dialog left open across rounds), the action is refused rather
 * than applied to a round nobody looked at.
 */
function roundChanged(tx: Transition, meant: string | undefined): boolean {
  if (meant === undefined || tx.round?.id === meant) return false;
  tx.reject(
    'round-changed',
    tx.round
      ? 'That round has ended; another round is in play now: look at it before acting'
      : 'That round has ended; no round is in play now',
  );
  return true;
}
