import { def, JsonSchema } from '@studio/contracts';

const TEXT_OR_NULL: JsonSchema = { type: ['string', 'null'] };
const MINOR_UNITS = (description: string): JsonSchema => ({ type: 'integer', description });

const TIME: JsonSchema = def('timestamp');

/**
 * GET /platform/rounds/{roundId}: a round where the platform had a bet, its cards, the dealer's
 * and shared hands and its own players' (src/platform/platform-reports.controller.ts), and its
 * own players' bets, decisions and settlements (src/history/reader/platform-records.reader.ts).
 */
export const PLATFORM_ROUND: JsonSchema = {
  title: 'PlatformRound',
  type: 'object',
  properties: {
    roundId: { type: 'string', format: 'uuid' },
    tableId: def('id'),
    game: { type: 'string' },
    status: { type: 'string', enum: ['in-progress', 'paused', 'completed', 'voided'] },
    startedAt: TIME,
    endedAt: { type: ['string', 'null'], format: 'date-time', description: 'null while in play' },
    bets: {
      type: 'array',
      items: {
        title: 'PlatformRoundBet',
        type: 'object',
        properties: {
          betId: def('betId'),
          playerId: { type: 'string', description: 'your player, as you name it' },
          commandId: { ...TEXT_OR_NULL, description: 'your PlaceBet, as you sent it' },
          betType: { type: 'string' },
          spot: TEXT_OR_NULL,
          amount: MINOR_UNITS('the bet'),
          deducted: MINOR_UNITS('what it took from the player (a Pok Deng deposit included)'),
          currency: def('currency'),
          status: { type: 'string', description: 'accepted, settled, cancelled, …' },
          placedAt: TIME,
        },
        required: [
          'betId',
          'playerId',
          'commandId',
          'betType',
          'spot',
          'amount',
          'deducted',
          'currency',
          'status',
          'placedAt',
        ],
        additionalProperties: false,
      },
    },
    decisions: {
      type: 'array',
      items: {
        title: 'PlatformRoundDecision',
        type: 'object',
        properties: {
          playerId: { type: 'string' },
          hand: TEXT_OR_NULL,
          action: { type: 'string' },
          automatic: {
            type: 'boolean',
            description: 'taken by the studio (auto-play, a time-out)',
          },
          commandId: TEXT_OR_NULL,
          decidedAt: TIME,
        },
        required: ['playerId', 'hand', 'action', 'automatic', 'commandId', 'decidedAt'],
        additionalProperties: false,
      },
    },
    settlements: {
      type: 'array',
      items: {
        title: 'PlatformRoundSettlement',
        type: 'object',
        properties: {
          betId: def('betId'),
          playerId: { type: 'string' },
          betType: { type: 'string' },
          spot: TEXT_OR_NULL,
          stake: MINOR_UNITS('the stake'),
          returned: MINOR_UNITS('credited to the player: stake plus winnings, 0 for a lost bet'),
          net: MINOR_UNITS('returned - stake'),
          currency: def('currency'),
          outcome: { type: 'string' },
          settledAt: TIME,
        },
        required: [
          'betId',
          'playerId',
          'betType',
          'spot',
          'stake',
          'returned',
          'net',
          'currency',
          'outcome',
          'settledAt',
        ],
        additionalProperties: false,
      },
    },
    cards: {
      type: 'array',
      description: 'in dealing order; a card still face down by its slot only',
      items: {
        title: 'PlatformRoundCard',
        type: 'object',
        properties: {
          slot: { type: 'string' },
          card: def('cardCode'),
          faceDown: { const: true },
        },
        required: ['slot'],
        additionalProperties: false,
      },
    },
    hands: {
      type: 'array',
      description: "the dealer's and shared hands (owner null) and your players' own",
      items: {
        title: 'PlatformRoundHand',
        type: 'object',
        properties: {
          hand: { type: 'string' },
          owner: {
            ...TEXT_OR_NULL,
            description:
              "your player; null for the dealer's; an Infinite Blackjack common hand says how many played it",
          },
          cards: { type: 'array', items: def('cardCode') },
          total: { type: 'string' },
          result: TEXT_OR_NULL,
        },
        required: ['hand', 'owner', 'cards', 'total', 'result'],
        additionalProperties: false,
      },
    },
  },
  required: [
    'roundId',
    'tableId',
    'game',
    'status',
    'startedAt',
    'endedAt',
    'bets',
    'decisions',
    'settlements',
    'cards',
    'hands',
  ],
  additionalProperties: false,
};
