import type { CardCode } from '@studio/cards';
import {
  BlackjackRules,
  DEFAULT_INFINITE_CONFIG,
  INFINITE_SIDE_BETS,
  InfiniteDecision,
  InfiniteEffect,
  InfiniteInput,
  InfiniteSideBet,
  InfiniteState,
  indexOfPlayer,
  infiniteDealerCards,
  infiniteExpectedCard,
  infiniteNodePath,
  infinitePlayerSettlements,
  infiniteVisibleDealerCards,
  newInfiniteTable,
  rulesFor,
  stepInfinite,
  TimerName,
} from '@studio/games/blackjack';
import { BLACKJACK_BURN_VALUES, ShoeRules } from '@studio/games/shoe';
import {
  AdapterResult,
  AdapterStep,
  BetCommand,
  DecisionCommand,
  ExpectedCard,
  GameAdapter,
  HandRecord,
  RoundStart,
  SettlementRecord,
} from '../game-adapter';
import { blackjackHandRecord, playerHandRecords } from '../hand-records';
import { publicEvent } from './pok-deng.adapter';

export interface InfiniteTableSettings {
  bettingWindowMs: number;
  decisionWindowMs: number;
  rules?: Partial<Omit<BlackjackRules, 'variant'>>;
}

const TIMERS: readonly string[] = ['betting', 'decision', 'insurance'];

/** Infinite Blackjack (games.md section 2) for the table runtime. */
export class InfiniteBlackjackAdapter implements GameAdapter<InfiniteState> {
  readonly game = 'infinite-blackjack' as const;
  readonly shoeRules: ShoeRules;
  private readonly rules: BlackjackRules;

  constructor(private readonly settings: InfiniteTableSettings) {
    this.rules = rulesFor('infinite', settings.rules ?? {});
    this.shoeRules = {
      deckCount: this.rules.decks,
      burnValues: BLACKJACK_BURN_VALUES,
      sideBetLastRound: { ...DEFAULT_INFINITE_CONFIG.sideBetLastRound },
    };
  }

  startRound(start: RoundStart): AdapterResult<InfiniteState> {
    const table = newInfiniteTable({
      rules: this.rules,
      bettingWindowMs: this.settings.bettingWindowMs,
      decisionWindowMs: this.settings.decisionWindowMs,
      insuranceWindowMs: this.settings.decisionWindowMs,
    });
    return this.step(table, {
      type: 'open-betting',
      roundId: start.roundId,
      roundOfShoe: start.roundNumber,
    });
  }

  expectedCard(state: InfiniteState): ExpectedCard | null {
    const e = infiniteExpectedCard(state);
    if (!e) return null;
    switch (e.slot) {
      case 'player':
        return { slot: `player/${e.position}`, label: `Player hand, card ${e.position}` };
      case 'dealer-up':
        return { slot: 'dealer-up', label: 'Dealer up card, face up' };
      case 'dealer-hole':
        return { slot: 'dealer-hole', label: 'Dealer hole card, face down' };
      case 'common-draw':
        return { slot: `common/${e.position}`, label: `Common draw card ${e.position}` };
      case 'dealer-draw':
        return { slot: `dealer/${e.position}`, label: `Dealer card ${e.position}` };
    }
  }

  card(state: InfiniteState, card: CardCode): AdapterResult<InfiniteState> {
    const expected = this.expectedCard(state);
    const result = this.step(state, { type: 'card', card });
    if ('rejected' in result || !expected) return result;
    const faceDown = expected.slot === 'dealer-hole';
    result.cards = [{ slot: expected.slot, card, faceDown }];
    if (faceDown) result.events.unshift(publicEvent('CardDealtFaceDown', { slot: expected.slot }));
    return result;
  }

  placeBet(state: InfiniteState, bet: BetCommand): AdapterResult<InfiniteState> {
    if (bet.betType !== 'main') {
      return {
        rejected: {
          code: 'unknown-bet-type',
          message: `Infinite Blackjack takes one "main" bet per player with optional side bets (${INFINITE_SIDE_BETS.join(', ')}) in sideBets`,
        },
      };
    }
    if (indexOfPlayer(state.players.ids, bet.playerId) >= 0) {
      return {
        rejected: {
          code: 'duplicate-bet',
          message: `Player ${bet.playerId} already has a bet in this round`,
        },
      };
    }
    const side: Partial<Record<InfiniteSideBet, number>> = {};
    for (const [kind, amount] of Object.entries(bet.sideBets ?? {})) {
      if (!(INFINITE_SIDE_BETS as readonly string[]).includes(kind)) {
        return {
          rejected: {
            code: 'unknown-bet-type',
            message: `${kind} is not a side bet of Infinite Blackjack`,
          },
        };
      }
      side[kind as InfiniteSideBet] = amount;
    }
    const result = this.step(state, {
      type: 'bet',
      playerId: bet.playerId,
      main: bet.amount,
      side,
    });
    if ('rejected' in result) return result;
    const roundId = state.roundId!;
    result.bets = [
      ['main', bet.amount] as const,
      ...Object.entries(side).filter(([, amount]) => (amount ?? 0) > 0),
    ].map(([betType, amount]) => ({
      betId: betIdOf(roundId, bet.playerId, betType),
      playerId: bet.playerId,
      commandId: bet.commandId,
      betType,
      spot: null,
      amount: amount as number,
      deducted: amount as number,
    }));
    return result;
  }

