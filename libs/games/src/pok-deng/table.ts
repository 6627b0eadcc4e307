import { CardCode } from '@studio/cards';
import { drawCard, ShoeEffect, ShoeRejection, ShoeState } from '../shoe/shoe';
import {
  dealCard,
  expectedSlot,
  PokDengEffect,
  PokDengRejection,
  PokDengRoundState,
} from './round';

/**
 * A card read from the shoe during a Pok Deng round, applied to both machines or to neither: the
 * round must expect a card, the shoe's composition check must pass, then the card takes its slot.
 */
export function dealFromShoe(
  shoe: ShoeState,
  round: PokDengRoundState,
  card: CardCode,
):
  | {
      readonly shoe: ShoeState;
      readonly round: PokDengRoundState;
      readonly effects: readonly (ShoeEffect | PokDengEffect)[];
    }
  | { readonly rejected: ShoeRejection | PokDengRejection } {
  if (!expectedSlot(round)) {
    return {
      rejected: { code: 'no-card-expected', message: 'Every card of this round has been dealt' },
    };
  }
  const drawn = drawCard(shoe, card);
  if ('rejected' in drawn) return drawn;
  const dealt = dealCard(round, card);
  if ('rejected' in dealt) return dealt;
  return {
    shoe: drawn.state,
    round: dealt.state,
    effects: [...drawn.effects, ...dealt.effects],
  };
}
