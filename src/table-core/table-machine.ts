import { CardCode, cardCode, cardIndex, decks, parseCardCode } from '@studio/cards';
import type { GameKind } from '@studio/contracts';
import {
  applyShoeInput,
  isSideBetOffered,
  newShoe,
  ShoeEffect,
  ShoeInput,
  ShoeState,
} from '@studio/games/shoe';
import {
  ingest,
  IngestionEffect,
  IngestionRules,
  IngestionState,
  initialIngestionState,
  ScannerReading,
} from '@studio/scanner-protocol';
import {
  AdapterBatchStep,
  AdapterResult,
  AdapterStep,
  BetCommand,
  BetRecord,
  CardRecord,
  DecisionCommand,
  DecisionRecord,
  GameAdapter,
  HandRecord,
  RoundEvent,
  SettlementRecord,
} from '../games/game-adapter';

/**
 * The table as a pure state machine around a game adapter: shoe lifecycle and burn, rounds one
 * after another, the expected card and its slot, rescans and escalation, timers as deadlines,
 * pause / resume / void / card correction / end of shoe. `(state, input, context) -> outcome`:
 * no I/O, no clock (time comes in the context), no randomness (ids come in the context). The
 * runtime persists each outcome in one transaction before it announces anything.
 */

export interface BetLimit {
  min: number;
  max: number;
}

export interface TableSettings {
  tableId: string;
  game: GameKind;
  currency: string;
  bettingWindowMs: number;
  roundIntervalMs: number;
  /** Per bet type limits in minor units (`main`, `pairs`, `player`, `pair` ...). */
  limits: Record<string, BetLimit>;
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

export interface TableState {
  tableId: string;
  game: GameKind;
  shoe: { id: string; state: ShoeState } | null;
  round: {
    id: string;
    shoeNumber: number;
    roundNumber: number;
    engine: unknown;
  } | null;
  ingestion: IngestionState;
  paused: PauseInfo | null;
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

export type TableInput =
  | { type: 'start' }
  | { type: 'reading'; readingId: string | null; reading: ScannerReading }
  | { type: 'bet'; bet: BetCommand }
  | { type: 'decide'; decision: DecisionCommand }
  | { type: 'close-betting'; by: string }
  | { type: 'timer'; name: string; token: number }
  | { type: 'tick' }
  | { type: 'cut-card'; by: string }
  | { type: 'pause'; by: string; reason: string }
  | { type: 'resume'; by: string }
  | {
      type: 'void';
      by: string;
      reason: string;
      /** With second-supervisor approval: who approved, and the pending request it resolves. */
      approval?: { requestId: string; approvedBy: string; roundId: string };
    }
  | { type: 'correct-card'; by: string; slot: string; card: string; reason: string }
  | { type: 'end-shoe'; by: string; reason: string };

/** The platform commands that may be applied in batches. */
export type CommandInput = Extract<TableInput, { type: 'bet' } | { type: 'decide' }>;

/** The answer to one command of a batch. */
export type ItemResult =
  | { accepted: true; reply: Record<string, unknown> }
  | { accepted: false; code: string; message: string };

/**
 * The combined outcome of the first `results.length` commands of a batch, to be committed as one
 * transition. The caller submits the rest again from the new state.
 */
export interface BatchOutcome {
  outcome: MachineOutcome;
  results: ItemResult[];
}

export interface MachineContext {
  now: number;
  newId(): string;
  /**
   * A freshly shuffled shoe for tables whose game deals from a service-shuffled virtual shoe
   * (cryptographically secure Fisher-Yates at the runtime's edge; injected so the machine stays
   * pure and tests deterministic).
   */
  shuffle?(cards: readonly CardCode[]): CardCode[];
}

/** Rows the runtime writes in the transition's transaction. */
export interface TableWrites {
  events: Array<RoundEvent & { roundId: string | null; actor?: string }>;
  newShoe?: { id: string; shoeNumber: number; deckCount: number };
  finishShoe?: { id: string; reason: string };
  newRound?: { id: string; shoeId: string; shoeNumber: number; roundNumber: number };
  roundStatus?: {
    id: string;
    status: 'in-progress' | 'paused' | 'completed' | 'voided';
    phase: string;
    ended: boolean;
    voidReason?: string;
    finalState?: unknown;
  };
  cards: Array<CardRecord & { roundId: string | null; shoeId: string; readingId: string | null }>;
  corrections: Array<{ slot: string; roundId: string | null; card: CardCode; reason: string }>;
  reveals: Array<{ roundId: string; slot: string }>;
  bets: Array<BetRecord & { roundId: string }>;
  decisions: Array<DecisionRecord & { roundId: string }>;
  settlements: Array<SettlementRecord & { roundId: string }>;
  /** Every hand of a round that ended in this transition. */
  hands?: { roundId: string; hands: HandRecord[] };
  supervisorAction?: {
    action: string;
    reason: string | null;
    actor: string;
    roundId: string | null;
    details: Record<string, unknown>;
    /** Set when this applies a pending request: that row becomes applied, approved by this user. */
    approval?: { requestId: string; approvedBy: string };
  };
  readingOutcome?: { readingId: string; outcome: string; detail: Record<string, unknown> };
}

export interface MachineRejection {
  code: string;
  message: string;
}

export interface MachineOutcome {
  state: TableState;
  writes: TableWrites;
  /** Set when the input was refused; writes may still record it (a rejected reading is kept). */
  rejection?: MachineRejection;
  /** Answer for the caller of an accepted command. */
  reply?: Record<string, unknown>;
}

export function emptyWrites(): TableWrites {
  return {
    events: [],
    cards: [],
    corrections: [],
    reveals: [],
    bets: [],
    decisions: [],
    settlements: [],
  };
}

export function initialTableState(settings: TableSettings, deckCount: number): TableState {
  return {
    tableId: settings.tableId,
    game: settings.game,
    shoe: null,
    round: null,
    ingestion: initialIngestionState(deckCount),
    paused: null,
    timers: [],
    faceDownCards: {},
  };
}

const ROUND_TIMER = 'next-round';
/** Settlements per BetsSettled / BetsRefunded event. */
const SETTLEMENT_BATCH = 500;

export class TableMachine {
  constructor(
    readonly settings: TableSettings,
    readonly adapter: GameAdapter,
  ) {}

