import type { CardCode } from '@studio/cards';
import { handTotal, PlayerHand } from '@studio/games/blackjack';
import { AdapterResult, ExpectedCard, HandRecord, publicEvent } from '../game-adapter';

/** A blackjack hand as a row: its cards, its total ("soft 17", "bust 24") and how it ended. */
export function blackjackHandRecord(
  hand: string,
  owner: string | null,
  cards: readonly CardCode[],
  result: string | null,
): HandRecord {
  const total = cards.length ? handTotal(cards) : null;
  return {
    hand,
    owner,
    cards: [...cards],
    total: total ? `${total.total > 21 ? 'bust ' : total.soft ? 'soft ' : ''}${total.total}` : '',
    result,
  };
}

export function playerHandRecords(
  prefix: string,
  owner: string | null,
  hands: readonly PlayerHand[],
  results: readonly string[] | null = null,
): HandRecord[] {
  return hands.map((h, i) =>
    blackjackHandRecord(`${prefix}/${i + 1}`, owner, h.cards, results?.[i] ?? h.status),
  );
}

/**
 * A blackjack table's dealt card, recorded on its engine step: the slot it went to, and for the
 * dealer's hole card the face-down flag plus the public event that says only that it was dealt.
 */
export function withDealtCard<S>(
  result: AdapterResult<S>,
  expected: ExpectedCard | null,
  card: CardCode,
): AdapterResult<S> {
  if ('rejected' in result || !expected) return result;
  const faceDown = expected.slot === 'dealer-hole';
  result.cards = [{ slot: expected.slot, card, faceDown }];
  if (faceDown) result.events.unshift(publicEvent('CardDealtFaceDown', { slot: expected.slot }));
  return result;
}
