import { spotNumber } from '../spot-number';
import { CardCode, parseCardCode } from '@studio/cards';
import {
  applyPokDengInput,
  evaluateHand,
  formatScore,
  BetSettlement,
  DealSlot,
  expectedSlot,
  newPokDengRound,
  POK_DENG_RULES,
  PokDengEffect,
  PokDengRoundState,
  PokDengRules,
  PokDengStep,
  playerView,
  pokDengShoeRules,
} from '@studio/games/pok-deng';
import type { ShoeRules } from '@studio/games/shoe';
import {
  AdapterResult,
  AdapterStep,
  BetCommand,
  betCancelledEvent,
  CancelCommand,
  cancelledRow,
  ExpectedCard,
  GameAdapter,
  HandRecord,
  publicEvent,
  restrictedEvent,
  SettlementRecord,
} from '../game-adapter';

export interface PokDengTableSettings {
  rules?: Partial<PokDengRules>;
  bettingWindowMs: number;
  /** The table's limits per currency (`player`, `pair`): the engine holds each bet to its own. */
  limitsByCurrency?: PokDengRules['limitsByCurrency'];
}

const slotId = (slot: DealSlot): string =>
  slot.kind === 'burn'
    ? 'burn'
    : `${slot.hand === 'banker' ? 'banker' : `player-${slot.hand}`}/${slot.position}`;

const slotLabel = (slot: DealSlot): string =>
  slot.kind === 'burn'
    ? 'Burn one card face down'
    : `${slot.hand === 'banker' ? 'Banker' : `Player ${slot.hand}`}, card ${slot.position}, face down`;

/** Pok Deng (games.md section 5) for the table runtime: cards are dealt during betting, face down. */
export class PokDengAdapter implements GameAdapter<PokDengRoundState> {
  readonly game = 'pok-deng' as const;
  readonly shoeRules: ShoeRules;
  private readonly rules: PokDengRules;

  constructor(private readonly settings: PokDengTableSettings) {
    this.rules = {
      ...POK_DENG_RULES,
      ...settings.rules,
      ...(settings.limitsByCurrency ? { limitsByCurrency: settings.limitsByCurrency } : {}),
    };
    this.shoeRules = pokDengShoeRules(this.rules);
  }

  startRound(start: { roundId: string; shoeNumber: number; roundNumber: number }) {
    const state = newPokDengRound(start.shoeNumber, start.roundNumber, this.rules);
    return {
      state,
      events: [
        publicEvent('BettingOpened', {
          bettingWindowMs: this.settings.bettingWindowMs,
          spots: spotsOf(this.rules),
        }),
      ],
      timers: [
        { name: 'betting', durationMs: this.settings.bettingWindowMs, token: start.roundNumber },
      ],
    };
  }

  expectedCard(state: PokDengRoundState): ExpectedCard | null {
    const slot = expectedSlot(state);
    return slot ? { slot: slotId(slot), label: slotLabel(slot) } : null;
  }

  card(state: PokDengRoundState, card: CardCode): AdapterResult<PokDengRoundState> {
    return this.translate(applyPokDengInput(state, { type: 'card', card }));
  }

  placeBet(state: PokDengRoundState, bet: BetCommand): AdapterResult<PokDengRoundState> {
    const hand = spotNumber(bet.spot);
    if (bet.betType !== 'player' && bet.betType !== 'pair') {
      return {
        rejected: {
          code: 'unknown-bet-type',
          message: `Pok Deng bets are "player" or "pair" on spots 1-${this.rules.playerHandCount} (got "${bet.betType}")`,
        },
      };
    }
    const result = this.translate(
      applyPokDengInput(state, {
        type: 'place-bet',
        bet: {
          betId: bet.betId,
          playerId: bet.playerId,
          spot: { kind: bet.betType, hand },
          amount: bet.amount,
          ...(bet.currency ? { currency: bet.currency } : {}),
        },
      }),
    );
    if ('rejected' in result) return result;
    return {
      ...result,
      bets: result.bets?.map((b) => ({ ...b, commandId: bet.commandId })),
    };
  }

