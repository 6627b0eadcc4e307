import { applyShoeInput, ShoeEffect } from '@studio/games/shoe';
import { expectedCard, ingestOk } from './expected-card';
import { applyCard, cutCard, finishShoe, startShoe } from './shared-steps';
import { withRunningPhase } from './table-state';
import { ROUND_TIMER, Transition } from './transition';

/**
 * The table's own life between inputs: shoes opened and finished, rounds started and ended,
 * the next round scheduled, a virtual shoe's cards dealt, and the scanner's expectation kept
 * equal to the card the table waits for.
 */

export function ensureShoe(tx: Transition): void {
  if (!tx.state.shoe || tx.state.shoe.state.phase === 'finished') startShoe(tx);
}

/** A virtual-shoe table deals the card it expects itself, from the recorded order. */
function dealOwnCard(tx: Transition): boolean {
  const vs = tx.state.virtualShoe;
  if (!tx.adapter.dealsOwnCards || !vs || tx.paused) return false;
  if (!expectedCard(tx.adapter, tx.state)) return false;
  const shoe = tx.state.shoe!.state;
  // Cut card at three quarters of the shoe: the round in progress is the last of the shoe.
  if (shoe.lastRoundNumber === null && tx.round && vs.next >= Math.floor(vs.order.length * 0.75)) {
    cutCard(tx, 'virtual-shoe');
  }
  if (vs.next >= vs.order.length) return false;
  const card = vs.order[vs.next];
  tx.state = { ...tx.state, virtualShoe: { order: vs.order, next: vs.next + 1 } };
  const applied = applyCard(tx, card, null);
  if (applied.ok) return true;
  tx.emit({
    type: 'VirtualCardRefused',
    visibility: 'restricted',
    payload: { card, code: applied.code },
  });
  return false;
}

export function startRound(tx: Transition): void {
  const shoe = tx.state.shoe!;
  const started = applyShoeInput(shoe.state, { type: 'start-round' });
  if ('rejected' in started) return;
  const roundStarted = started.effects.find((e) => e.type === 'round-started') as Extract<
    ShoeEffect,
    { type: 'round-started' }
  >;
  const id = tx.ctx.newId();
  const numbers = { shoeNumber: shoe.state.shoeNumber, roundNumber: roundStarted.roundNumber };
  const result = tx.adapter.startRound(
    { roundId: id, ...numbers },
    tx.adapter.keepsStateBetweenRounds ? tx.state.previousEngine : undefined,
  );
  if ('rejected' in result) return tx.reject(result.rejected.code, result.rejected.message);
  tx.state = withRunningPhase(
    {
      ...tx.state,
      shoe: { id: shoe.id, state: started.state },
      timers: tx.state.timers.filter((t) => t.name !== ROUND_TIMER),
    },
    { kind: 'in-round', round: { id, ...numbers, engine: result.state, voidRequests: [] } },
  );
  tx.writes.newRound = { id, shoeId: shoe.id, ...numbers };
  tx.publicEvent('RoundStarted', {
    ...numbers,
    isLastRoundOfShoe: roundStarted.isLastRound,
    sideBetsNoLongerOffered: roundStarted.sideBetsNoLongerOffered,
    game: tx.settings.game,
    currency: tx.settings.currency,
  });
  tx.absorb(result);
}

function endRound(tx: Transition): void {
  const round = tx.round!;
  const engine = round.engine;
  const voided = tx.adapter.phase(engine) === 'voided';
  if (tx.adapter.hands) tx.writes.hands = { roundId: round.id, hands: tx.adapter.hands(engine) };
  lapseVoidRequests(tx);
  const voidReason = tx.writes.roundStatus?.voidReason;
  tx.writes.roundStatus = {
    id: round.id,
    status: voided ? 'voided' : 'completed',
    phase: tx.adapter.phase(engine),
    ended: true,
    finalState: engine,
    ...(voidReason ? { voidReason } : {}),
  };
  tx.publicEvent(voided ? 'RoundEnded' : 'RoundCompleted', {
    shoeNumber: round.shoeNumber,
    roundNumber: round.roundNumber,
    status: voided ? 'voided' : 'completed',
  });
  const shoe = tx.state.shoe!;
  const ended = applyShoeInput(shoe.state, { type: 'end-round' });
  tx.state = withRunningPhase(
    {
      ...tx.state,
      lastRoundId: round.id,
      ...(tx.adapter.keepsStateBetweenRounds ? { previousEngine: engine } : {}),
      faceDownCards: {},
      timers: tx.state.timers.filter((t) => t.name === ROUND_TIMER),
    },
    { kind: 'between-rounds' },
  );
  if ('rejected' in ended) return;
  tx.state = { ...tx.state, shoe: { id: shoe.id, state: ended.state } };
  if (ended.state.phase === 'finished') finishShoe(tx, 'last-round-played');
}

