import { CardCode, cardCode, decks } from '@studio/cards';
import { applyShoeInput, newShoe, ShoeInput } from '@studio/games/shoe';
import { expectedCard, ingestOk } from './expected-card';
import { PauseInfo, withRunningPhase } from './table-state';
import { Transition } from './transition';

/**
 * Steps more than one kind of input takes: opening and finishing a shoe, declaring the last
 * round, pausing, and applying a card (a scanned one, or one a virtual shoe deals).
 */

type CardApplied = { ok: true } | { ok: false; code: string; message: string };

export function startShoe(tx: Transition): void {
  const shoeNumber = (tx.state.shoe?.state.shoeNumber ?? 0) + 1;
  const id = tx.ctx.newId();
  const rules = tx.adapter.shoeRules;
  tx.state = withRunningPhase(
    {
      ...tx.state,
      shoe: { id, state: newShoe(rules, shoeNumber) },
      ingestion: ingestOk(tx.state.ingestion, { type: 'new-shoe', deckCount: rules.deckCount }),
      faceDownCards: {},
    },
    { kind: 'between-rounds' },
  );
  tx.writes.newShoe = { id, shoeNumber, deckCount: rules.deckCount };
  tx.publicEvent('ShoeStarted', { shoeId: id, shoeNumber, deckCount: rules.deckCount });
  if (tx.adapter.dealsOwnCards) shuffleVirtualShoe(tx, id, rules.deckCount);
}

function shuffleVirtualShoe(tx: Transition, shoeId: string, deckCount: number): void {
  if (!tx.ctx.shuffle) throw new Error('A virtual-shoe table needs a shuffle in its context');
  const order = tx.ctx.shuffle(decks(deckCount).map(cardCode));
  tx.state = { ...tx.state, virtualShoe: { order, next: 0 } };
  // Restricted: the order is the future of the shoe; auditors replay rounds from it.
  tx.emit({ type: 'VirtualShoeShuffled', visibility: 'restricted', payload: { shoeId, order } });
}

export function finishShoe(tx: Transition, reason: string): void {
  const shoe = tx.state.shoe!;
  tx.writes.finishShoe = { id: shoe.id, reason };
  // The shoe is closed: its burnt cards may now be published.
  tx.publicEvent('ShoeFinished', {
    shoeId: shoe.id,
    shoeNumber: shoe.state.shoeNumber,
    reason,
    burntCards: [
      ...(shoe.state.burn.shownCard ? [shoe.state.burn.shownCard] : []),
      ...shoe.state.burn.burntCards,
    ],
    cardsDrawn: shoe.state.cardsDrawn,
  });
  startShoe(tx);
}

export function cutCard(tx: Transition, by: string): void {
  const shoe = tx.state.shoe;
  if (!shoe) return tx.reject('no-shoe', 'No shoe is open');
  const result = applyShoeInput(shoe.state, { type: 'cut-card-drawn' } as ShoeInput);
  if ('rejected' in result) return tx.reject(result.rejected.code, result.rejected.message);
  tx.state = { ...tx.state, shoe: { id: shoe.id, state: result.state } };
  const declared = result.effects.find((e) => e.type === 'last-round-declared');
  tx.publicEvent(
    'LastRoundOfShoe',
    { roundNumber: declared && 'roundNumber' in declared ? declared.roundNumber : null },
    by,
  );
}

export function pause(tx: Transition, kind: PauseInfo['kind'], by: string, reason: string): void {
  const phase = tx.state.phase;
  if (phase.kind === 'paused') {
    if (kind === 'escalation') return;
    return tx.reject('already-paused', `The table is already paused (${phase.pause.reason})`);
  }
  const timersRemaining = tx.state.timers.map((t) => ({
    name: t.name,
    token: t.token,
    remainingMs: Math.max(0, t.dueAt - tx.ctx.now),
  }));
  const at = new Date(tx.ctx.now).toISOString();
  tx.state = {
    ...tx.state,
    phase: { kind: 'paused', pause: { kind, reason, by, at, timersRemaining }, resumes: phase },
    timers: [],
  };
  markRound(tx, 'paused');
  tx.publicEvent('RoundPaused', { kind, reason }, by);
  if (kind === 'supervisor') {
    tx.writes.supervisorAction = {
      action: 'pause',
      reason,
      actor: by,
      roundId: tx.roundId,
      details: {},
    };
  }
}

/** A recognised card for the expected slot: the shoe first (burn, composition), then the game. */
export function applyCard(tx: Transition, card: CardCode, readingId: string | null): CardApplied {
  const shoe = tx.state.shoe;
  if (!shoe) return { ok: false, code: 'no-card-expected', message: 'No shoe is open' };
  if (shoe.state.phase === 'burning') return burnCard(tx, card, readingId);
  const drawn = applyShoeInput(shoe.state, { type: 'card', card });
  if ('rejected' in drawn) return { ok: false, ...drawn.rejected };
  const round = tx.round;
  if (!round) return { ok: false, code: 'no-card-expected', message: 'No round is in progress' };
  const result = tx.adapter.card(round.engine, card);
  if ('rejected' in result) return { ok: false, ...result.rejected };
  tx.state = { ...tx.state, shoe: { id: shoe.id, state: drawn.state } };
  tx.absorb(result, readingId);
  return { ok: true };
}

function burnCard(tx: Transition, card: CardCode, readingId: string | null): CardApplied {
  const shoe = tx.state.shoe!;
  const expected = expectedCard(tx.adapter, tx.state);
  const drawn = applyShoeInput(shoe.state, { type: 'card', card });
  if ('rejected' in drawn) return { ok: false, ...drawn.rejected };
  tx.state = { ...tx.state, shoe: { id: shoe.id, state: drawn.state } };
  const row = { card, roundId: null, shoeId: shoe.id, readingId };
  for (const effect of drawn.effects) {
    if (effect.type === 'burn-card-shown') {
      tx.publicEvent('BurnCardShown', { card: effect.card, toBurn: effect.toBurn });
      tx.writes.cards.push({ ...row, slot: 'shoe-burn/shown', faceDown: false });
    } else if (effect.type === 'card-burnt') {
      // Burnt cards stay secret until the shoe is finished.
      tx.publicEvent('CardBurnt', { remaining: effect.remaining });
      tx.emit({ type: 'BurntCardRecorded', visibility: 'restricted', payload: { card } });
      tx.writes.cards.push({ ...row, slot: expected?.slot ?? 'shoe-burn', faceDown: true });
    } else if (effect.type === 'burn-completed') {
      tx.publicEvent('BurnCompleted', { burntCount: effect.burntCount });
    }
  }
  return { ok: true };
}

/** The round's status row follows a pause or a resume. */
export function markRound(tx: Transition, status: 'paused' | 'in-progress'): void {
  const round = tx.round;
  if (!round) return;
  const phase = tx.adapter.phase(round.engine);
  tx.writes.roundStatus = { id: round.id, status, phase, ended: false };
}
