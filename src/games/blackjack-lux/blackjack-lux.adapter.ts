import { spotNumber } from '../spot-number';
import { cardCode, CardCode, parseCardCode } from '@studio/cards';
import {
  BlackjackRules,
  dealerPeeks,
  DEFAULT_LUX_CONFIG,
  EventEffect,
  LUX_SEAT_COUNT,
  LuxCancelledBet,
  LuxConfig,
  LuxCurrencyLimits,
  LuxLimits,
  LuxEffect,
  LuxInput,
  luxDealerCards,
  luxExpectedCard,
  luxPublicView,
  LuxSettlementRecord,
  LuxState,
  newLuxTable,
  luxDecisionInput,
  luxHandIndexOf,
  placeLuxBet,
  refuseLuxSeatBet,
  rulesFor,
  stepLux,
  TimerName,
} from '@studio/games/blackjack';
import { BlackjackAdapter } from '../blackjack/blackjack-adapter';
import { dealerSlot, holeCardChecked, onlyTheHoleCard } from '../blackjack/dealer-card';
import { recordEngineStep } from '../blackjack/engine-effects';
import { blackjackHandRecord, playerHandRecords, withDealtCard } from '../blackjack/hand-records';
import { fractionSum, outcomeText, settlementRow } from '../blackjack/settlement-rows';
import {
  AdapterResult,
  AdapterStep,
  BetCommand,
  BetRecord,
  betCancelledEvent,
  CancelCommand,
  cancelledRow,
  DecisionCommand,
  DecisionRecord,
  ExpectedCard,
  GameAdapter,
  HandRecord,
  rejection,
  RoundStart,
  SettlementRecord,
} from '../game-adapter';

export interface LuxTableSettings {
  bettingWindowMs: number;
  decisionWindowMs: number;
  /** Table limits by bet type (`main`, `bet-behind`, `pairs`); the engine enforces the same. */
  limits?: Record<string, { min: number; max: number }>;
  /** Limits per currency, then bet type: a table of several currencies (each bet in its own). */
  limitsByCurrency?: Record<string, Record<string, { min: number; max: number }>>;
  /** Rule overrides (games.md provisional options) and `maxSeatsPerPlayer` (Default 2). */
  rules?: Record<string, unknown>;
}

/** Which phase a timer closes: a timer that fires in another phase is stale. */
const TIMER_PHASE: Record<string, LuxState['phase']> = {
  betting: 'betting',
  insurance: 'insurance',
  decision: 'playing',
};

/**
 * Blackjack Lux (games.md section 3) for the table runtime.
 *
 * Bets (`BetCommand.spot` is always the seat, "1".."7"):
 * - `main`: the seat bet; it takes the free seat for this round (games.md: "A player occupies a
 *   seat by placing a seat bet"). `sideBets: {pairs}` may come with it.
 * - `bet-behind`: a main bet behind the seat (any player but the seated one); `sideBets: {pairs}`.
 * - `pairs`: the pair bet on the seat, by the seated player or as a bet behind (pairs only).
 * - `insurance` is not placed: it is a decision; its bet row appears when the window closes.
 *
 * Decisions (`DecisionCommand.seat` names the seat; it may be left out when the player has only
 * one seat the action can apply to):
 * - `hit`, `stand`, `double`, `split`, `surrender`: the seated player on their turn;
 * - `insurance`, `no-insurance`: seated players and bettors behind, in the insurance window;
 * - `follow-double`, `no-follow-double`, `follow-split`, `no-follow-split`: a bettor behind's
 *   own choices (no answer: does not follow);
 * - `pre:hit`, `pre:stand`, `pre:double`, `pre:split`, `pre:surrender`, `pre:none`: set, change
 *   or clear the seated player's pre-decision before the turn starts;
 * - `leave-seat`: give up a seat that holds no bet.
 *
 * Decision rows carry the seat in `hand` (`"3"`, or `"3/2"` for the seat's second hand), so a
 * stored round can be replayed. Automatic plays after a missed decision are recorded with
 * `automatic: true`. Seats outlive the round (`keepsStateBetweenRounds`): the seat rules (who may
 * bet on which seat, removal of a refused seat bet, the one round of grace) are the engine's
 * (libs/games/src/blackjack/lux/seat-commands.ts and engine.ts).
 */
/**
 * A table of several currencies gives the engine each currency's limits (a single-currency table
 * keeps its engine configuration, and so its stored rounds, exactly as before).
 */
