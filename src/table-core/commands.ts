import { isSideBetOffered } from '@studio/games/shoe';
import type {
  AdapterBatchStep,
  AdapterResult,
  BetCommand,
  BetRecord,
  DecisionCommand,
} from '../games/game-adapter';
import type { CancelBetInput, ItemResult, MachineRejection } from './table-input';
import { currenciesOf, limitsIn, playerCurrency, RoundState } from './table-state';
import { Transition } from './transition';
import { withRound } from './table-state';

/** Platform commands: bets and decisions, one at a time or a window of them in one step. */

/** Refusals that say nothing about the bet itself: the game is not told of them. */
const NOT_THE_BETS_FAULT = new Set(['table-paused', 'betting-closed', 'unknown-round']);

export function placeBet(tx: Transition, bet: BetCommand): void {
  const problem = betProblem(tx, bet);
  if (problem) {
    // A game may act on a refused bet (Blackjack Lux: a seated player whose seat bet is refused
    // loses the seat when betting closes); the bet itself is still refused.
    const round = tx.round;
    const refusal =
      round && !NOT_THE_BETS_FAULT.has(problem.code)
        ? tx.adapter.betRefused?.(round.engine, bet)
        : null;
    if (refusal) tx.applyRound(refusal);
    return tx.reject(problem.code, problem.message);
  }
  const round = tx.round!;
  const before = round.currencies;
  recordCurrencies(tx, [bet]);
  const step: AdapterResult<unknown> = tx.adapter.placeBet(round.engine, bet, round.roundNumber);
  if (tx.applyRound(step)) {
    const rows = 'rejected' in step ? undefined : step.bets;
    tx.reply = betAnswers(rows).reply(bet, round.id);
  } else {
    setCurrencies(tx, before);
  }
}

/**
 * A bet's answer: the betId it names is the id its first row is stored under (the main part's),
 * which its settlement, refund, cancellation and the round lookup carry too, so a wallet matches
 * the credit to its debit (the games that name rows by round, player and type, Infinite Blackjack,
 * Blackjack Lux and the practice table, differ there from the command's own betId; Pok Deng stores
 * that one); `deducted` is what its rows took from the player in all (the side bets with the main
 * one; at Pok Deng a Player N bet's deposit too), what the wallet must have debited.
 */
function betAnswers(rows: readonly BetRecord[] | undefined, bets: readonly BetCommand[] = []) {
  const first = new Map<string, string>();
  const deducted = new Map<string, number>();
  for (const row of rows ?? []) {
    const key = placedBy(row);
    if (!first.has(key)) first.set(key, row.betId);
    deducted.set(key, (deducted.get(key) ?? 0) + row.deducted);
  }
  // Two bets of one player without command ids in one step: their rows cannot be told apart.
  const seen = new Set<string>();
  for (const bet of bets) {
    const key = placedBy(bet);
    if (seen.has(key)) deducted.delete(key);
    seen.add(key);
  }
  return {
    reply(bet: BetCommand, roundId: string): Record<string, unknown> {
      const key = placedBy(bet);
      const taken = deducted.get(key);
      return {
        betId: first.get(key) ?? bet.betId,
        roundId,
        ...(taken === undefined ? {} : { deducted: taken }),
      };
    },
  };
}

/** Which command placed a row: its player and command id (a bet's rows share both). */
function placedBy(bet: { playerId: string; commandId?: string }): string {
  return `${bet.playerId}\u0000${bet.commandId ?? ''}`;
}

/** Many bets in one adapter step (adapter.placeBets), answered as if placed one at a time. */
export function placeBets(tx: Transition, bets: readonly BetCommand[]): ItemResult[] {
  let answers = betAnswers(undefined);
  return inOneStep(
    tx,
    bets,
    (bet) => betProblem(tx, bet),
    (engine, round, accepted) => {
      // Recorded before the step (its bet rows name their currency), kept for the accepted.
      const before = round.currencies;
      recordCurrencies(tx, accepted);
      const batch = tx.adapter.placeBets!(engine, accepted, round.roundNumber);
      answers = betAnswers(
        batch.step.bets,
        accepted.filter((_, k) => batch.results[k] === null),
      );
      setCurrencies(tx, before);
      recordCurrencies(
        tx,
        accepted.filter((_, k) => batch.results[k] === null),
      );
      return batch;
    },
    (bet, roundId) => answers.reply(bet, roundId),
  );
}

