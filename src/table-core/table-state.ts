import type { CardCode } from '@studio/cards';
import type { GameKind } from '@studio/contracts';
import type { ShoeState } from '@studio/games/shoe';
import { IngestionRules, IngestionState, initialIngestionState } from '@studio/scanner-protocol';

export interface BetLimit {
  min: number;
  max: number;
}

export interface TableSettings {
  tableId: string;
  game: GameKind;
  /** The default currency: a bet that names none is in it. */
  currency: string;
  /** Every currency the table accepts, the default first (absent: the default alone). */
  currencies?: readonly string[];
  bettingWindowMs: number;
  roundIntervalMs: number;
  /** Per bet type limits in minor units (`main`, `pairs`, `player`, `pair` ...), default currency. */
  limits: Record<string, BetLimit>;
  /** Per currency, per bet type limits (absent: `limits`, in the default currency alone). */
  limitsByCurrency?: Record<string, Record<string, BetLimit>>;
  ingestion: IngestionRules;
}

export interface PendingTimer {
  name: string;
  token: number;
  /** Epoch milliseconds. */
  dueAt: number;
}

export interface PauseInfo {
  kind: 'supervisor' | 'escalation';
  reason: string;
  by: string;
  at: string;
  /** Time left on each timer when the pause began; they restart with it on resume. */
  timersRemaining: Array<{ name: string; token: number; remainingMs: number }>;
}

/** A void asked for by one supervisor, waiting for a different one to approve it. */
export interface VoidRequest {
  /** The supervisor_actions row that records it (allocated at the edge, like a reading's id). */
  requestId: string;
  by: string;
  reason: string;
  at: string;
}

export interface RoundState {
  id: string;
  shoeNumber: number;
  roundNumber: number;
  engine: unknown;
  /**
   * The currency of each player's bets this round, on a table of several currencies (every bet
   * of a player in one round is in one currency); absent on a single-currency table.
   */
  currencies?: Record<string, string>;
  /** Pending void requests of this round; they lapse when the round ends. */
  voidRequests: VoidRequest[];
}

/** The table's life when nobody has paused it. */
export type RunningPhase =
  /** No shoe has been opened yet (a table that has never started). */
  | { kind: 'awaiting-shoe' }
  /** A shoe is open (burning, or waiting for the next round's timer). */
  | { kind: 'between-rounds' }
  | { kind: 'in-round'; round: RoundState };

/**
 * The declared phase the machine switches on. A pause wraps the phase it interrupted, so what
 * resumes is exactly what was paused (a round, or the gap between rounds).
 */
export type TablePhase = RunningPhase | { kind: 'paused'; pause: PauseInfo; resumes: RunningPhase };

export interface TableState {
  /** Shape of the stored state (see upgradeTableState). */
  schema: 2;
  tableId: string;
  game: GameKind;
  phase: TablePhase;
  /** The open shoe: null exactly in the awaiting-shoe phase. */
  shoe: { id: string; state: ShoeState } | null;
  ingestion: IngestionState;
  timers: PendingTimer[];
  /** The last card accepted, for correction before reveal: slot -> card. */
  faceDownCards: Record<string, CardCode>;
  /**
   * Service-shuffled shoe of a game that deals its own cards (the practice table): the order is
   * kept (and logged, restricted) so every round can be replayed.
   */
  virtualShoe?: { order: CardCode[]; next: number };
  /** The round that ended last: a late command for it is told betting closed, not "unknown". */
  lastRoundId?: string;
  /** The last round's final engine state, for games whose table outlives a round (Lux seats). */
  previousEngine?: unknown;
}

export function initialTableState(settings: TableSettings, deckCount: number): TableState {
  return {
    schema: 2,
    tableId: settings.tableId,
    game: settings.game,
    phase: { kind: 'awaiting-shoe' },
    shoe: null,
    ingestion: initialIngestionState(deckCount),
    timers: [],
    faceDownCards: {},
  };
}

/** The currencies a table accepts, its default first. */
export function currenciesOf(settings: TableSettings): readonly string[] {
  return settings.currencies ?? [settings.currency];
}

/** A currency's limits by bet type, or undefined when the table does not accept the currency. */
export function limitsIn(
  settings: TableSettings,
  currency: string,
): Record<string, BetLimit> | undefined {
  if (settings.limitsByCurrency) {
    return Object.hasOwn(settings.limitsByCurrency, currency)
      ? settings.limitsByCurrency[currency]
      : undefined;
  }
  return currency === settings.currency ? settings.limits : undefined;
}

/** The currency of a player's bets in the round (the table's default unless recorded). */
export function playerCurrency(settings: TableSettings, round: RoundState, player: string): string {
  // Own keys only: a player's key is the platform's text (a player may be named `__proto__`).
  const recorded = round.currencies;
  return recorded && Object.hasOwn(recorded, player) ? recorded[player] : settings.currency;
}

/** The phase the table is in, or would be in without the pause. */
export function runningPhase(state: TableState): RunningPhase {
  return state.phase.kind === 'paused' ? state.phase.resumes : state.phase;
}

/** The round in progress (paused or not), for readers that only need its data. */
export function roundOf(state: TableState): RoundState | null {
  const phase = runningPhase(state);
  return phase.kind === 'in-round' ? phase.round : null;
}

export function pauseOf(state: TableState): PauseInfo | null {
  return state.phase.kind === 'paused' ? state.phase.pause : null;
}

/** The state with its running phase replaced, inside the pause if there is one. */
export function withRunningPhase(state: TableState, next: RunningPhase): TableState {
  const phase: TablePhase =
    state.phase.kind === 'paused' ? { ...state.phase, resumes: next } : next;
  return { ...state, phase };
}

/** The state with the round in progress changed (throws when there is none: a machine bug). */
export function withRound(
  state: TableState,
  change: (round: RoundState) => RoundState,
): TableState {
  const phase = runningPhase(state);
  if (phase.kind !== 'in-round') throw new Error('No round is in progress');
  return withRunningPhase(state, { kind: 'in-round', round: change(phase.round) });
}
