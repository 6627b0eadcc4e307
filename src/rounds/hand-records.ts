import type { CardCode } from '@studio/cards';
import { handTotal, PlayerHand } from '@studio/games/blackjack';
import type { HandRecord } from './game-adapter';

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