/**
 * On a table of several currencies the round records each betting player's currency: their
 * bets and settlements are in it, and their further bets this round must be too.
 */
function recordCurrencies(tx: Transition, bets: readonly BetCommand[]): void {
  if (currenciesOf(tx.settings).length < 2 || bets.length === 0) return;
  const currencies = { ...tx.round!.currencies };
  for (const bet of bets) {
    // A data property whatever the key (assigning `__proto__` would set the prototype instead).
    Object.defineProperty(currencies, bet.playerId, {
      value: bet.currency ?? tx.settings.currency,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  setCurrencies(tx, currencies);
}

function setCurrencies(tx: Transition, currencies: Record<string, string> | undefined): void {
  tx.state = withRound(tx.state, (r) => {
    const next = { ...r };
    if (currencies) next.currencies = currencies;
    else delete next.currencies;
    return next;
  });
}

export function decide(tx: Transition, decision: DecisionCommand): void {
  const problem = decisionProblem(tx, decision);
  if (problem) return tx.reject(problem.code, problem.message);
  const round = tx.round!;
  if (tx.applyRound(tx.adapter.decide(round.engine, decision))) {
    tx.reply = { roundId: round.id };
  }
}

/**
 * A platform takes back its player's bet while betting is open. An unknown bet (none of the
 * platform's, whatever another platform holds under that id) is refused before anything else is
 * looked at, so the answer never tells whether the id exists elsewhere.
 */
export function cancelBet(tx: Transition, cancel: CancelBetInput): void {
  const bet = cancel.bet;
  if (!bet) {
    return tx.reject('unknown-bet', `No bet ${cancel.reference} of this player at this table`);
  }
  if (bet.status === 'cancelled') {
    return tx.reject('bet-already-cancelled', `Bet ${cancel.reference} was cancelled before`);
  }
  if (tx.paused) return tx.reject('table-paused', 'The table is paused; no cancellations now');
  const round = tx.round;
  if (!round || round.id !== bet.roundId || !tx.adapter.isBettingOpen(round.engine)) {
    return tx.reject('betting-closed', 'Betting is closed: the bet stands and is settled');
  }
  const step = tx.adapter.cancelBet(round.engine, {
    commandId: cancel.commandId,
    playerId: cancel.playerId,
    bet,
  });
  if (tx.applyRound(step)) {
    // The bet as its BetCancelled names it (the betId of its answer), however it was named here:
    // a wallet credits once per betId, and a cancellation by command id has no betId of its own.
    tx.reply = { betId: bet.answeredBetId ?? bet.betId, roundId: round.id, cancelled: true };
  }
}

/** Many decisions in one adapter step (adapter.decideMany), answered one by one. */
export function decideMany(tx: Transition, decisions: readonly DecisionCommand[]): ItemResult[] {
  return inOneStep(
    tx,
    decisions,
    (decision) => decisionProblem(tx, decision),
    (engine, _round, accepted) => tx.adapter.decideMany!(engine, accepted),
    (_decision, roundId) => ({ roundId }),
  );
}

/**
 * The table's own checks item by item, then the rest to the game in one adapter step: the
 * answers are in the items' order, as if each had been submitted alone.
 */
function inOneStep<C>(
  tx: Transition,
  items: readonly C[],
  problemOf: (item: C) => MachineRejection | null,
  apply: (engine: unknown, round: RoundState, items: C[]) => AdapterBatchStep<unknown>,
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
  const round = tx.round;
  if (candidates.length > 0 && round) {
    const batch = apply(round.engine, round, candidates);
    tx.absorb(batch.step);
    batch.results.forEach((problem, k) => {
      results[at[k]] = problem
        ? { accepted: false, code: problem.code, message: problem.message }
        : { accepted: true, reply: replyOf(candidates[k], round.id) };
    });
  }
  return results;
}

/** Why the table refuses this bet before the game sees it (paused, wrong round, limits). */
function betProblem(tx: Transition, bet: BetCommand): MachineRejection | null {
  if (tx.paused) return { code: 'table-paused', message: 'The table is paused; no bets now' };
  const round = tx.round;
  if (bet.roundId && bet.roundId !== round?.id) {
    if (bet.roundId === tx.state.lastRoundId) {
      return {
        code: 'betting-closed',
        message: `Round ${bet.roundId} has ended; betting is closed`,
      };
    }
    return unknownRound(tx, bet.roundId);
  }
  if (!round || !tx.adapter.isBettingOpen(round.engine)) {
    return { code: 'betting-closed', message: 'Betting is closed for this round' };
  }
  if (!Number.isSafeInteger(bet.amount) || bet.amount <= 0) {
    return {
      code: 'invalid-amount',
      message: 'The amount must be a positive whole number of minor units',
    };
  }
  const currency = bet.currency ?? tx.settings.currency;
  const limits = limitsIn(tx.settings, currency);
  if (!limits) {
    return {
      code: 'wrong-currency',
      message: `The table plays in ${currenciesOf(tx.settings).join(', ')}, not ${currency}`,
    };
  }
  if (round.currencies && Object.hasOwn(round.currencies, bet.playerId)) {
    const held = playerCurrency(tx.settings, round, bet.playerId);
    if (held !== currency) {
      return {
        code: 'mixed-currencies',
        message: `This player bets in ${held} this round, not ${currency}`,
      };
    }
  }
  const parts: Array<[string, number]> = [
    [bet.betType, bet.amount],
    ...Object.entries(bet.sideBets ?? {}).filter(([, amount]) => amount !== 0),
  ];
  for (const [betType, amount] of parts) {
    // The currency is named in the message only where there are several.
    const named = currenciesOf(tx.settings).length > 1 ? ` ${currency}` : '';
    const problem = partProblem(tx, limits, named, [betType, amount], round.roundNumber);
    if (problem) return problem;
  }
  return null;
}

/**
 * One part of a bet (the main bet or a side bet) against its limits in the bet's currency and the
 * shoe's offer.
 */
function partProblem(
  tx: Transition,
  limits: Record<string, { min: number; max: number }>,
  currency: string,
  [betType, amount]: [string, number],
  roundNumber: number,
): MachineRejection | null {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    return {
      code: 'invalid-amount',
      message: `The ${betType} amount must be a positive whole number of minor units`,
    };
  }
  // betType is the platform's text: only the table's own limits count (never `__proto__`).
  const limit = Object.hasOwn(limits, betType) ? limits[betType] : undefined;
  if (limit && amount < limit.min) {
    return {
      code: 'under-limit',
      message: `The minimum ${betType} bet is ${limit.min}${currency} (got ${amount})`,
    };
  }
  if (limit && amount > limit.max) {
    return {
      code: 'over-limit',
      message: `The maximum ${betType} bet is ${limit.max}${currency} (got ${amount})`,
    };
  }
  if (!isSideBetOffered(tx.adapter.shoeRules, betType, roundNumber)) {
    return {
      code: 'side-bet-not-offered',
      message: `The ${betType} bet is not offered after round ${tx.adapter.shoeRules.sideBetLastRound[betType]} of the shoe`,
    };
  }
  return null;
}

function decisionProblem(tx: Transition, decision: DecisionCommand): MachineRejection | null {
  if (tx.paused) return { code: 'table-paused', message: 'The table is paused; decisions wait' };
  const round = tx.round;
  if (decision.roundId && decision.roundId !== round?.id) {
    if (decision.roundId === tx.state.lastRoundId) {
      return { code: 'round-over', message: `Round ${decision.roundId} has ended` };
    }
    return unknownRound(tx, decision.roundId);
  }
  if (!round) return { code: 'no-round', message: 'No round is in progress' };
  return null;
}

/** A command addressed to a round that is not the one in progress (late, or made up). */
function unknownRound(tx: Transition, roundId: string): MachineRejection {
  const current = tx.round;
  return {
    code: 'unknown-round',
    message: `Round ${roundId} is not in progress at this table${current ? ` (round ${current.id} is)` : ''}`,
  };
}