  decide(state: InfiniteState, decision: DecisionCommand): AdapterResult<InfiniteState> {
    const result = this.step(state, {
      type: 'decision',
      playerId: decision.playerId,
      action: decision.action as InfiniteDecision,
    });
    if ('rejected' in result) return result;
    result.decisions = [
      {
        playerId: decision.playerId,
        hand: null,
        action: decision.action,
        automatic: false,
        commandId: decision.commandId,
      },
    ];
    return result;
  }

  closeBetting(state: InfiniteState): AdapterResult<InfiniteState> {
    return this.step(state, { type: 'close-betting' });
  }

  timerFired(state: InfiniteState, name: string, token: number): AdapterResult<InfiniteState> {
    if (!TIMERS.includes(name)) return { state, events: [] };
    return this.step(state, { type: 'timeout', timer: name as TimerName, window: token });
  }

  autoStep(): null {
    return null;
  }

  voidRound(state: InfiniteState, reason: string): AdapterResult<InfiniteState> {
    return this.step(state, { type: 'void', reason });
  }

  correctCard(state: InfiniteState, slot: string, card: CardCode): AdapterResult<InfiniteState> {
    if (slot !== 'dealer-hole' || !state.dealer.hole || state.dealer.holeRevealed) {
      return {
        rejected: {
          code: 'not-correctable',
          message: 'Only the unrevealed hole card can be corrected',
        },
      };
    }
    if (state.peeked) {
      return {
        rejected: {
          code: 'not-correctable',
          message: 'The dealer already checked the hole card for blackjack; void the round instead',
        },
      };
    }
    return { state: { ...state, dealer: { ...state.dealer, hole: card } }, events: [] };
  }

  /** The dealer's hand and each distinct player hand (a trie node holds everyone who played it). */
  hands(state: InfiniteState): HandRecord[] {
    const rules = state.settlement?.nodeRules ?? [];
    const rows: HandRecord[] = [
      blackjackHandRecord('dealer', null, infiniteDealerCards(state), null),
    ];
    state.nodes.forEach((node, id) => {
      if (node.players === 0) return;
      const outcomes = rules[id]?.map((r) => r.outcome) ?? null;
      rows.push(
        ...playerHandRecords(
          `node-${id}`,
          `${node.players} players: ${infiniteNodePath(state, id).join(' ') || 'initial hand'}`,
          node.hands,
          outcomes,
        ),
      );
    });
    return rows;
  }

  phase(state: InfiniteState): string {
    return state.phase;
  }

  isBettingOpen(state: InfiniteState): boolean {
    return state.phase === 'betting';
  }

  isRoundOver(state: InfiniteState): boolean {
    return state.phase === 'settled' || state.phase === 'voided';
  }

  publicView(state: InfiniteState): unknown {
    return {
      roundId: state.roundId,
      phase: state.phase,
      window: state.window,
      players: state.players.ids.length,
      dealer: infiniteVisibleDealerCards(state),
      playerCards: state.playerCards,
      commonDraws: state.commonDraws,
    };
  }

  private step(state: InfiniteState, input: InfiniteInput): AdapterResult<InfiniteState> {
    const result = stepInfinite(state, input);
    if ('rejected' in result) return { rejected: { ...result.rejected } };
    const out: AdapterStep<InfiniteState> = { state: result.state, events: [], timers: [] };
    for (const effect of result.effects) this.translate(effect, out);
    if (this.isRoundOver(result.state) && result.state.settlement) {
      out.settlements = [...settlementsOf(result.state)];
    }
    return out;
  }

  private translate(effect: InfiniteEffect, out: AdapterStep<InfiniteState>): void {
    if (effect.type === 'set-timer') {
      out.timers!.push({ name: effect.timer, durationMs: effect.durationMs, token: effect.window });
      return;
    }
    if (effect.type === 'prompt') return;
    const payload = (effect.payload ?? {}) as Record<string, unknown>;
    out.events.push({
      type: pascal(effect.name),
      visibility: effect.hidden ? 'restricted' : 'public',
      payload,
    });
    if (effect.name === 'hole-card-revealed') out.reveals = [...(out.reveals ?? []), 'dealer-hole'];
  }
}

export function betIdOf(roundId: string, playerId: string, betType: string): string {
  return `${roundId}/${playerId}/${betType}`;
}

function* settlementsOf(state: InfiniteState): Generator<SettlementRecord> {
  for (const player of infinitePlayerSettlements(state)) {
    for (const bet of player.bets) {
      const returned = bet.refunded + bet.paid;
      yield {
        betId: betIdOf(state.roundId!, player.playerId, bet.bet),
        playerId: player.playerId,
        betType: bet.bet,
        spot: null,
        stake: bet.staked,
        returned,
        net: returned - bet.staked,
        outcome: Array.isArray(bet.result) ? bet.result.join(',') : String(bet.result),
        roundedDown:
          bet.rounding.numerator === 0
            ? '0'
            : `${bet.rounding.numerator}/${bet.rounding.denominator}`,
      };
    }
  }
}

function pascal(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
}
