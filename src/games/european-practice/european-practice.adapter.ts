import { spotNumber } from '../spot-number';
import type { CardCode } from '@studio/cards';
import {
  BlackjackRules,
  botDecision,
  botView,
  DEFAULT_EUROPEAN_CONFIG,
  EuropeanBet,
  EuropeanEffect,
  europeanExpectedCard,
  EuropeanRoundInput,
  isPlayerAction,
  isRejection,
  newEuropeanTable,
  rulesFor,
  seatToAct,
  stepEuropeanRound,
} from '@studio/games/blackjack';
import { BlackjackAdapter } from '../blackjack/blackjack-adapter';
import { roundEventOf } from '../blackjack/engine-effects';
import { blackjackHandRecord, playerHandRecords } from '../blackjack/hand-records';
import { settlementRow } from '../blackjack/settlement-rows';
import {
  AdapterResult,
  AdapterStep,
  BetCommand,
  CancelCommand,
  CardRecord,
  DecisionCommand,
  DecisionRecord,
  ExpectedCard,
  GameAdapter,
  HandRecord,
  publicEvent,
  rejection,
  RoundEvent,
  RoundStart,
  SettlementRecord,
} from '../game-adapter';
import { BOT_STAKE, parseBots, PracticeBot } from './european-practice.bots';
import { cancelPracticeBet, wasCancelled } from './european-practice.cancel';
import { handOf, practiceBetIdOf, settlementsFrom, slotName } from './european-practice.records';
import { PracticePhase, PracticeSeatBet, PracticeState } from './european-practice.state';

export interface PracticeTableSettings {
  bettingWindowMs: number;
  decisionWindowMs: number;
  /** `bots: [{seat, level}]` (Default: seat 1 easy, seat 2 hard) and rule overrides. */
  rules?: Record<string, unknown>;
}

/**
 * European Blackjack practice table (games.md section 4) for the table runtime. The service deals
 * (`dealsOwnCards`): the table machine shuffles the shoe with a CSPRNG, records the order and
 * hands the adapter one card at a time for the slot `expectedCard` names.
 *
 * The engine takes cards as inputs like the other engines: `europeanExpectedCard` names where the
 * next card goes (a seat's hand, the dealer's up, hidden or drawn card), the adapter turns that
 * into a slot and feeds the card the table deals. The engine's own `round-started` record is not
 * published: the table announces each round once (`RoundStarted`).
 *
 * Bots sit on the seats of `rules.bots`, stake 1 unit a round and play in `autoStep`, each from
 * its player view only. A human bets `main` (any amount within the limits) on a free seat ("1"..
 * "7"; none named: the lowest free seat) and decides `hit` / `stand` / `double` / `split`. Bot
 * bets, decisions and settlements are recorded under `bot:<seat>`.
 */
