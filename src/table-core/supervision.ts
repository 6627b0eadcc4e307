import { CardCode, cardIndex, parseCardCode } from '@studio/cards';
import { ingestOk } from './expected-card';
import { finishShoe, markRound } from './shared-steps';
import { runningPhase, VoidRequest, withRound } from './table-state';
import { ROUND_TIMER, Transition } from './transition';

/** What the dealer and the supervisors do at the table. */

export function closeBetting(tx: Transition, by: string): void {
  const round = tx.round;
  if (!round || !tx.adapter.isBettingOpen(round.engine)) {
    return tx.reject('betting-closed', 'Betting is not open');
  }
  if (tx.applyRound(tx.adapter.closeBetting(round.engine))) {
    tx.emit({ type: 'BettingClosedByDealer', visibility: 'restricted', payload: {} }, by);
  }
}

export function resume(tx: Transition, by: string): void {
  const phase = tx.state.phase;
  if (phase.kind !== 'paused') return tx.reject('not-paused', 'The table is not paused');
  const paused = phase.pause;
  let ingestion = tx.state.ingestion;
  if (ingestion.slot?.escalated) ingestion = ingestOk(ingestion, { type: 'supervisor-resolved' });
  tx.state = {
    ...tx.state,
    ingestion,
    phase: phase.resumes,
    timers: paused.timersRemaining.map((t) => ({
      name: t.name,
      token: t.token,
      dueAt: tx.ctx.now + t.remainingMs,
    })),
  };
  markRound(tx, 'in-progress');
  tx.publicEvent('RoundResumed', { pausedFor: paused.reason }, by);
  tx.writes.supervisorAction = {
    action: 'resume',
    reason: null,
    actor: by,
    roundId: tx.roundId,
    details: { pauseKind: paused.kind, pauseReason: paused.reason },
  };
}

/** Voids the round at once: every bet refunded. */
export function voidRound(tx: Transition, by: string, reason: string): void {
  if (!tx.round) return tx.reject('no-round', 'No round is in progress to void');
  if (!reason.trim()) return tx.reject('reason-required', 'A void needs a reason');
  applyVoid(tx, by, reason);
}

/** A void that waits for a second supervisor; it lapses if the round ends first. */
export function requestVoid(tx: Transition, requestId: string, by: string, reason: string): void {
  const round = tx.round;
  if (!round) return tx.reject('no-round', 'No round is in progress to void');
  if (!reason.trim()) return tx.reject('reason-required', 'A void needs a reason');
  const request: VoidRequest = { requestId, by, reason, at: new Date(tx.ctx.now).toISOString() };
  tx.state = withRound(tx.state, (r) => ({ ...r, voidRequests: [...r.voidRequests, request] }));
  tx.emit({ type: 'VoidRequested', visibility: 'restricted', payload: { requestId, reason } }, by);
  tx.writes.supervisorAction = {
    action: 'void',
    reason,
    actor: by,
    roundId: round.id,
    details: {},
    pendingRequestId: requestId,
  };
  tx.reply = { pendingApproval: true, requestId, roundId: round.id };
}

/** A different supervisor approves a pending request: the round is voided as requested. */
export function approveVoid(tx: Transition, requestId: string, by: string): void {
  const request = tx.round?.voidRequests.find((r) => r.requestId === requestId);
  if (!request) {
    return tx.reject('request-not-pending', `Void request ${requestId} is no longer pending`);
  }
  if (request.by === by) {
    return tx.reject('second-supervisor-required', 'A different supervisor must approve this void');
  }
  tx.state = withRound(tx.state, (r) => ({
    ...r,
    voidRequests: r.voidRequests.filter((x) => x !== request),
  }));
  tx.emit({ type: 'VoidApproved', visibility: 'restricted', payload: { requestId } }, by);
  applyVoid(tx, request.by, request.reason, { requestId, approvedBy: by });
}