  step(state: TableState, input: TableInput, ctx: MachineContext): MachineOutcome {
    const tx = new Transition(this.settings, this.adapter, state, ctx);
    switch (input.type) {
      case 'start':
        tx.ensureShoe();
        break;
      case 'reading':
        tx.reading(input.readingId, input.reading);
        break;
      case 'bet':
        tx.bet(input.bet);
        break;
      case 'decide':
        tx.decide(input.decision);
        break;
      case 'close-betting':
        tx.closeBetting(input.by);
        break;
      case 'timer':
        tx.timer(input.name, input.token);
        break;
      case 'tick':
        tx.tick();
        break;
      case 'cut-card':
        tx.cutCard(input.by);
        break;
      case 'pause':
        tx.pause('supervisor', input.by, input.reason);
        break;
      case 'resume':
        tx.resume(input.by);
        break;
      case 'void':
        tx.voidRound(input.by, input.reason, input.approval);
        break;
      case 'correct-card':
        tx.correctCard(input.by, input.slot, input.card, input.reason);
        break;
      case 'end-shoe':
        tx.endShoe(input.by, input.reason);
        break;
    }
    if (!tx.rejection) tx.settle();
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
    const batchable = kind === 'bet' ? !!this.adapter.placeBets : !!this.adapter.decideMany;
    if (batchable) {
      let n = 1;
      while (n < inputs.length && inputs[n].type === kind) n += 1;
      const run = inputs.slice(0, n);
      const tx = new Transition(this.settings, this.adapter, state, ctx);
      const results =
        kind === 'bet'
          ? tx.bets(run.map((i) => (i as Extract<CommandInput, { type: 'bet' }>).bet))
          : tx.decisions(run.map((i) => (i as Extract<CommandInput, { type: 'decide' }>).decision));
      tx.settle();
      return { outcome: tx.outcome(), results };
    }
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

  /** The card the dealer must put where, for consoles. */
  expected(state: TableState): { slot: string; label: string } | null {
    return expectedCard(this.adapter, state);
  }
}

/** Writes that happen at most once per transition (round or shoe changes, one supervisor act). */
const SINGLE_WRITES = [
  'newShoe',
  'finishShoe',
  'newRound',
  'roundStatus',
  'hands',
  'supervisorAction',
  'readingOutcome',
] as const;

function mergeable(a: TableWrites, b: TableWrites): boolean {
  return SINGLE_WRITES.every((key) => a[key] === undefined || b[key] === undefined);
}

const LIST_WRITES = [
  'events',
  'cards',
  'corrections',
  'reveals',
  'bets',
  'decisions',
  'settlements',
] as const;

/** `into` (a copy this function made, or undefined for the first) followed by `next`. */
function mergeOutcomes(into: MachineOutcome | undefined, next: MachineOutcome): MachineOutcome {
  const writes: TableWrites = into ? into.writes : { ...next.writes };
  for (const key of LIST_WRITES) {
    if (!into) (writes[key] as unknown[]) = [...next.writes[key]];
    else (writes[key] as unknown[]).push(...next.writes[key]);
  }
  for (const key of SINGLE_WRITES) {
    if (next.writes[key] !== undefined) Object.assign(writes, { [key]: next.writes[key] });
  }
  return { state: next.state, writes };
}

function expectedCard(
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
  if (!state.round) return null;
  return adapter.expectedCard(state.round.engine);
}

/** One transition in progress: accumulates the new state and the writes. */
class Transition {
  state: TableState;
  readonly writes = emptyWrites();
  rejection?: MachineRejection;
  reply?: Record<string, unknown>;
  private currentReading?: ScannerReading;

  constructor(
    private readonly settings: TableSettings,
    private readonly adapter: GameAdapter,
    initial: TableState,
    private readonly ctx: MachineContext,
  ) {
    this.state = initial;
  }

  outcome(): MachineOutcome {
    return {
      state: this.state,
      writes: this.writes,
      ...(this.rejection ? { rejection: this.rejection } : {}),
      ...(this.reply ? { reply: this.reply } : {}),
    };
  }

  private reject(code: string, message: string): void {
    this.rejection = { code, message };
  }

  private get roundId(): string | null {
    return this.state.round?.id ?? null;
  }

  private emit(event: RoundEvent, actor?: string): void {
    this.writes.events.push({ ...event, roundId: this.roundId, ...(actor ? { actor } : {}) });
  }

  private publicEvent(type: string, payload: Record<string, unknown>, actor?: string): void {
    this.emit({ type, visibility: 'public', payload }, actor);
  }

  // ---- shoe and rounds --------------------------------------------------------------------

  ensureShoe(): void {
    if (!this.state.shoe || this.state.shoe.state.phase === 'finished') this.startShoe();
  }