  cancelBet(state: PokDengRoundState, cancel: CancelCommand): AdapterResult<PokDengRoundState> {
    const result = this.translate(
      applyPokDengInput(state, {
        type: 'cancel-bet',
        betId: cancel.bet.betId,
        playerId: cancel.playerId,
      }),
    );
    if ('rejected' in result) return result;
    return { ...result, events: [betCancelledEvent(cancel, result.cancellations ?? [])] };
  }

  decide(): AdapterResult<PokDengRoundState> {
    return { rejected: { code: 'illegal-action', message: 'Pok Deng players make no decisions' } };
  }

  closeBetting(state: PokDengRoundState): AdapterResult<PokDengRoundState> {
    return this.translate(applyPokDengInput(state, { type: 'close-betting' }));
  }

  timerFired(state: PokDengRoundState, name: string): AdapterResult<PokDengRoundState> {
    if (name === 'betting' && state.phase === 'betting') return this.closeBetting(state);
    return { state, events: [] };
  }

  autoStep(state: PokDengRoundState): AdapterResult<PokDengRoundState> | null {
    // Reveal hand by hand once betting is closed and every card is on the table.
    if (state.phase === 'settled' || state.phase === 'voided' || state.phase === 'betting')
      return null;
    if (expectedSlot(state)) return null;
    return this.translate(applyPokDengInput(state, { type: 'reveal-next' }));
  }

  voidRound(state: PokDengRoundState, reason: string): AdapterResult<PokDengRoundState> {
    return this.translate(applyPokDengInput(state, { type: 'void', reason }));
  }

  correctCard(
    state: PokDengRoundState,
    slot: string,
    card: CardCode,
  ): AdapterResult<PokDengRoundState> {
    const match = /^(?:player-(\d)|(banker))\/([12])$/.exec(slot);
    if (!match)
      return { rejected: { code: 'not-correctable', message: `No hand card at slot ${slot}` } };
    const index = match[2] ? state.rules.playerHandCount : Number(match[1]) - 1;
    const position = Number(match[3]) - 1;
    // Hands are revealed in order P1..P5, banker: index < revealed means face up already.
    if (
      index < state.revealed ||
      !state.hands[index] ||
      state.hands[index][position] === undefined
    ) {
      return {
        rejected: {
          code: 'not-correctable',
          message: `The card at ${slot} is not a face-down card`,
        },
      };
    }
    const hands = state.hands.map((h, i) =>
      i === index ? h.map((c, p) => (p === position ? card : c)) : h,
    );
    return { state: { ...state, hands }, events: [] };
  }

  hands(state: PokDengRoundState): HandRecord[] {
    const results = new Map(state.roadmap?.hands.map((m) => [m.hand, m.result]) ?? []);
    return state.hands.map((cards, i) => {
      const banker = i === state.rules.playerHandCount;
      const evaluation =
        cards.length === 2
          ? evaluateHand(parseCardCode(cards[0])!, parseCardCode(cards[1])!)
          : null;
      return {
        hand: banker ? 'banker' : `player-${i + 1}`,
        owner: null,
        cards: [...cards],
        total: evaluation ? formatScore(evaluation.score) : '',
        result: banker ? null : (results.get(i + 1) ?? null),
      };
    });
  }

  phase(state: PokDengRoundState): string {
    return state.phase;
  }

  isBettingOpen(state: PokDengRoundState): boolean {
    return state.phase === 'betting';
  }

  isRoundOver(state: PokDengRoundState): boolean {
    return state.phase === 'settled' || state.phase === 'voided';
  }

  /**
   * The round as the consoles show it: hands, roadmap and whether it is settled, but no player's
   * settlement (those go to each platform privately, and a dealer's screen needs none).
   */
  publicView(state: PokDengRoundState): unknown {
    const { settlements, ...table } = playerView(state);
    return { ...table, settled: settlements !== null };
  }