/** Requests nobody approved before the round ended lapse with it (restricted: who asked why). */
function lapseVoidRequests(tx: Transition): void {
  const round = tx.round!;
  if (round.voidRequests.length === 0) return;
  for (const request of round.voidRequests) {
    tx.emit({
      type: 'VoidRequestLapsed',
      visibility: 'restricted',
      payload: { requestId: request.requestId, requestedBy: request.by },
    });
  }
  tx.writes.lapsedVoidRequests = {
    roundId: round.id,
    requestIds: round.voidRequests.map((r) => r.requestId),
  };
}

/** Automatic steps a game may take in a row without a card between them (a game needs few). */
const MAX_AUTO_STEPS_IN_A_ROW = 64;

/**
 * After any accepted input: the round runs on by itself as far as it can, ends if it is over,
 * a virtual shoe burns a new shoe's cards, and the next round is scheduled. This used to be one
 * loop capped at 500 passes that silently stopped mid-round; each stage is now bounded by what it
 * consumes (see advanceRound and dealBurnCards), so it always ends where the table waits.
 */
export function settle(tx: Transition): void {
  if (!tx.paused) {
    advanceRound(tx);
    const round = tx.round;
    if (round && !tx.paused && tx.adapter.isRoundOver(round.engine)) {
      endRound(tx);
      scheduleNextRound(tx);
    }
    dealBurnCards(tx);
    if (!tx.paused && !tx.round && tx.state.shoe?.state.phase === 'between-rounds') {
      scheduleNextRound(tx);
    }
  }
  syncExpectation(tx);
}

/**
 * Automatic steps and a virtual shoe's cards until the round waits for input or is over. Bounded:
 * every dealt card advances the virtual shoe (finite), and between two cards at most
 * MAX_AUTO_STEPS_IN_A_ROW automatic steps are taken.
 */
function advanceRound(tx: Transition): void {
  let autoSteps = 0;
  for (;;) {
    const round = tx.round;
    if (!round || tx.paused || tx.adapter.isRoundOver(round.engine)) return;
    if (autoSteps < MAX_AUTO_STEPS_IN_A_ROW) {
      const auto = tx.adapter.autoStep(round.engine);
      if (auto && !('rejected' in auto)) {
        tx.absorb(auto);
        autoSteps += 1;
        continue;
      }
    }
    if (!dealOwnCard(tx)) return;
    autoSteps = 0;
  }
}

/** A virtual shoe's burn between rounds: each card advances the virtual shoe, so it ends. */
function dealBurnCards(tx: Transition): void {
  while (!tx.round && dealOwnCard(tx));
}

function scheduleNextRound(tx: Transition): void {
  if (tx.state.timers.some((t) => t.name === ROUND_TIMER)) return;
  const token = tx.ctx.now;
  const dueAt = tx.ctx.now + tx.settings.roundIntervalMs;
  tx.state = { ...tx.state, timers: [...tx.state.timers, { name: ROUND_TIMER, token, dueAt }] };
}

/** Keeps the scanner's open slot equal to the card the table expects. */
function syncExpectation(tx: Transition): void {
  const expected = tx.paused ? null : expectedCard(tx.adapter, tx.state);
  const slotKey = expected ? `${tx.roundId ?? tx.state.shoe?.id}/${expected.slot}` : null;
  let ingestion = tx.state.ingestion;
  if (ingestion.slot && ingestion.slot.id !== slotKey && !ingestion.slot.escalated) {
    ingestion = ingestOk(ingestion, { type: 'withdraw-expectation' });
  }
  if (slotKey && !ingestion.slot) {
    ingestion = ingestOk(ingestion, { type: 'expect-card', slot: slotKey, at: tx.ctx.now });
  }
  if (ingestion !== tx.state.ingestion) tx.state = { ...tx.state, ingestion };
}