  private startShoe(): void {
    const previous = this.state.shoe?.state.shoeNumber ?? 0;
    const shoeNumber = previous + 1;
    const id = this.ctx.newId();
    const rules = this.adapter.shoeRules;
    this.state = {
      ...this.state,
      shoe: { id, state: newShoe(rules, shoeNumber) },
      ingestion: ingestOk(this.state.ingestion, { type: 'new-shoe', deckCount: rules.deckCount }),
      faceDownCards: {},
    };
    this.writes.newShoe = { id, shoeNumber, deckCount: rules.deckCount };
    this.publicEvent('ShoeStarted', { shoeId: id, shoeNumber, deckCount: rules.deckCount });
    if (this.adapter.dealsOwnCards) {
      if (!this.ctx.shuffle) throw new Error('A virtual-shoe table needs a shuffle in its context');
      const order = this.ctx.shuffle(decks(rules.deckCount).map(cardCode));
      this.state = { ...this.state, virtualShoe: { order, next: 0 } };
      // Restricted: the order is the future of the shoe; auditors replay rounds from it.
      this.emit({
        type: 'VirtualShoeShuffled',
        visibility: 'restricted',
        payload: { shoeId: id, order },
      });
    }
  }

  /** A virtual-shoe table deals the card it expects itself, from the recorded order. */
  private dealOwnCard(): boolean {
    const vs = this.state.virtualShoe;
    if (!this.adapter.dealsOwnCards || !vs || this.state.paused) return false;
    if (!expectedCard(this.adapter, this.state)) return false;
    const shoe = this.state.shoe!.state;
    // Cut card at three quarters of the shoe: the round in progress is the last of the shoe.
    if (
      shoe.lastRoundNumber === null &&
      this.state.round &&
      vs.next >= Math.floor(vs.order.length * 0.75)
    ) {
      this.cutCard('virtual-shoe');
    }
    if (vs.next >= vs.order.length) return false;
    const card = vs.order[vs.next];
    this.state = { ...this.state, virtualShoe: { order: vs.order, next: vs.next + 1 } };
    const applied = this.applyCard(card, null);
    if (!applied.ok) {
      this.emit({
        type: 'VirtualCardRefused',
        visibility: 'restricted',
        payload: { card, code: applied.code },
      });
      return false;
    }
    return true;
  }

  private startRound(): void {
    const shoe = this.state.shoe!;
    const started = applyShoeInput(shoe.state, { type: 'start-round' });
    if ('rejected' in started) return;
    const roundStarted = started.effects.find((e) => e.type === 'round-started') as Extract<
      ShoeEffect,
      { type: 'round-started' }
    >;
    const roundId = this.ctx.newId();
    const result = this.adapter.startRound(
      {
        roundId,
        shoeNumber: shoe.state.shoeNumber,
        roundNumber: roundStarted.roundNumber,
      },
      this.adapter.keepsStateBetweenRounds ? this.state.previousEngine : undefined,
    );
    if ('rejected' in result) {
      this.reject(result.rejected.code, result.rejected.message);
      return;
    }
    this.state = {
      ...this.state,
      shoe: { id: shoe.id, state: started.state },
      round: {
        id: roundId,
        shoeNumber: shoe.state.shoeNumber,
        roundNumber: roundStarted.roundNumber,
        engine: result.state,
      },
      timers: this.state.timers.filter((t) => t.name !== ROUND_TIMER),
    };
    this.writes.newRound = {
      id: roundId,
      shoeId: shoe.id,
      shoeNumber: shoe.state.shoeNumber,
      roundNumber: roundStarted.roundNumber,
    };
    this.publicEvent('RoundStarted', {
      shoeNumber: shoe.state.shoeNumber,
      roundNumber: roundStarted.roundNumber,
      isLastRoundOfShoe: roundStarted.isLastRound,
      sideBetsNoLongerOffered: roundStarted.sideBetsNoLongerOffered,
      game: this.settings.game,
      currency: this.settings.currency,
    });
    this.absorb(result);
  }

  private endRound(): void {
    const round = this.state.round!;
    const engine = round.engine;
    const voided = this.adapter.phase(engine) === 'voided';
    if (this.adapter.hands)
      this.writes.hands = { roundId: round.id, hands: this.adapter.hands(engine) };
    const voidReason = this.writes.roundStatus?.voidReason;
    this.writes.roundStatus = {
      id: round.id,
      status: voided ? 'voided' : 'completed',
      phase: this.adapter.phase(engine),
      ended: true,
      finalState: engine,
      ...(voidReason ? { voidReason } : {}),
    };
    this.publicEvent(voided ? 'RoundEnded' : 'RoundCompleted', {
      shoeNumber: round.shoeNumber,
      roundNumber: round.roundNumber,
      status: voided ? 'voided' : 'completed',
    });
    const shoe = this.state.shoe!;
    const ended = applyShoeInput(shoe.state, { type: 'end-round' });
    this.state = {
      ...this.state,
      round: null,
      lastRoundId: round.id,
      ...(this.adapter.keepsStateBetweenRounds ? { previousEngine: engine } : {}),
      faceDownCards: {},
      timers: this.state.timers.filter((t) => t.name === ROUND_TIMER),
    };
    if ('rejected' in ended) return;
    this.state = { ...this.state, shoe: { id: shoe.id, state: ended.state } };
    if (ended.state.phase === 'finished') {
      this.finishShoe('last-round-played');
    }
  }