export class EuropeanPracticeAdapter
  extends BlackjackAdapter<PracticeState>
  implements GameAdapter<PracticeState>
{
  readonly game = 'european-blackjack-practice' as const;
  readonly dealsOwnCards = true;
  readonly bots: readonly PracticeBot[];
  private readonly rules: BlackjackRules;

  constructor(private readonly settings: PracticeTableSettings) {
    const { bots, ...ruleOverrides } = settings.rules ?? {};
    const rules = rulesFor(
      'european-practice',
      ruleOverrides as Partial<Omit<BlackjackRules, 'variant'>>,
    );
    super(rules.decks);
    this.bots = parseBots(bots);
    this.rules = rules;
  }

  startRound(start: RoundStart): AdapterResult<PracticeState> {
    const state: PracticeState = {
      roundId: start.roundId,
      roundOfShoe: start.roundNumber,
      phase: 'betting',
      window: 0,
      bets: this.bots.map((b) => ({
        seat: b.seat,
        playerId: botId(b.seat),
        bot: b.level,
        stake: BOT_STAKE,
      })),
      dealt: [],
      engine: null,
      voidReason: null,
    };
    return {
      state,
      events: [
        publicEvent('BettingOpened', {
          roundId: start.roundId,
          bots: this.bots.map((b) => ({ seat: b.seat, level: b.level })),
        }),
      ],
      timers: [{ name: 'betting', durationMs: this.settings.bettingWindowMs, token: 0 }],
      bets: state.bets.map((b) => ({
        betId: practiceBetIdOf(start.roundId, b.playerId, b.seat),
        playerId: b.playerId,
        betType: 'main',
        spot: String(b.seat),
        amount: b.stake,
        deducted: b.stake,
      })),
    };
  }

  expectedCard(state: PracticeState): ExpectedCard | null {
    if ((state.phase !== 'dealing' && state.phase !== 'playing') || !state.engine) return null;
    const slot = europeanExpectedCard(state.engine);
    return slot ? slotName(state.dealt, slot) : null;
  }

  card(state: PracticeState, card: CardCode): AdapterResult<PracticeState> {
    const slot = this.expectedCard(state);
    if (!slot) return rejection('no-card-expected', `No card is expected (${state.phase})`);
    const dealt = [...state.dealt, { slot: slot.slot, card }];
    const faceDown = slot.slot === 'dealer-hole';
    const record: CardRecord = { slot: slot.slot, card, faceDown };
    const events: RoundEvent[] = faceDown
      ? [publicEvent('CardDealtFaceDown', { slot: slot.slot })]
      : [];
    const result = this.run({ ...state, dealt }, { type: 'card', card }, null);
    if ('rejected' in result) return result;
    return {
      ...result,
      events: [...events, ...result.events],
      cards: [record],
    };
  }

  placeBet(state: PracticeState, bet: BetCommand): AdapterResult<PracticeState> {
    if (state.phase !== 'betting') return rejection('betting-closed', 'Betting is closed');
    if (bet.betType !== 'main') {
      return rejection(
        'unknown-bet-type',
        'The practice table takes one "main" bet per seat: no side bets, no insurance',
      );
    }
    if (bet.sideBets && Object.values(bet.sideBets).some((v) => v)) {
      return rejection('unknown-bet-type', 'The practice table has no side bets');
    }
    if (bet.playerId.startsWith('bot:')) {
      return rejection('invalid-command', 'Player ids starting with "bot:" are the bots\'');
    }
    const taken = new Set(state.bets.map((b) => b.seat));
    let seat: number;
    if (bet.spot === undefined) {
      seat = [1, 2, 3, 4, 5, 6, 7].find((s) => !taken.has(s)) ?? 0;
      if (!seat) return rejection('seat-taken', 'Every seat is taken this round');
    } else {
      seat = spotNumber(bet.spot);
      if (!Number.isInteger(seat) || seat < 1 || seat > DEFAULT_EUROPEAN_CONFIG.seats) {
        return rejection('unknown-seat', 'Seats are numbered 1-7');
      }
      if (taken.has(seat)) return rejection('seat-taken', `Seat ${seat} is taken this round`);
    }
    if (wasCancelled(state, seat, bet.playerId)) {
      return rejection('bet-cancelled', `The bet on seat ${seat} was cancelled this round`);
    }
    const placed: PracticeSeatBet = { seat, playerId: bet.playerId, bot: null, stake: bet.amount };
    return {
      state: { ...state, bets: [...state.bets, placed].sort((a, b) => a.seat - b.seat) },
      events: [publicEvent('BetAccepted', { seat, playerId: bet.playerId, amount: bet.amount })],
      bets: [
        {
          betId: practiceBetIdOf(state.roundId, bet.playerId, seat),
          playerId: bet.playerId,
          commandId: bet.commandId,
          betType: 'main',
          spot: String(seat),
          amount: bet.amount,
          deducted: bet.amount,
        },
      ],
    };
  }

  cancelBet(state: PracticeState, cancel: CancelCommand): AdapterResult<PracticeState> {
    return cancelPracticeBet(state, cancel);
  }

  decide(state: PracticeState, decision: DecisionCommand): AdapterResult<PracticeState> {
    if (state.phase !== 'playing' || !state.engine || seatToAct(state.engine) === null) {
      return rejection('no-decision-window', 'No decision is expected now');
    }
    const seat = seatToAct(state.engine);
    const bet = state.bets.find((b) => b.seat === seat);
    if (
      seat === null ||
      !bet ||
      bet.bot ||
      bet.playerId !== decision.playerId ||
      (decision.seat !== undefined && spotNumber(decision.seat) !== seat)
    ) {
      return rejection('not-your-turn', `It is not ${decision.playerId}'s turn`);
    }
    if (!isPlayerAction(decision.action)) {
      return rejection('illegal-action', `"${decision.action}" is not a blackjack action`);
    }
    return this.run(
      state,
      { type: 'decide', seat, action: decision.action },
      {
        playerId: decision.playerId,
        hand: handOf(state.engine, seat),
        action: decision.action,
        automatic: false,
        commandId: decision.commandId,
      },
    );
  }

  closeBetting(state: PracticeState): AdapterResult<PracticeState> {
    if (state.phase !== 'betting') return rejection('betting-closed', 'Betting is not open');
    const events = [publicEvent('BettingClosed', { seats: state.bets.map((b) => b.seat) })];
    if (state.bets.length === 0) {
      return { state: { ...state, phase: 'settled' }, events, cancelTimers: ['betting'] };
    }
    const table = newEuropeanTable({ ...DEFAULT_EUROPEAN_CONFIG, rules: this.rules });
    const started = stepEuropeanRound(table, {
      type: 'start-round',
      bets: engineBets(state.bets),
      shoeNumber: 1,
    });
    if ('rejected' in started) return { rejected: { ...started.rejected } };
    // The engine's round-started record is dropped: the table announced the round already.
    return {
      state: { ...state, phase: 'dealing', engine: started.state },
      events,
      cancelTimers: ['betting'],
    };
  }

  timerFired(state: PracticeState, name: string, token: number): AdapterResult<PracticeState> {
    if (name === 'betting' && state.phase === 'betting') return this.closeBetting(state);
    if (name !== 'decision' || token !== state.window || state.phase !== 'playing') {
      return { state, events: [] };
    }
    if (!state.engine) return { state, events: [] };
    const seat = seatToAct(state.engine);
    const bet = state.bets.find((b) => b.seat === seat);
    if (seat === null || !bet || bet.bot) return { state, events: [] };
    return this.run(
      state,
      { type: 'timeout', seat },
      { playerId: bet.playerId, hand: handOf(state.engine, seat), action: '', automatic: true },
    );
  }

  /** A bot's turn: it decides from its player view (never the hidden card or the shoe). */
  autoStep(state: PracticeState): AdapterResult<PracticeState> | null {
    if (state.phase !== 'playing' || !state.engine) return null;
    const seat = seatToAct(state.engine);
    const bet = state.bets.find((b) => b.seat === seat);
    if (seat === null || !bet?.bot) return null;
    const view = botView(state.engine, seat);
    if (isRejection(view)) return null;
    const action = botDecision(bet.bot, view);
    return this.run(
      state,
      { type: 'decide', seat, action },
      { playerId: bet.playerId, hand: handOf(state.engine, seat), action, automatic: true },
    );
  }

  voidRound(state: PracticeState, reason: string): AdapterResult<PracticeState> {
    if (this.isRoundOver(state)) return rejection('round-over', 'The round is over');
    const seats = state.engine?.round?.seats ?? [];
    const settlements: SettlementRecord[] = state.bets.map((b) => {
      // Doubles and splits raised the stake once play began.
      const hands = seats.find((s) => s.seat === b.seat)?.player.hands;
      const stake = hands ? hands.reduce((sum, h) => sum + h.stake, 0) : b.stake;
      return settlementRow(
        {
          betId: practiceBetIdOf(state.roundId, b.playerId, b.seat),
          playerId: b.playerId,
          betType: 'main',
          spot: String(b.seat),
        },
        { staked: stake, refunded: stake, paid: 0 },
        'void-refund',
        '0',
      );
    });
    return {
      state: { ...state, phase: 'voided', voidReason: reason },
      // The table announces the void itself (RoundVoided): not twice.
      events: [],
      reveals: state.dealt.some((d) => d.slot === 'dealer-hole') ? ['dealer-hole'] : [],
      cancelTimers: ['betting', 'decision'],
      settlements,
    };
  }

  /** The dealer's hand and each seat's hands, owned by the player or `bot:<seat>`. */
  hands(state: PracticeState): HandRecord[] {
    const round = state.engine?.round;
    if (!round) return [];
    const dealerCards = [round.dealer.up, round.dealer.hidden, ...round.dealer.draws].filter(
      (c): c is CardCode => c !== null,
    );
    const rows: HandRecord[] = [blackjackHandRecord('dealer', null, dealerCards, null)];
    for (const seat of round.seats) {
      const owner = seat.occupant.kind === 'player' ? seat.occupant.playerId : botId(seat.seat);
      const results = seat.settlements?.map((h) => h.outcome) ?? null;
      rows.push(...playerHandRecords(`seat-${seat.seat}`, owner, seat.player.hands, results));
    }
    return rows;
  }

  publicView(state: PracticeState): unknown {
    const round = state.engine?.round;
    return {
      roundId: state.roundId,
      phase: state.phase,
      turn: state.engine ? seatToAct(state.engine) : null,
      dealer: round
        ? (round.dealer.revealed
            ? [round.dealer.up, round.dealer.hidden, ...round.dealer.draws]
            : [round.dealer.up]
          ).filter((c) => c !== null)
        : [],
      seats: state.bets.map((b) => ({
        seat: b.seat,
        playerId: b.playerId,
        bot: b.bot,
        stake: b.stake,
        hands:
          round?.seats
            .find((s) => s.seat === b.seat)
            ?.player.hands.map((h) => ({ cards: h.cards, stake: h.stake })) ?? [],
      })),
    };
  }

  /**
   * One engine step. A decision row is written once the engine took it; a human's turn opens a
   * decision window, a bot's turn ends the last human's window (a bot decides at once in
   * autoStep); while a card is awaited the window stays as it is.
   */
  private run(
    state: PracticeState,
    input: EuropeanRoundInput,
    decision: DecisionRecord | null,
  ): AdapterResult<PracticeState> {
    const result = stepEuropeanRound(state.engine!, input);
    if ('rejected' in result) return { rejected: { ...result.rejected } };
    const engine = result.state;
    const round = engine.round!;
    const phase: PracticePhase =
      round.phase === 'settled' ? 'settled' : round.phase === 'dealing' ? 'dealing' : 'playing';
    const out: AdapterStep<PracticeState> = {
      state: { ...state, phase, engine },
      events: [],
      timers: [],
    };
    for (const effect of result.effects) translate(effect, decision, out);
    if (phase === 'settled') {
      out.settlements = settlementsFrom(engine, state.bets, state.roundId);
      out.cancelTimers = ['decision'];
      return out;
    }
    const seat = seatToAct(engine);
    const bet = state.bets.find((b) => b.seat === seat);
    if (bet && !bet.bot && out.events.some((e) => e.type === 'DecisionRequested')) {
      const window = state.window + 1;
      out.state = { ...out.state, window };
      out.timers!.push({
        name: 'decision',
        durationMs: this.settings.decisionWindowMs,
        token: window,
      });
    } else if (bet?.bot) {
      out.cancelTimers = ['decision'];
    }
    return out;
  }
}

function engineBets(bets: readonly PracticeSeatBet[]): EuropeanBet[] {
  return bets.map((b) => ({
    seat: b.seat,
    stake: b.stake,
    occupant: b.bot ? { kind: 'bot', difficulty: b.bot } : { kind: 'player', playerId: b.playerId },
  }));
}

function translate(
  effect: EuropeanEffect,
  decision: DecisionRecord | null,
  out: AdapterStep<PracticeState>,
): void {
  if (effect.type === 'set-timer') return; // the adapter runs its own decision windows
  const event = roundEventOf(effect);
  // The public twin of the hidden card (card: null) is replaced by CardDealtFaceDown.
  if (effect.name === 'card-dealt' && event.payload.card === null) return;
  out.events.push(event);
  if (effect.name === 'hidden-card-revealed') out.reveals = ['dealer-hole'];
  if (effect.name === 'decision' && decision) {
    const action = String(event.payload.action);
    out.decisions = [...(out.decisions ?? []), { ...decision, action }];
  }
}

const botId = (seat: number) => `bot:${seat}`;