function luxCurrencyLimits(
  byCurrency: LuxTableSettings['limitsByCurrency'],
): Pick<LuxConfig, 'limitsByCurrency'> {
  if (!byCurrency || Object.keys(byCurrency).length < 2) return {};
  const range = (
    l: Record<string, { min: number; max: number }>,
    type: string,
    fallback: LuxLimits,
  ) => (Object.hasOwn(l, type) ? l[type] : fallback);
  const limitsByCurrency: Record<string, LuxCurrencyLimits> = {};
  for (const [currency, l] of Object.entries(byCurrency)) {
    limitsByCurrency[currency] = {
      seatBet: range(l, 'main', DEFAULT_LUX_CONFIG.seatBet),
      betBehind: range(l, 'bet-behind', DEFAULT_LUX_CONFIG.betBehind),
      pairBet: range(l, 'pairs', DEFAULT_LUX_CONFIG.pairBet),
    };
  }
  return { limitsByCurrency };
}

export class BlackjackLuxAdapter
  extends BlackjackAdapter<LuxState>
  implements GameAdapter<LuxState>
{
  readonly game = 'blackjack-lux' as const;
  private readonly config: Partial<LuxConfig>;

  constructor(settings: LuxTableSettings) {
    const { maxSeatsPerPlayer, ...ruleOverrides } = settings.rules ?? {};
    const rules = rulesFor('lux', ruleOverrides as Partial<Omit<BlackjackRules, 'variant'>>);
    super(rules.decks);
    const limits = settings.limits ?? {};
    this.config = {
      rules,
      bettingWindowMs: settings.bettingWindowMs,
      decisionWindowMs: settings.decisionWindowMs,
      insuranceWindowMs: settings.decisionWindowMs,
      ...(typeof maxSeatsPerPlayer === 'number' ? { maxSeatsPerPlayer } : {}),
      ...(limits.main ? { seatBet: limits.main } : {}),
      ...(limits['bet-behind'] ? { betBehind: limits['bet-behind'] } : {}),
      ...(limits.pairs ? { pairBet: limits.pairs } : {}),
      ...luxCurrencyLimits(settings.limitsByCurrency),
    };
  }

  /** Seats outlive the round: seated players keep their seat, with one round of grace. */
  readonly keepsStateBetweenRounds = true;

  startRound(start: RoundStart, previous?: LuxState): AdapterResult<LuxState> {
    return this.step(previous ?? newLuxTable(this.config), {
      type: 'open-betting',
      roundId: start.roundId,
      roundOfShoe: start.roundNumber,
    });
  }

  expectedCard(state: LuxState): ExpectedCard | null {
    const e = luxExpectedCard(state);
    if (!e) return null;
    switch (e.slot) {
      case 'seat': {
        // Numbered by the seat's cards, not the hand's: after a split a hand's second card
        // would otherwise reuse the slot of the card the split moved away.
        const n = state.seats[e.seat - 1].hands.reduce((sum, h) => sum + h.cards.length, 0) + 1;
        return {
          slot: `seat-${e.seat}/${e.hand + 1}/${n}`,
          label: `Seat ${e.seat}${e.hand > 0 ? ` hand ${e.hand + 1}` : ''}, card ${e.position}`,
        };
      }
      default:
        return dealerSlot(e);
    }
  }

  card(state: LuxState, card: CardCode): AdapterResult<LuxState> {
    const expected = this.expectedCard(state);
    return withDealtCard(this.step(state, { type: 'card', card }), expected, card);
  }

  placeBet(state: LuxState, bet: BetCommand): AdapterResult<LuxState> {
    const seatNo = spotNumber(bet.spot);
    if (!bet.spot || !Number.isInteger(seatNo) || seatNo < 1 || seatNo > LUX_SEAT_COUNT) {
      return rejection('unknown-seat', `Lux bets name a seat 1-${LUX_SEAT_COUNT} in "spot"`);
    }
    const extra = Object.keys(bet.sideBets ?? {}).filter((k) => k !== 'pairs');
    if (extra.length) {
      return rejection(
        'unknown-bet-type',
        `${extra.join(', ')} is not a side bet of Blackjack Lux`,
      );
    }
    const placed = placeLuxBet(state, {
      playerId: bet.playerId,
      betType: bet.betType,
      seat: seatNo,
      amount: bet.amount,
      sidePairs: bet.sideBets?.pairs ?? 0,
      ...(bet.currency ? { currency: bet.currency } : {}),
    });
    if ('rejected' in placed) return { rejected: { ...placed.rejected } };
    const result = this.translateStep(state, placed);
    result.bets = placed.placed.map(([betType, amount]) => ({
      betId: luxBetIdOf(state.roundId!, bet.playerId, seatNo, betType),
      playerId: bet.playerId,
      commandId: bet.commandId,
      betType,
      spot: String(seatNo),
      amount,
      deducted: amount,
    }));
    return result;
  }

  /**
   * A seat bet the table refused (e.g. below the table minimum) from the seat's holder: the
   * engine records it, and the player loses the seat when the betting countdown ends.
   */
  betRefused(state: LuxState, bet: BetCommand): AdapterResult<LuxState> | null {
    if (bet.betType !== 'main') return null;
    const input = refuseLuxSeatBet(state, bet.playerId, spotNumber(bet.spot), 'below-minimum');
    return input ? this.step(state, input) : null;
  }

  /**
   * A bet on a seat taken back (its first row names seat and type): a seat bet takes its pairs
   * along, empties the seat and returns the bets behind it (the engine's cancel-bet).
   */
  cancelBet(state: LuxState, cancel: CancelCommand): AdapterResult<LuxState> {
    const seat = spotNumber(cancel.bet.spot ?? undefined);
    const betType = cancel.bet.betType as LuxCancelledBet;
    if (!['main', 'bet-behind', 'pairs'].includes(betType) || !Number.isInteger(seat)) {
      return rejection('unknown-bet', `No such bet on a seat: ${cancel.bet.betId}`);
    }
    const result = this.step(state, {
      type: 'cancel-bet',
      seat,
      playerId: cancel.playerId,
      betType,
    });
    if ('rejected' in result) return result;
    const cancelled = result.events.find((e) => e.type === 'BetCancelled');
    const parts = (cancelled?.payload.parts ?? []) as Array<{ betType: string; amount: number }>;
    const rows = parts.map((p) =>
      cancelledRow(
        cancel.playerId,
        luxBetIdOf(state.roundId!, cancel.playerId, seat, p.betType),
        p.betType,
        String(seat),
        p.amount,
      ),
    );
    const events = result.events.map((e) =>
      e === cancelled ? betCancelledEvent(cancel, rows) : e,
    );
    return { ...result, events, cancellations: rows };
  }

  decide(state: LuxState, decision: DecisionCommand): AdapterResult<LuxState> {
    const { playerId, action } = decision;
    const seat = decision.seat !== undefined ? spotNumber(decision.seat) : undefined;
    // A seat named but not a seat number is that, not a seat left out ("name the seat").
    if (seat !== undefined && !Number.isInteger(seat)) {
      return rejection(
        'unknown-seat',
        `"${decision.seat}" names no seat: Lux seats are 1-${LUX_SEAT_COUNT}`,
      );
    }
    const mapped = luxDecisionInput(state, playerId, action, seat);
    if ('rejected' in mapped) return { rejected: { ...mapped.rejected } };
    const seatNo = (mapped.input as { seat: number }).seat;
    const hand = mapped.kind === 'play' ? luxHandIndexOf(state, seatNo) : -1;
    const result = this.step(state, mapped.input);
    if ('rejected' in result) return result;
    result.decisions = [
      {
        playerId,
        hand: hand >= 0 ? `${seatNo}/${hand + 1}` : String(seatNo),
        action,
        automatic: false,
        commandId: decision.commandId,
      },
      ...(result.decisions ?? []),
    ];
    return result;
  }

  closeBetting(state: LuxState): AdapterResult<LuxState> {
    const result = this.step(state, { type: 'close-betting' });
    if (!('rejected' in result)) result.cancelTimers = ['betting'];
    return result;
  }

  timerFired(state: LuxState, name: string, token: number): AdapterResult<LuxState> {
    // A window closed by other means (the dealer, every answer in) leaves its timer stale.
    if (TIMER_PHASE[name] !== state.phase || token !== state.window) return { state, events: [] };
    const result = this.step(state, { type: 'timeout', timer: name as TimerName, window: token });
    return 'rejected' in result ? { state, events: [] } : result;
  }

  autoStep(): null {
    return null;
  }

  voidRound(state: LuxState, reason: string): AdapterResult<LuxState> {
    return this.step(state, { type: 'void', reason });
  }

  correctCard(state: LuxState, slot: string, card: CardCode): AdapterResult<LuxState> {
    const { up, hole, holeRevealed } = state.dealer;
    if (slot !== 'dealer-hole' || !up || !hole || holeRevealed) return onlyTheHoleCard();
    // With a ten-value or ace up card the dealer checks the hole card as soon as insurance is
    // settled.
    if (dealerPeeks(up, state.config.rules) && state.phase !== 'insurance') {
      return holeCardChecked();
    }
    const parsed = parseCardCode(card);
    if (!parsed) return rejection('invalid-card', `Not a card code: ${card}`);
    const code = cardCode(parsed);
    const counts = { ...state.cardCounts, [hole]: (state.cardCounts[hole] ?? 1) - 1 };
    if ((counts[code] ?? 0) >= state.config.rules.decks) {
      return rejection('composition-exceeded', `${code} already came out ${counts[code]} times`);
    }
    counts[code] = (counts[code] ?? 0) + 1;
    return {
      state: { ...state, cardCounts: counts, dealer: { ...state.dealer, hole: code } },
      events: [],
    };
  }

  /** The dealer's hand and each active seat's hands, with the seated player as owner. */
  hands(state: LuxState): HandRecord[] {
    const rows: HandRecord[] = [blackjackHandRecord('dealer', null, luxDealerCards(state), null)];
    for (const seat of state.seats) {
      if (!seat.active || seat.hands.length === 0) continue;
      const main = state.settlement?.records.find(
        (r) => r.seat === seat.seat && r.role === 'seat' && r.bet === 'main',
      );
      const results = main && Array.isArray(main.result) ? (main.result as string[]) : null;
      rows.push(...playerHandRecords(`seat-${seat.seat}`, seat.playerId, seat.hands, results));
    }
    return rows;
  }

  publicView(state: LuxState): unknown {
    return luxPublicView(state);
  }

  private step(state: LuxState, input: LuxInput): AdapterResult<LuxState> {
    const result = stepLux(state, input);
    if ('rejected' in result) return { rejected: { ...result.rejected } };
    return this.translateStep(state, result);
  }

  private translateStep(
    state: LuxState,
    result: { state: LuxState; effects: readonly LuxEffect[] },
  ): AdapterStep<LuxState> {
    const out = recordEngineStep(result.state, result.effects, (effect, step) =>
      recordBeside(effect, state, result.state, step),
    );
    if (this.isRoundOver(result.state) && result.state.settlement) {
      out.settlements = result.state.settlement.records.map((r) =>
        settlementOf(result.state.roundId!, r),
      );
    }
    return out;
  }
}