  private finishShoe(reason: string): void {
    const shoe = this.state.shoe!;
    this.writes.finishShoe = { id: shoe.id, reason };
    // The shoe is closed: its burnt cards may now be published.
    this.publicEvent('ShoeFinished', {
      shoeId: shoe.id,
      shoeNumber: shoe.state.shoeNumber,
      reason,
      burntCards: [
        ...(shoe.state.burn.shownCard ? [shoe.state.burn.shownCard] : []),
        ...shoe.state.burn.burntCards,
      ],
      cardsDrawn: shoe.state.cardsDrawn,
    });
    this.startShoe();
  }

  /** After any accepted input: automatic steps, round end, next round, card expectation. */
  settle(): void {
    for (let guard = 0; guard < 500; guard += 1) {
      if (this.state.paused) break;
      const round = this.state.round;
      if (round && this.adapter.isRoundOver(round.engine)) {
        this.endRound();
        this.scheduleNextRound();
        continue;
      }
      if (round) {
        const auto = this.adapter.autoStep(round.engine);
        if (auto && !('rejected' in auto)) {
          this.absorb(auto);
          continue;
        }
      }
      if (this.dealOwnCard()) continue;
      const shoe = this.state.shoe;
      if (
        !round &&
        shoe &&
        shoe.state.phase === 'between-rounds' &&
        !this.state.timers.some((t) => t.name === ROUND_TIMER)
      ) {
        this.scheduleNextRound();
      }
      break;
    }
    this.syncExpectation();
  }

  private scheduleNextRound(): void {
    if (this.state.timers.some((t) => t.name === ROUND_TIMER)) return;
    const token = this.ctx.now;
    this.state = {
      ...this.state,
      timers: [
        ...this.state.timers,
        { name: ROUND_TIMER, token, dueAt: this.ctx.now + this.settings.roundIntervalMs },
      ],
    };
  }

  /** Keeps the scanner's open slot equal to the card the table expects. */
  private syncExpectation(): void {
    const expected = this.state.paused ? null : expectedCard(this.adapter, this.state);
    const slotKey = expected ? `${this.roundId ?? this.state.shoe?.id}/${expected.slot}` : null;
    let ingestion = this.state.ingestion;
    if (ingestion.slot && ingestion.slot.id !== slotKey && !ingestion.slot.escalated) {
      ingestion = ingestOk(ingestion, { type: 'withdraw-expectation' });
    }
    if (slotKey && !ingestion.slot) {
      ingestion = ingestOk(ingestion, { type: 'expect-card', slot: slotKey, at: this.ctx.now });
    }
    if (ingestion !== this.state.ingestion) this.state = { ...this.state, ingestion };
  }

  /** Folds an adapter step into the state and the writes. */
  private absorb(step: AdapterStep<unknown>, readingId: string | null = null): void {
    const round = this.state.round!;
    this.state = { ...this.state, round: { ...round, engine: step.state } };
    for (const event of step.events) this.emit(event);
    for (const card of step.cards ?? []) {
      this.writes.cards.push({
        ...card,
        roundId: round.id,
        shoeId: this.state.shoe!.id,
        readingId,
      });
      if (card.faceDown) {
        this.state = {
          ...this.state,
          faceDownCards: { ...this.state.faceDownCards, [card.slot]: card.card },
        };
      }
    }
    for (const slot of step.reveals ?? []) {
      this.writes.reveals.push({ roundId: round.id, slot });
      const rest = { ...this.state.faceDownCards };
      delete rest[slot];
      this.state = { ...this.state, faceDownCards: rest };
    }
    for (const bet of step.bets ?? []) this.writes.bets.push({ ...bet, roundId: round.id });
    for (const d of step.decisions ?? []) this.writes.decisions.push({ ...d, roundId: round.id });
    const settlements = step.settlements ?? [];
    for (const s of settlements) this.writes.settlements.push({ ...s, roundId: round.id });
    if (settlements.length > 0) this.announceSettlements(settlements, step.state);
    let timers = this.state.timers;
    const cancel = new Set([
      ...(step.cancelTimers ?? []),
      ...(step.timers ?? []).map((t) => t.name),
    ]);
    timers = timers.filter((t) => !cancel.has(t.name));
    for (const t of step.timers ?? []) {
      timers = [...timers, { name: t.name, token: t.token, dueAt: this.ctx.now + t.durationMs }];
    }
    this.state = { ...this.state, timers };
  }

  /**
   * Every bet's settlement goes to the platforms, in batches so a round with a million players
   * makes many moderate messages rather than one enormous one (games of every kind alike).
   */
  private announceSettlements(settlements: readonly SettlementRecord[], engine: unknown): void {
    const voided = this.adapter.phase(engine) === 'voided';
    const batches = Math.ceil(settlements.length / SETTLEMENT_BATCH);
    for (let b = 0; b < batches; b += 1) {
      this.publicEvent(voided ? 'BetsRefunded' : 'BetsSettled', {
        batch: b + 1,
        batches,
        settlements: settlements
          .slice(b * SETTLEMENT_BATCH, (b + 1) * SETTLEMENT_BATCH)
          .map((s) => ({
            betId: s.betId,
            playerId: s.playerId,
            betType: s.betType,
            spot: s.spot,
            stake: s.stake,
            returned: s.returned,
            net: s.net,
            outcome: s.outcome,
            roundedDown: s.roundedDown,
          })),
      });
    }
  }

  private applyRound(result: AdapterResult<unknown>, readingId: string | null = null): boolean {
    if ('rejected' in result) {
      this.reject(result.rejected.code, result.rejected.message);
      return false;
    }
    this.absorb(result, readingId);
    return true;
  }

  // ---- inputs -------------------------------------------------------------------------------