function applyVoid(
  tx: Transition,
  by: string,
  reason: string,
  approval?: { requestId: string; approvedBy: string },
): void {
  const round = tx.round!;
  const result = tx.adapter.voidRound(round.engine, reason);
  if ('rejected' in result) return tx.reject(result.rejected.code, result.rejected.message);
  const wasEscalated =
    tx.state.phase.kind === 'paused' && tx.state.phase.pause.kind === 'escalation';
  tx.state = {
    ...tx.state,
    phase: runningPhase(tx.state),
    timers: tx.state.timers.filter((t) => t.name === ROUND_TIMER),
  };
  if (wasEscalated || tx.state.ingestion.slot) {
    tx.state = { ...tx.state, ingestion: { ...tx.state.ingestion, slot: null } };
  }
  tx.absorb(result);
  const approvedBy = approval ? { approvedBy: approval.approvedBy } : {};
  tx.publicEvent('RoundVoided', { reason, ...approvedBy }, by);
  tx.writes.supervisorAction = {
    action: 'void',
    reason,
    actor: by,
    roundId: round.id,
    details: {},
    ...(approval ? { approval } : {}),
  };
  tx.writes.roundStatus = {
    id: round.id,
    status: 'voided',
    phase: 'voided',
    ended: true,
    voidReason: reason,
    finalState: result.state,
  };
}

export function correctCard(
  tx: Transition,
  by: string,
  slot: string,
  cardText: string,
  reason: string,
): void {
  const round = tx.round;
  const parsed = parseCardCode(cardText);
  if (!parsed) return tx.reject('invalid-card', `Not a card code: "${cardText}"`);
  if (!reason.trim()) return tx.reject('reason-required', 'A correction needs a reason');
  // Only the table's own slots: a slot the schema admits may still name a property every object
  // inherits ('constructor'), which is no card.
  const old = Object.hasOwn(tx.state.faceDownCards, slot)
    ? tx.state.faceDownCards[slot]
    : undefined;
  if (!round || !old) {
    return tx.reject(
      'not-correctable',
      `Slot ${slot} holds no face-down card of the current round (only unrevealed cards can be corrected)`,
    );
  }
  if (!tx.adapter.correctCard) {
    return tx.reject('not-correctable', `${tx.settings.game} does not support card correction`);
  }
  const card = `${parsed.rank}${parsed.suit}` as CardCode;
  const shoe = tx.state.shoe!;
  const counts = [...shoe.state.composition.counts];
  counts[cardIndex(parseCardCode(old)!)] -= 1;
  if (counts[cardIndex(parsed)] >= shoe.state.composition.deckCount) {
    return tx.reject(
      'composition-exceeded',
      'This shoe already produced every copy of the replacement card',
    );
  }
  counts[cardIndex(parsed)] += 1;
  const result = tx.adapter.correctCard(round.engine, slot, card);
  if ('rejected' in result) return tx.reject(result.rejected.code, result.rejected.message);
  const composition = { ...shoe.state.composition, counts };
  tx.state = withRound(
    {
      ...tx.state,
      shoe: { id: shoe.id, state: { ...shoe.state, composition } },
      ingestion: { ...tx.state.ingestion, counts },
      faceDownCards: { ...tx.state.faceDownCards, [slot]: card },
    },
    (r) => ({ ...r, engine: result.state }),
  );
  tx.writes.corrections.push({ slot, roundId: round.id, card, reason });
  const change = { slot, from: old, to: card, reason };
  tx.emit({ type: 'CardCorrected', visibility: 'restricted', payload: change }, by);
  tx.publicEvent('CardCorrectedFaceDown', { slot }, by);
  tx.writes.supervisorAction = {
    action: 'correct-card',
    reason,
    actor: by,
    roundId: round.id,
    details: { slot },
  };
}

export function endShoe(tx: Transition, by: string, reason: string): void {
  if (tx.round) {
    return tx.reject(
      'round-in-progress',
      'Finish or void the current round before ending the shoe',
    );
  }
  const shoe = tx.state.shoe;
  if (!shoe) return tx.reject('no-shoe', 'No shoe is open');
  if (!reason.trim()) return tx.reject('reason-required', 'Ending a shoe needs a reason');
  tx.writes.supervisorAction = {
    action: 'end-shoe',
    reason,
    actor: by,
    roundId: null,
    details: { shoeId: shoe.id },
  };
  tx.state = { ...tx.state, timers: tx.state.timers.filter((t) => t.name !== ROUND_TIMER) };
  finishShoe(tx, 'closed');
}