/** Rows Lux records beside an event: insurance bets when the window closes, auto-plays. */
function recordBeside(
  effect: EventEffect,
  before: LuxState,
  state: LuxState,
  out: AdapterStep<LuxState>,
): void {
  if (effect.name === 'insurance-closed') out.bets = [...(out.bets ?? []), ...insuranceBets(state)];
  if (effect.name === 'auto-played') {
    const p = effect.payload as { seat: number; playerId: string; action: string };
    const decision: DecisionRecord = {
      playerId: p.playerId,
      hand: `${p.seat}/${luxHandIndexOf(before, p.seat) + 1}`,
      action: p.action,
      automatic: true,
    };
    out.decisions = [...(out.decisions ?? []), decision];
  }
}

/** Insurance stakes become bets when the window closes (half the main stake, rounded down). */
function insuranceBets(state: LuxState): BetRecord[] {
  const rows: BetRecord[] = [];
  for (const s of state.seats) {
    if (s.insurance > 0 && s.playerId) {
      rows.push(insuranceRow(state.roundId!, s.playerId, s.seat, s.insurance));
    }
    for (const b of s.behind) {
      if (b.insurance > 0) rows.push(insuranceRow(state.roundId!, b.playerId, s.seat, b.insurance));
    }
  }
  return rows;
}