  reading(readingId: string | null, reading: ScannerReading): void {
    // Heartbeats and status frames are the scanner service's business (stored, status events);
    // they change nothing at the table, so they cost no transition.
    if (reading.kind === 'heartbeat' || reading.kind === 'status') return;
    this.currentReading = reading;
    const before = this.state.ingestion;
    if (this.state.paused && reading.kind === 'card') {
      this.recordReading(readingId, 'not-applied-paused', { card: reading.code });
      this.publicEvent('CardNotExpected', { reason: 'table-paused' });
      this.reject('table-paused', 'The table is paused; the card was recorded but not applied');
      return;
    }
    const result = ingest(before, { type: 'reading', reading }, this.settings.ingestion);
    if ('rejected' in result) {
      this.recordReading(readingId, 'recorded', { note: result.rejected.message });
      return;
    }
    this.state = { ...this.state, ingestion: result.state };
    let outcome: string = result.disposition ?? 'recorded';
    const detail: Record<string, unknown> = {};
    for (const effect of result.effects) {
      const handled = this.ingestionEffect(effect, readingId, before);
      if (handled) {
        outcome = handled.outcome;
        Object.assign(detail, handled.detail);
      }
    }
    this.recordReading(readingId, outcome, detail);
  }

  /**
   * What became of a reading goes into the table's hash-chained event log next to its raw bytes
   * (restricted: a face-down card's reading names the card).
   */
  private recordReading(
    readingId: string | null,
    outcome: string,
    detail: Record<string, unknown>,
  ): void {
    if (readingId) this.writes.readingOutcome = { readingId, outcome, detail };
    const r = this.currentReading;
    if (!r) return;
    this.emit({
      type: 'ReadingProcessed',
      visibility: 'restricted',
      payload: {
        kind: r.kind,
        code: 'code' in r ? r.code : null,
        sequence: r.sequence ?? null,
        receivedAt: new Date(r.receivedAt).toISOString(),
        rawHex: Buffer.from(r.raw).toString('hex'),
        outcome,
        detail,
      },
    });
  }

  private ingestionEffect(
    effect: IngestionEffect,
    readingId: string | null,
    before: IngestionState,
  ): { outcome: string; detail: Record<string, unknown> } | undefined {
    switch (effect.type) {
      case 'card-accepted': {
        const applied = this.applyCard(effect.card, readingId);
        if (applied.ok)
          return { outcome: 'applied', detail: { slot: effect.slot, card: effect.card } };
        // The game refused the card: undo the ingestion's count and keep the slot open.
        this.state = {
          ...this.state,
          ingestion: { ...this.state.ingestion, counts: before.counts, slot: before.slot },
        };
        this.publicEvent('CardRejected', { slot: effect.slot, reason: applied.code });
        this.reject(applied.code, applied.message);
        return { outcome: 'rejected', detail: { code: applied.code, message: applied.message } };
      }
      case 'rescan-required':
        this.publicEvent('RescanRequired', {
          slot: effect.slot.split('/').slice(1).join('/'),
          attempt: effect.attempt,
          reason: effect.reason,
        });
        return undefined;
      case 'escalate-to-supervisor':
        this.publicEvent('SupervisorAlert', {
          kind: 'rescan-limit',
          slot: effect.slot.split('/').slice(1).join('/'),
          failedAttempts: effect.failedAttempts,
          elapsedMs: effect.elapsedMs,
          trigger: effect.trigger,
        });
        this.pause(
          'escalation',
          'scanner',
          `Card not recognised after ${effect.failedAttempts} attempts (${effect.trigger})`,
        );
        return undefined;
      case 'duplicate-ignored':
        this.emit({
          type: 'DuplicateReadingIgnored',
          visibility: 'restricted',
          payload: {
            basis: effect.basis,
            sequence: effect.sequence ?? null,
            card: effect.card ?? null,
          },
        });
        return { outcome: 'duplicate', detail: { basis: effect.basis } };
      case 'integrity-error':
        this.publicEvent('SupervisorAlert', {
          kind: 'composition',
          message: `A ${effect.seen + 1}th copy of a card in a ${effect.allowed}-deck shoe`,
        });
        this.emit({
          type: 'CompositionError',
          visibility: 'restricted',
          payload: { card: effect.card, seen: effect.seen, allowed: effect.allowed },
        });
        this.reject(
          'composition-exceeded',
          `This shoe already produced ${effect.seen} copies of this card; ${effect.allowed} decks allow no more`,
        );
        return {
          outcome: 'integrity-error',
          detail: { seen: effect.seen, allowed: effect.allowed },
        };
      case 'card-not-expected':
        this.emit({
          type: 'CardNotExpected',
          visibility: 'restricted',
          payload: { card: effect.card },
        });
        this.publicEvent('CardNotExpected', { reason: 'no-card-expected' });
        this.reject('no-card-expected', 'No card is expected now; the reading was recorded');
        return { outcome: 'not-expected', detail: {} };
      case 'sequence-gap':
        this.emit({
          type: 'ScannerSequenceGap',
          visibility: 'restricted',
          payload: { missedFrames: effect.missedFrames, sequence: effect.sequence },
        });
        return undefined;
      case 'sequence-conflict':
        // The supervisors' alert names no card: the held frame may carry a face-down one.
        this.publicEvent('SupervisorAlert', {
          kind: 'scanner-sequence',
          reason: effect.reason,
          sequence: effect.sequence,
          previousSequence: effect.previousSequence,
        });
        this.emit({
          type: 'ScannerSequenceConflict',
          visibility: 'restricted',
          payload: { ...effect, card: effect.card ?? null },
        });
        return { outcome: 'held', detail: { reason: effect.reason } };
    }
  }

