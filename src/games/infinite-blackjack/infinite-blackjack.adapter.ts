import type { CardCode } from '@studio/cards';
import {
  BlackjackRules,
  DEFAULT_INFINITE_CONFIG,
  INFINITE_SIDE_BETS,
  InfiniteBatchRejection,
  InfiniteBetInput,
  InfiniteDecision,
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
  validateInfiniteBet,
} from '@studio/games/blackjack';
import { BlackjackAdapter } from '../blackjack/blackjack-adapter';
import { dealerSlot, holeCardChecked, onlyTheHoleCard } from '../blackjack/dealer-card';
import { recordEngineStep } from '../blackjack/engine-effects';
import { blackjackHandRecord, playerHandRecords, withDealtCard } from '../blackjack/hand-records';
import { outcomeText, settlementRow } from '../blackjack/settlement-rows';
import {
  AdapterBatchStep,
  AdapterRejection,
  AdapterResult,
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
  publicEvent,
  RoundStart,
  SettlementRecord,
} from '../game-adapter';

export interface InfiniteTableSettings {
  bettingWindowMs: number;
  decisionWindowMs: number;
  rules?: Partial<Omit<BlackjackRules, 'variant'>>;
}

const TIMERS: readonly string[] = ['betting', 'decision', 'insurance'];

/**
 * Bets or decisions per batch event. Small: the outbox relay sends up to OUTBOX_BATCH_SIZE events
 * (500) as one Kafka record batch, which must stay under the broker's 1 MB message limit; ten
 * entries (under 1 KB) still make a window's events, hashes and outbox rows ten times fewer.
 */
export const EVENT_ENTRIES = 10;

function inChunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Infinite Blackjack (games.md section 2) for the table runtime. */
export class InfiniteBlackjackAdapter
  extends BlackjackAdapter<InfiniteState>
  implements GameAdapter<InfiniteState>
{
  readonly game = 'infinite-blackjack' as const;
  private readonly rules: BlackjackRules;

  constructor(private readonly settings: InfiniteTableSettings) {
    const rules = rulesFor('infinite', settings.rules ?? {});
    super(rules.decks, { ...DEFAULT_INFINITE_CONFIG.sideBetLastRound });
    this.rules = rules;
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
      case 'common-draw':
        return { slot: `common/${e.position}`, label: `Common draw card ${e.position}` };
      default:
        return dealerSlot(e);
    }
  }

  card(state: InfiniteState, card: CardCode): AdapterResult<InfiniteState> {
    const expected = this.expectedCard(state);
    return withDealtCard(this.step(state, { type: 'card', card }), expected, card);
  }

  placeBet(state: InfiniteState, bet: BetCommand): AdapterResult<InfiniteState> {
    const checked = this.checkBet(state, bet);
    if ('rejected' in checked) return checked;
    const result = this.step(state, { type: 'bet', ...checked.input });
    if ('rejected' in result) return result;
    result.bets = betRecords(state.roundId!, bet, checked.input.side ?? {});
    return result;
  }

  /**
   * The bets of a whole betting window in one engine step. Same answers, events and rows as
   * placing them one at a time in this order: a player's second bet in the batch is a duplicate
   * only if the first was accepted.
   */
  placeBets(state: InfiniteState, bets: readonly BetCommand[]): AdapterBatchStep<InfiniteState> {
    const results: Array<AdapterRejection | null> = new Array(bets.length).fill(null);
    const accepted = new Set<string>();
    const inputs: InfiniteBetInput[] = [];
    const accepting: number[] = [];
    bets.forEach((bet, i) => {
      const checked = this.checkBet(state, bet, accepted);
      let problem = 'rejected' in checked ? checked.rejected : null;
      if (!('rejected' in checked)) {
        const engineProblem = validateInfiniteBet(state, checked.input);
        if (engineProblem) problem = { code: engineProblem.code, message: engineProblem.message };
        else {
          accepted.add(bet.playerId);
          inputs.push(checked.input);
          accepting.push(i);
        }
      }
      results[i] = problem;
    });
    if (inputs.length === 0) return { step: { state, events: [] }, results };
    const result = this.step(state, { type: 'bets', bets: inputs });
    if ('rejected' in result) {
      for (const i of accepting) results[i] = result.rejected;
      return { step: { state, events: [] }, results };
    }
    // A window's bets are announced as BetsAccepted events of up to EVENT_ENTRIES bets each
    // (one event, hash and outbox row per EVENT_ENTRIES bets, not per bet); each bet's own answer
    // still goes to its command's sender.
    result.events = inChunks(inputs, EVENT_ENTRIES).map((chunk) =>
      publicEvent('BetsAccepted', {
        accepted: chunk.length,
        bets: chunk.map((input) => ({
          playerId: input.playerId,
          main: input.main,
          side: input.side ?? {},
        })),
      }),
    );
    result.bets = accepting.flatMap((i, k) =>
      betRecords(state.roundId!, bets[i], inputs[k].side ?? {}),
    );
    return { step: result, results };
  }

  /** The adapter's own checks of a bet and its engine input (the engine checks amounts). */
  private checkBet(
    state: InfiniteState,
    bet: BetCommand,
    acceptedInBatch?: ReadonlySet<string>,
  ): { input: InfiniteBetInput } | { rejected: AdapterRejection } {
    if (bet.betType !== 'main') {
      return {
        rejected: {
          code: 'unknown-bet-type',
          message: `Infinite Blackjack takes one "main" bet per player with optional side bets (${INFINITE_SIDE_BETS.join(', ')}) in sideBets`,
        },
      };
    }
    if (bet.spot !== undefined && bet.spot !== null) {
      // Refused rather than dropped: a platform that sends one believes in a seat that is not there.
      return {
        rejected: {
          code: 'unknown-seat',
          message: 'Infinite Blackjack has no seats or spots: send the bet without "spot"',
        },
      };
    }
    if (acceptedInBatch?.has(bet.playerId) || indexOfPlayer(state.players.ids, bet.playerId) >= 0) {
      return { rejected: duplicateBet() };
    }
    if (state.cancelled?.includes(bet.playerId)) {
      return {
        rejected: {
          code: 'bet-cancelled',
          message: `Player ${bet.playerId}'s bet was cancelled in this round; bet again in the next`,
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
    return { input: { playerId: bet.playerId, main: bet.amount, side } };
  }

  /** The player's main bet and its side bets, all taken back (one bet per player and round). */
  cancelBet(state: InfiniteState, cancel: CancelCommand): AdapterResult<InfiniteState> {
    const at = indexOfPlayer(state.players.ids, cancel.playerId);
    const result = this.step(state, { type: 'cancel-bet', playerId: cancel.playerId });
    if ('rejected' in result) return result;
    const p = state.players;
    const parts: Array<[string, number]> = [
      ['main', p.main[at]],
      ...INFINITE_SIDE_BETS.map((k): [string, number] => [k, p.side[k][at]]),
    ];
    const rows = parts
      .filter(([, amount]) => amount > 0)
      .map(([betType, amount]) =>
        cancelledRow(
          cancel.playerId,
          betIdOf(state.roundId!, cancel.playerId, betType),
          betType,
          null,
          amount,
        ),
      );
    return { ...result, events: [betCancelledEvent(cancel, rows)], cancellations: rows };
  }

  decide(state: InfiniteState, decision: DecisionCommand): AdapterResult<InfiniteState> {
    const result = this.step(state, {
      type: 'decision',
      playerId: decision.playerId,
      action: decision.action as InfiniteDecision,
    });
    if ('rejected' in result) return result;
    result.decisions = [decisionRecord(decision, state.window)];
    return result;
  }

  /** A decision window's decisions in one engine step, answered as if sent one at a time. */
  decideMany(
    state: InfiniteState,
    decisions: readonly DecisionCommand[],
  ): AdapterBatchStep<InfiniteState> {
    const result = stepInfinite(state, {
      type: 'decisions',
      decisions: decisions.map((d) => ({
        playerId: d.playerId,
        action: d.action as InfiniteDecision,
      })),
    });
    if ('rejected' in result) {
      return { step: { state, events: [] }, results: decisions.map(() => result.rejected) };
    }
    const results: Array<AdapterRejection | null> = new Array(decisions.length).fill(null);
    for (const effect of result.effects) {
      if (effect.type !== 'event' || effect.name !== 'decisions-accepted') continue;
      const refused = (effect.payload as { rejected: InfiniteBatchRejection[] }).rejected;
      for (const r of refused) results[r.index] = { code: r.code, message: r.message };
    }
    const accepted = decisions.filter((_, i) => results[i] === null);
    return {
      step: {
        state: result.state,
        // One DecisionsAccepted per EVENT_ENTRIES decisions (see placeBets).
        events: inChunks(accepted, EVENT_ENTRIES).map((chunk) =>
          publicEvent('DecisionsAccepted', {
            window: state.window,
            accepted: chunk.length,
            decisions: chunk.map((d) => ({ playerId: d.playerId, action: d.action })),
          }),
        ),
        decisions: accepted.map((d) => decisionRecord(d, state.window)),
      },
      results,
    };
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
      return onlyTheHoleCard();
    }
    if (state.peeked) return holeCardChecked();
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
    const out = recordEngineStep(result.state, result.effects);
    if (this.isRoundOver(result.state) && result.state.settlement) {
      out.settlements = [...settlementsOf(result.state)];
    }
    return out;
  }
}

/** Not naming the player: its id here is the core's key (`casino-a:alice`), not the platform's. */
function duplicateBet(): AdapterRejection {
  return { code: 'duplicate-bet', message: 'The player already has a bet in this round' };
}

function betRecords(
  roundId: string,
  bet: BetCommand,
  side: Partial<Record<InfiniteSideBet, number>>,
): BetRecord[] {
  return [
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
}

function decisionRecord(decision: DecisionCommand, window: number): DecisionRecord {
  return {
    playerId: decision.playerId,
    hand: null,
    action: decision.action,
    automatic: false,
    commandId: decision.commandId,
    window,
  };
}

export function betIdOf(roundId: string, playerId: string, betType: string): string {
  return `${roundId}/${playerId}/${betType}`;
}

function* settlementsOf(state: InfiniteState): Generator<SettlementRecord> {
  for (const player of infinitePlayerSettlements(state)) {
    for (const bet of player.bets) {
      yield settlementRow(
        {
          betId: betIdOf(state.roundId!, player.playerId, bet.bet),
          playerId: player.playerId,
          betType: bet.bet,
          spot: null,
        },
        bet,
        // The store marks `void-refund` bets refunded and reports count them as refunds (as
        // Lux, Pok Deng and the practice table say it); the engine says `void`.
        bet.result === 'void' ? 'void-refund' : outcomeText(bet.result),
        // Over the bet's common denominator, as the engine accounts it (not reduced).
        bet.rounding.numerator === 0
          ? '0'
          : `${bet.rounding.numerator}/${bet.rounding.denominator}`,
      );
    }
  }
}
