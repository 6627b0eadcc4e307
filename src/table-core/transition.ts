import type {
  RoundEvent,
  AdapterResult,
  AdapterStep,
  GameAdapter,
  SettlementRecord,
} from '../games/game-adapter';
import type { MachineContext, MachineOutcome, MachineRejection } from './table-input';
import { totalsPerCurrency } from './currency-totals';
import {
  currenciesOf,
  playerCurrency,
  RoundState,
  roundOf,
  TableSettings,
  TableState,
  withRound,
} from './table-state';
import { platformOfKey } from '../common/player-key';
import { withPlatformPlayers } from './player-names';
import { emptyWrites } from './table-writes';

/** The timer that starts the next round. */
export const ROUND_TIMER = 'next-round';
/** Settlements per BetsSettled / BetsRefunded event. */
const SETTLEMENT_BATCH = 500;

/**
 * One transition in progress, shared by the input handlers (readings, commands, supervision,
 * time): accumulates the new state, the writes, a refusal and the caller's answer.
 */
export class Transition {
  state: TableState;
  readonly writes = emptyWrites();
  rejection?: MachineRejection;
  reply?: Record<string, unknown>;

  constructor(
    readonly settings: TableSettings,
    readonly adapter: GameAdapter,
    initial: TableState,
    readonly ctx: MachineContext,
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

  reject(code: string, message: string): void {
    this.rejection = { code, message };
  }

  get round(): RoundState | null {
    return roundOf(this.state);
  }

  get paused(): boolean {
    return this.state.phase.kind === 'paused';
  }

  get roundId(): string | null {
    return this.round?.id ?? null;
  }

  emit(event: RoundEvent, actor?: string): void {
    const payload = withPlatformPlayers(event.payload);
    this.writes.events.push({
      ...event,
      payload,
      roundId: this.roundId,
      ...(actor ? { actor } : {}),
    });
  }

  publicEvent(type: string, payload: Record<string, unknown>, actor?: string): void {
    this.emit({ type, visibility: 'public', payload }, actor);
  }

  /** An adapter's answer: folded in, or the input refused with the game's reason. */
  applyRound(result: AdapterResult<unknown>, readingId: string | null = null): boolean {
    if ('rejected' in result) {
      this.reject(result.rejected.code, result.rejected.message);
      return false;
    }
    this.absorb(result, readingId);
    return true;
  }

  /** Folds an adapter step into the state and the writes. */
  absorb(step: AdapterStep<unknown>, readingId: string | null = null): void {
    const round = this.round!;
    this.state = withRound(this.state, (r) => ({ ...r, engine: step.state }));
    this.absorbCards(step, round.id, readingId);
    // Each bet and settlement is in its player's currency this round (the table's default unless
    // the round recorded another): the games know nothing of currencies.
    const currency = (player: string) => playerCurrency(this.settings, round, player);
    // A row per bet, decision and settlement: built with Object.assign, not `{ ...row, more }`
    // (V8 adds a property to a spread copy slowly, about 1 µs each, with a new hidden class).
    for (const bet of step.bets ?? []) {
      this.writes.bets.push(
        Object.assign({}, bet, { currency: currency(bet.playerId), roundId: round.id }),
      );
    }
    for (const d of step.decisions ?? [])
      this.writes.decisions.push(Object.assign({}, d, { roundId: round.id }));
    const settlements = (step.settlements ?? []).map((s) =>
      Object.assign({}, s, { currency: currency(s.playerId) }),
    );
    // A table of several currencies: no round figure adds two currencies together.
    const several = currenciesOf(this.settings).length > 1;
    for (const event of step.events) {
      const named = withCancelledCurrency(event, currency);
      this.emit(several ? totalsPerCurrency(named, settlements) : named);
    }
    for (const s of settlements)
      this.writes.settlements.push(Object.assign({}, s, { roundId: round.id }));
    if (settlements.length > 0) this.announceSettlements(settlements, step.state);
    for (const c of step.cancellations ?? [])
      this.writes.settlements.push(Object.assign({}, c, { roundId: round.id }));
    this.absorbTimers(step);
  }

  private absorbCards(step: AdapterStep<unknown>, roundId: string, readingId: string | null) {
    for (const card of step.cards ?? []) {
      this.writes.cards.push({ ...card, roundId, shoeId: this.state.shoe!.id, readingId });
      if (card.faceDown) {
        this.state = {
          ...this.state,
          faceDownCards: { ...this.state.faceDownCards, [card.slot]: card.card },
        };
      }
    }
    for (const slot of step.reveals ?? []) {
      this.writes.reveals.push({ roundId, slot });
      const rest = { ...this.state.faceDownCards };
      delete rest[slot];
      this.state = { ...this.state, faceDownCards: rest };
    }
  }

  private absorbTimers(step: AdapterStep<unknown>): void {
    const cancel = new Set([
      ...(step.cancelTimers ?? []),
      ...(step.timers ?? []).map((t) => t.name),
    ]);
    let timers = this.state.timers.filter((t) => !cancel.has(t.name));
    for (const t of step.timers ?? []) {
      timers = [...timers, { name: t.name, token: t.token, dueAt: this.ctx.now + t.durationMs }];
    }
    this.state = { ...this.state, timers };
  }

  /**
   * Every bet's settlement goes to the platforms, in batches so a round with a million players
   * makes many moderate messages rather than one enormous one (games of every kind alike). Each
   * batch holds one platform's players only and is numbered among that platform's batches of the
   * round, so a platform that received batch k of n for every k has all its settlements; the
   * shared topic carries the event without the list and without those numbers (EVENT_VISIBILITY).
   */
  private announceSettlements(settlements: readonly SettlementRecord[], engine: unknown): void {
    const voided = this.adapter.phase(engine) === 'voided';
    for (const own of byPlatform(settlements)) {
      const batches = Math.ceil(own.length / SETTLEMENT_BATCH);
      for (let b = 0; b < batches; b += 1) {
        this.publicEvent(voided ? 'BetsRefunded' : 'BetsSettled', {
          batch: b + 1,
          batches,
          settlements: own.slice(b * SETTLEMENT_BATCH, (b + 1) * SETTLEMENT_BATCH).map((s) => ({
            betId: s.betId,
            playerId: s.playerId,
            betType: s.betType,
            spot: s.spot,
            stake: s.stake,
            returned: s.returned,
            net: s.net,
            outcome: s.outcome,
            roundedDown: s.roundedDown,
            currency: s.currency,
          })),
        });
      }
    }
  }
}

/** The settlements of each platform (in the order each first appears), each in its own order. */
function byPlatform(settlements: readonly SettlementRecord[]): SettlementRecord[][] {
  const groups = new Map<string, SettlementRecord[]>();
  for (const s of settlements) {
    const platformId = platformOfKey(s.playerId);
    let own = groups.get(platformId);
    if (!own) groups.set(platformId, (own = []));
    own.push(s);
  }
  return [...groups.values()];
}

/**
 * A cancelled bet's announcement names the currency its `returned` is credited in (2.4), as each
 * settlement does: the game that builds it knows no currency, and on a table of several a wallet
 * could otherwise only guess it from its own debit.
 */
function withCancelledCurrency(
  event: RoundEvent,
  currency: (player: string) => string,
): RoundEvent {
  if (event.type !== 'BetCancelled') return event;
  const payload = event.payload as { playerId: string };
  return { ...event, payload: { ...event.payload, currency: currency(payload.playerId) } };
}