  /** A recognised card for the expected slot: the shoe first (burn, composition), then the game. */
  private applyCard(
    card: CardCode,
    readingId: string | null,
  ): { ok: true } | { ok: false; code: string; message: string } {
    const shoe = this.state.shoe;
    if (!shoe) return { ok: false, code: 'no-card-expected', message: 'No shoe is open' };
    const burning = shoe.state.phase === 'burning';
    const expected = expectedCard(this.adapter, this.state);
    const drawn = applyShoeInput(shoe.state, { type: 'card', card });
    if ('rejected' in drawn) return { ok: false, ...drawn.rejected };
    if (burning) {
      this.state = { ...this.state, shoe: { id: shoe.id, state: drawn.state } };
      for (const effect of drawn.effects) {
        if (effect.type === 'burn-card-shown') {
          this.publicEvent('BurnCardShown', { card: effect.card, toBurn: effect.toBurn });
          this.writes.cards.push({
            slot: 'shoe-burn/shown',
            card,
            faceDown: false,
            roundId: null,
            shoeId: shoe.id,
            readingId,
          });
        } else if (effect.type === 'card-burnt') {
          // Burnt cards stay secret until the shoe is finished.
          this.publicEvent('CardBurnt', { remaining: effect.remaining });
          this.emit({ type: 'BurntCardRecorded', visibility: 'restricted', payload: { card } });
          this.writes.cards.push({
            slot: expected?.slot ?? 'shoe-burn',
            card,
            faceDown: true,
            roundId: null,
            shoeId: shoe.id,
            readingId,
          });
        } else if (effect.type === 'burn-completed') {
          this.publicEvent('BurnCompleted', { burntCount: effect.burntCount });
        }
      }
      return { ok: true };
    }
    const round = this.state.round;
    if (!round) return { ok: false, code: 'no-card-expected', message: 'No round is in progress' };
    const result = this.adapter.card(round.engine, card);
    if ('rejected' in result) return { ok: false, ...result.rejected };
    this.state = { ...this.state, shoe: { id: shoe.id, state: drawn.state } };
    this.absorb(result, readingId);
    return { ok: true };
  }

  bet(bet: BetCommand): void {
    const problem = this.betProblem(bet);
    if (problem) return this.reject(problem.code, problem.message);
    const round = this.state.round!;
    if (this.applyRound(this.adapter.placeBet(round.engine, bet, round.roundNumber))) {
      this.reply = { betId: bet.betId, roundId: round.id };
    }
  }

  /** Many bets in one adapter step (adapter.placeBets), answered as if placed one at a time. */
  bets(bets: readonly BetCommand[]): ItemResult[] {
    return this.inOneStep(
      bets,
      (bet) => this.betProblem(bet),
      (engine, round, accepted) => this.adapter.placeBets!(engine, accepted, round.roundNumber),
      (bet, roundId) => ({ betId: bet.betId, roundId }),
    );
  }

  /**
   * The table's own checks item by item, then the rest to the game in one adapter step: the
   * answers are in the items' order, as if each had been submitted alone.
   */
  private inOneStep<C>(
    items: readonly C[],
    problemOf: (item: C) => MachineRejection | null,
    apply: (
      engine: unknown,
      round: NonNullable<TableState['round']>,
      items: C[],
    ) => AdapterBatchStep<unknown>,
    replyOf: (item: C, roundId: string) => Record<string, unknown>,
  ): ItemResult[] {
    const results: ItemResult[] = new Array(items.length);
    const candidates: C[] = [];
    const at: number[] = [];
    items.forEach((item, i) => {
      const problem = problemOf(item);
      if (problem) results[i] = { accepted: false, ...problem };
      else {
        candidates.push(item);
        at.push(i);
      }
    });
    const round = this.state.round;
    if (candidates.length > 0 && round) {
      const batch = apply(round.engine, round, candidates);
      this.absorb(batch.step);
      batch.results.forEach((problem, k) => {
        results[at[k]] = problem
          ? { accepted: false, code: problem.code, message: problem.message }
          : { accepted: true, reply: replyOf(candidates[k], round.id) };
      });
    }
    return results;
  }

  /** Why the table refuses this bet before the game sees it (paused, wrong round, limits). */
  private betProblem(bet: BetCommand): MachineRejection | null {
    if (this.state.paused)
      return { code: 'table-paused', message: 'The table is paused; no bets now' };
    const round = this.state.round;
    if (bet.roundId && bet.roundId !== round?.id) {
      if (bet.roundId === this.state.lastRoundId) {
        return {
          code: 'betting-closed',
          message: `Round ${bet.roundId} has ended; betting is closed`,
        };
      }
      return this.unknownRound(bet.roundId);
    }
    if (!round || !this.adapter.isBettingOpen(round.engine)) {
      return { code: 'betting-closed', message: 'Betting is closed for this round' };
    }
    if (!Number.isSafeInteger(bet.amount) || bet.amount <= 0) {
      return {
        code: 'invalid-amount',
        message: 'The amount must be a positive whole number of minor units',
      };
    }
    const parts: Array<[string, number]> = [
      [bet.betType, bet.amount],
      ...Object.entries(bet.sideBets ?? {}).filter(([, amount]) => amount !== 0),
    ];
    for (const [betType, amount] of parts) {
      if (!Number.isSafeInteger(amount) || amount <= 0) {
        return {
          code: 'invalid-amount',
          message: `The ${betType} amount must be a positive whole number of minor units`,
        };
      }
      const limit = this.settings.limits[betType];
      if (limit && amount < limit.min) {
        return {
          code: 'under-limit',
          message: `The minimum ${betType} bet is ${limit.min} (got ${amount})`,
        };
      }
      if (limit && amount > limit.max) {
        return {
          code: 'over-limit',
          message: `The maximum ${betType} bet is ${limit.max} (got ${amount})`,
        };
      }
      if (!isSideBetOffered(this.adapter.shoeRules, betType, round.roundNumber)) {
        return {
          code: 'side-bet-not-offered',
          message: `The ${betType} bet is not offered after round ${this.adapter.shoeRules.sideBetLastRound[betType]} of the shoe`,
        };
      }
    }
    return null;
  }