  private translate(step: PokDengStep): AdapterResult<PokDengRoundState> {
    if ('rejected' in step) return { rejected: { ...step.rejected } };
    const out: AdapterStep<PokDengRoundState> = {
      state: step.state,
      events: [],
      cards: [],
      reveals: [],
      bets: [],
      settlements: [],
    };
    for (const effect of step.effects) translateEffect(effect, out);
    return out;
  }
}

function translateEffect(effect: PokDengEffect, out: AdapterStep<PokDengRoundState>): void {
  switch (effect.type) {
    case 'card-dealt': {
      const slot = slotId(effect.slot);
      out.cards!.push({ slot, card: effect.card, faceDown: true });
      // Platforms learn that a card went face down to a slot, never which card.
      out.events.push(publicEvent('CardDealtFaceDown', { slot }));
      out.events.push(restrictedEvent('HiddenCardRecorded', { slot, card: effect.card }));
      return;
    }
    case 'all-cards-dealt':
      out.events.push(publicEvent('AllCardsDealt', {}));
      return;
    case 'bet-accepted':
      out.bets!.push({
        betId: effect.bet.betId,
        playerId: effect.bet.playerId,
        betType: effect.bet.spot.kind,
        spot: String(effect.bet.spot.hand),
        amount: effect.bet.amount,
        deducted: effect.bet.deducted,
      });
      out.events.push(
        publicEvent('BetAccepted', {
          betId: effect.bet.betId,
          playerId: effect.bet.playerId,
          betType: effect.bet.spot.kind,
          spot: String(effect.bet.spot.hand),
          amount: effect.bet.amount,
          deducted: effect.bet.deducted,
        }),
      );
      return;
    case 'bet-cancelled': {
      const bet = effect.bet;
      // The whole deduction (a Player N bet's deposit too) goes back.
      const row = cancelledRow(
        bet.playerId,
        bet.betId,
        bet.spot.kind,
        String(bet.spot.hand),
        bet.deducted,
      );
      out.cancellations = [...(out.cancellations ?? []), row];
      return;
    }
    case 'betting-closed':
      out.cancelTimers = [...(out.cancelTimers ?? []), 'betting'];
      out.events.push(publicEvent('BettingClosed', { bets: effect.bets }));
      return;
    case 'hand-revealed': {
      const hand = effect.revealed.hand === 'banker' ? 'banker' : `player-${effect.revealed.hand}`;
      out.reveals!.push(`${hand}/1`, `${hand}/2`);
      out.events.push(
        publicEvent('HandRevealed', {
          hand,
          cards: effect.revealed.cards,
          score: effect.revealed.score,
          points: effect.revealed.points,
          combination: effect.revealed.combination,
          flush: effect.revealed.flush,
          pair: effect.revealed.pair,
        }),
      );
      return;
    }
    case 'round-settled':
      out.settlements!.push(...effect.settlements.map(toSettlement));
      // The table announces every settlement (BetsSettled), for every game alike.
      out.events.push(publicEvent('RoundResult', { roadmap: effect.roadmap }));
      return;
    case 'round-voided':
      out.settlements!.push(...effect.settlements.map(toSettlement));
      return;
  }
}

function toSettlement(s: BetSettlement): SettlementRecord {
  return {
    betId: s.betId,
    playerId: s.playerId,
    betType: s.spot.kind,
    spot: String(s.spot.hand),
    stake: s.deducted,
    returned: s.returned,
    net: s.net,
    outcome: s.outcome,
    roundedDown:
      s.roundedDown.numerator === 0
        ? '0'
        : `${s.roundedDown.numerator}/${s.roundedDown.denominator}`,
  };
}

function spotsOf(rules: PokDengRules): string[] {
  return Array.from({ length: rules.playerHandCount }, (_, i) => String(i + 1));
}