function insuranceRow(roundId: string, playerId: string, seat: number, amount: number): BetRecord {
  return {
    betId: luxBetIdOf(roundId, playerId, seat, 'insurance'),
    playerId,
    betType: 'insurance',
    spot: String(seat),
    amount,
    deducted: amount,
  };
}

/**
 * Unique per round: a player bets at most once per bet type on a seat, and is either the seated
 * player or a bettor behind there, never both.
 */
export function luxBetIdOf(
  roundId: string,
  playerId: string,
  seat: number,
  betType: string,
): string {
  return `${roundId}/${playerId}/seat-${seat}/${betType}`;
}

/** The bet type as the platform placed it: a main bet behind is `bet-behind`. */
function betTypeOf(r: LuxSettlementRecord): string {
  return r.role === 'behind' && r.bet === 'main' ? 'bet-behind' : r.bet;
}

function settlementOf(roundId: string, r: LuxSettlementRecord): SettlementRecord {
  const betType = betTypeOf(r);
  const outcome = outcomeText(r.result);
  return settlementRow(
    {
      betId: luxBetIdOf(roundId, r.playerId, r.seat, betType),
      playerId: r.playerId,
      betType,
      spot: String(r.seat),
    },
    r,
    // The store marks `void-refund` bets refunded; the engine says `void`.
    outcome === 'void' ? 'void-refund' : outcome,
    fractionSum(r.rounding),
  );
}