  decide(decision: DecisionCommand): void {
    const problem = this.decisionProblem(decision);
    if (problem) return this.reject(problem.code, problem.message);
    const round = this.state.round!;
    if (this.applyRound(this.adapter.decide(round.engine, decision))) {
      this.reply = { roundId: round.id };
    }
  }

  /** Many decisions in one adapter step (adapter.decideMany), answered one by one. */
  decisions(decisions: readonly DecisionCommand[]): ItemResult[] {
    return this.inOneStep(
      decisions,
      (decision) => this.decisionProblem(decision),
      (engine, _round, accepted) => this.adapter.decideMany!(engine, accepted),
      (_decision, roundId) => ({ roundId }),
    );
  }

  private decisionProblem(decision: DecisionCommand): MachineRejection | null {
    if (this.state.paused)
      return { code: 'table-paused', message: 'The table is paused; decisions wait' };
    const round = this.state.round;
    if (decision.roundId && decision.roundId !== round?.id) {
      if (decision.roundId === this.state.lastRoundId) {
        return { code: 'round-over', message: `Round ${decision.roundId} has ended` };
      }
      return this.unknownRound(decision.roundId);
    }
    if (!round) return { code: 'no-round', message: 'No round is in progress' };
    return null;
  }

  /** A command addressed to a round that is not the one in progress (late, or made up). */
  private unknownRound(roundId: string): MachineRejection {
    return {
      code: 'unknown-round',
      message: `Round ${roundId} is not in progress at this table${this.state.round ? ` (round ${this.state.round.id} is)` : ''}`,
    };
  }

  closeBetting(by: string): void {
    const round = this.state.round;
    if (!round || !this.adapter.isBettingOpen(round.engine)) {
      return this.reject('betting-closed', 'Betting is not open');
    }
    if (this.applyRound(this.adapter.closeBetting(round.engine))) {
      this.emit({ type: 'BettingClosedByDealer', visibility: 'restricted', payload: {} }, by);
    }
  }

  timer(name: string, token: number): void {
    const pending = this.state.timers.find((t) => t.name === name && t.token === token);
    if (!pending || this.state.paused) return; // stale or paused: nothing to do
    this.state = { ...this.state, timers: this.state.timers.filter((t) => t !== pending) };
    if (name === ROUND_TIMER) {
      const shoe = this.state.shoe;
      if (!this.state.round && shoe?.state.phase === 'between-rounds') this.startRound();
      return;
    }
    const round = this.state.round;
    if (!round) return;
    this.applyRound(this.adapter.timerFired(round.engine, name, token));
  }

  /** Time passes: escalates a rescan that has taken too long. */
  tick(): void {
    const result = ingest(
      this.state.ingestion,
      { type: 'tick', at: this.ctx.now },
      this.settings.ingestion,
    );
    if ('rejected' in result) return;
    this.state = { ...this.state, ingestion: result.state };
    for (const effect of result.effects) this.ingestionEffect(effect, null, this.state.ingestion);
  }

  cutCard(by: string): void {
    const shoe = this.state.shoe;
    if (!shoe) return this.reject('no-shoe', 'No shoe is open');
    const result = applyShoeInput(shoe.state, { type: 'cut-card-drawn' } as ShoeInput);
    if ('rejected' in result) return this.reject(result.rejected.code, result.rejected.message);
    this.state = { ...this.state, shoe: { id: shoe.id, state: result.state } };
    const declared = result.effects.find((e) => e.type === 'last-round-declared');
    this.publicEvent(
      'LastRoundOfShoe',
      { roundNumber: declared && 'roundNumber' in declared ? declared.roundNumber : null },
      by,
    );
  }

  pause(kind: PauseInfo['kind'], by: string, reason: string): void {
    if (this.state.paused) {
      if (kind === 'escalation') return;
      return this.reject(
        'already-paused',
        `The table is already paused (${this.state.paused.reason})`,
      );
    }
    const timersRemaining = this.state.timers.map((t) => ({
      name: t.name,
      token: t.token,
      remainingMs: Math.max(0, t.dueAt - this.ctx.now),
    }));
    this.state = {
      ...this.state,
      paused: { kind, reason, by, at: new Date(this.ctx.now).toISOString(), timersRemaining },
      timers: [],
    };
    if (this.state.round) {
      this.writes.roundStatus = {
        id: this.state.round.id,
        status: 'paused',
        phase: this.adapter.phase(this.state.round.engine),
        ended: false,
      };
    }
    this.publicEvent('RoundPaused', { kind, reason }, by);
    if (kind === 'supervisor') {
      this.writes.supervisorAction = {
        action: 'pause',
        reason,
        actor: by,
        roundId: this.roundId,
        details: {},
      };
    }
  }

  resume(by: string): void {
    const paused = this.state.paused;
    if (!paused) return this.reject('not-paused', 'The table is not paused');
    let ingestion = this.state.ingestion;
    if (ingestion.slot?.escalated) ingestion = ingestOk(ingestion, { type: 'supervisor-resolved' });
    this.state = {
      ...this.state,
      ingestion,
      paused: null,
      timers: paused.timersRemaining.map((t) => ({
        name: t.name,
        token: t.token,
        dueAt: this.ctx.now + t.remainingMs,
      })),
    };
    if (this.state.round) {
      this.writes.roundStatus = {
        id: this.state.round.id,
        status: 'in-progress',
        phase: this.adapter.phase(this.state.round.engine),
        ended: false,
      };
    }
    this.publicEvent('RoundResumed', { pausedFor: paused.reason }, by);
    this.writes.supervisorAction = {
      action: 'resume',
      reason: null,
      actor: by,
      roundId: this.roundId,
      details: { pauseKind: paused.kind, pauseReason: paused.reason },
    };
  }

  voidRound(
    by: string,
    reason: string,
    approval?: { requestId: string; approvedBy: string; roundId: string },
  ): void {
    const round = this.state.round;
    if (!round) return this.reject('no-round', 'No round is in progress to void');
    if (approval && approval.roundId !== round.id) {
      return this.reject(
        'unknown-round',
        `The void request was for round ${approval.roundId}, which has ended`,
      );
    }
    if (!reason.trim()) return this.reject('reason-required', 'A void needs a reason');
    const result = this.adapter.voidRound(round.engine, reason);
    if ('rejected' in result) return this.reject(result.rejected.code, result.rejected.message);
    const wasPaused = this.state.paused;
    this.state = {
      ...this.state,
      paused: null,
      timers: this.state.timers.filter((t) => t.name === ROUND_TIMER),
    };
    if (wasPaused?.kind === 'escalation' || this.state.ingestion.slot) {
      this.state = { ...this.state, ingestion: { ...this.state.ingestion, slot: null } };
    }
    this.absorb(result);
    this.publicEvent(
      'RoundVoided',
      { reason, ...(approval ? { approvedBy: approval.approvedBy } : {}) },
      by,
    );
    this.writes.supervisorAction = {
      action: 'void',
      reason,
      actor: by,
      roundId: round.id,
      details: {},
      ...(approval
        ? { approval: { requestId: approval.requestId, approvedBy: approval.approvedBy } }
        : {}),
    };
    this.writes.roundStatus = {
      id: round.id,
      status: 'voided',
      phase: 'voided',
      ended: true,
      voidReason: reason,
      finalState: result.state,
    };
  }

  correctCard(by: string, slot: string, cardText: string, reason: string): void {
    const round = this.state.round;
    const parsed = parseCardCode(cardText);
    if (!parsed) return this.reject('invalid-card', `Not a card code: "${cardText}"`);
    if (!reason.trim()) return this.reject('reason-required', 'A correction needs a reason');
    const old = this.state.faceDownCards[slot];
    if (!round || !old) {
      return this.reject(
        'not-correctable',
        `Slot ${slot} holds no face-down card of the current round (only unrevealed cards can be corrected)`,
      );
    }
    if (!this.adapter.correctCard) {
      return this.reject(
        'not-correctable',
        `${this.settings.game} does not support card correction`,
      );
    }
    const card = `${parsed.rank}${parsed.suit}` as CardCode;
    const shoe = this.state.shoe!;
    const counts = [...shoe.state.composition.counts];
    counts[cardIndex(parseCardCode(old)!)] -= 1;
    if (counts[cardIndex(parsed)] >= shoe.state.composition.deckCount) {
      return this.reject(
        'composition-exceeded',
        'This shoe already produced every copy of the replacement card',
      );
    }
    counts[cardIndex(parsed)] += 1;
    const result = this.adapter.correctCard(round.engine, slot, card);
    if ('rejected' in result) return this.reject(result.rejected.code, result.rejected.message);
    this.state = {
      ...this.state,
      shoe: {
        id: shoe.id,
        state: { ...shoe.state, composition: { ...shoe.state.composition, counts } },
      },
      ingestion: { ...this.state.ingestion, counts },
      round: { ...round, engine: result.state },
      faceDownCards: { ...this.state.faceDownCards, [slot]: card },
    };
    this.writes.corrections.push({ slot, roundId: round.id, card, reason });
    this.emit(
      {
        type: 'CardCorrected',
        visibility: 'restricted',
        payload: { slot, from: old, to: card, reason },
      },
      by,
    );
    this.publicEvent('CardCorrectedFaceDown', { slot }, by);
    this.writes.supervisorAction = {
      action: 'correct-card',
      reason,
      actor: by,
      roundId: round.id,
      details: { slot },
    };
  }

  endShoe(by: string, reason: string): void {
    if (this.state.round) {
      return this.reject(
        'round-in-progress',
        'Finish or void the current round before ending the shoe',
      );
    }
    const shoe = this.state.shoe;
    if (!shoe) return this.reject('no-shoe', 'No shoe is open');
    if (!reason.trim()) return this.reject('reason-required', 'Ending a shoe needs a reason');
    this.writes.supervisorAction = {
      action: 'end-shoe',
      reason,
      actor: by,
      roundId: null,
      details: { shoeId: shoe.id },
    };
    this.state = { ...this.state, timers: this.state.timers.filter((t) => t.name !== ROUND_TIMER) };
    this.finishShoe('closed');
  }
}

function ingestOk(state: IngestionState, input: Parameters<typeof ingest>[1]): IngestionState {
  const result = ingest(state, input);
  return 'rejected' in result ? state : result.state;
}
