import { GAME_KINDS } from '../table-events';
import type { JsonSchema } from './json-schema';

/**
 * JSON Schemas of every event the studio publishes on the table-events topic.
 *
 * Compatibility rule (schema version 1): a schema lists the fields a consumer may rely on; the
 * service may add fields without a new version, so consumers must ignore fields they do not know
 * (every payload schema allows additional properties). Removing or retyping a field is a breaking
 * change: a new schemaVersion for that event, and a new topic for a new envelope.
 */
export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
export const SCHEMA_BASE_URI = 'https://studio.example/contracts/v1/';

/** A card code: rank 2-9, T, J, Q, K, A then suit C, D, H, S (libs/cards). */
export const CARD_CODE: JsonSchema = {
  type: 'string',
  pattern: '^(?:[2-9TJQKA])[CDHS]$',
  description: 'card code: rank 2-9 T J Q K A, then suit C D H S ("AS", "TH")',
};
const MONEY: JsonSchema = {
  type: 'integer',
  description: 'integer minor units of the table currency (cents, satang)',
};
const STR: JsonSchema = { type: 'string' };
const INT: JsonSchema = { type: 'integer' };
const BOOL: JsonSchema = { type: 'boolean' };
const ANY_OBJECT: JsonSchema = { type: 'object' };
const ANY_ARRAY: JsonSchema = { type: 'array' };
const SLOT: JsonSchema = {
  type: 'string',
  description:
    'where a card goes: "player-1/2", "banker/1", "dealer-up", "dealer-hole", "1/1", ...',
};

function payload(
  properties: Record<string, JsonSchema>,
  required: string[] = Object.keys(properties),
): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: true };
}

/** One settled bet (rows of the `settlements` table, as platforms credit them). */
export const SETTLEMENT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    betId: STR,
    playerId: STR,
    betType: STR,
    spot: { type: ['string', 'null'], description: 'null for bets without a spot' },
    stake: { ...MONEY, description: 'what was taken from the player for this bet' },
    returned: { ...MONEY, description: 'what goes back to the player: stake + winnings, or 0' },
    net: { ...MONEY, description: 'returned - stake' },
    outcome: STR,
    roundedDown: {
      type: 'string',
      description: 'fraction of a minor unit dropped by rounding down ("0", "1/2")',
    },
  },
  required: ['betId', 'playerId', 'stake', 'returned', 'net'],
  additionalProperties: true,
};

export interface EventSchemaEntry {
  /** The envelope's `type`. */
  type: string;
  schemaVersion: number;
  /** Which games emit it ("all" for table-level events). */
  games: readonly string[] | 'all';
  /** One line for the contract document. */
  summary: string;
  payload: JsonSchema;
}

const ALL = 'all' as const;
const BJ = ['infinite-blackjack', 'blackjack-lux', 'european-blackjack-practice'] as const;
const IBJ = ['infinite-blackjack'] as const;
const LUX = ['blackjack-lux'] as const;
const IBJ_LUX = ['infinite-blackjack', 'blackjack-lux'] as const;
const PD = ['pok-deng'] as const;
const EU = ['european-blackjack-practice'] as const;

function entry(
  type: string,
  games: EventSchemaEntry['games'],
  summary: string,
  schema: JsonSchema = payload({}),
): EventSchemaEntry {
  return { type, schemaVersion: 1, games, summary, payload: schema };
}

/** The catalogue, grouped as the contract document shows it. */
export const EVENT_SCHEMAS: readonly EventSchemaEntry[] = [
  // ---- table, shoe and scanner --------------------------------------------------------------
  entry(
    'TableRegistered',
    ALL,
    'Table status: registered, or its configuration changed.',
    payload({
      tableId: STR,
      name: STR,
      game: { type: 'string', enum: GAME_KINDS },
      currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      reason: { type: 'string', enum: ['new', 'configuration-changed'] },
      configurationHash: STR,
    }),
  ),
  entry(
    'ScannerStatusChanged',
    ALL,
    "The table's card-shoe reader connected, went stale or disconnected.",
    payload({
      tableId: STR,
      port: STR,
      wireFormat: STR,
      virtual: BOOL,
      status: {
        type: 'string',
        enum: ['connecting', 'connected', 'stale', 'disconnected', 'stopped'],
      },
      previousStatus: {
        type: 'string',
        enum: ['connecting', 'connected', 'stale', 'disconnected', 'stopped'],
      },
      reason: STR,
      reconnectAttempts: INT,
    }),
  ),
  entry(
    'ShoeStarted',
    ALL,
    'A new shoe was started (burn follows for dealt shoes).',
    payload({ shoeId: STR, shoeNumber: INT, deckCount: INT }),
  ),
  entry(
    'BurnCardShown',
    ALL,
    'The first card of a new shoe is shown; its value says how many cards are burnt.',
    payload({ card: CARD_CODE, toBurn: INT }),
  ),
  entry(
    'CardBurnt',
    ALL,
    'A card was burnt face down (never published).',
    payload({ remaining: INT }),
  ),
  entry('BurnCompleted', ALL, 'The burn is over.', payload({ burntCount: INT })),
  entry(
    'ShoeFinished',
    ALL,
    'Shoe ended (cut card, or ended by a supervisor); the burnt cards are shown now.',
    payload(
      {
        shoeId: STR,
        shoeNumber: INT,
        reason: STR,
        burntCards: { type: 'array', items: CARD_CODE },
        cardsDrawn: INT,
      },
      ['shoeId', 'shoeNumber', 'reason'],
    ),
  ),
  entry('ShoeLoaded', EU, 'The practice table loaded its recorded shoe.', payload({}, [])),
  // ---- rounds ---------------------------------------------------------------------------------
  entry(
    'RoundStarted',
    ALL,
    'A round started (the envelope carries its roundId).',
    payload(
      {
        shoeNumber: INT,
        roundNumber: INT,
        isLastRoundOfShoe: BOOL,
        sideBetsNoLongerOffered: ANY_ARRAY,
        game: { type: 'string', enum: GAME_KINDS },
        currency: STR,
      },
      ['roundNumber', 'game', 'currency'],
    ),
  ),
  entry('BettingOpened', ALL, 'Betting window opened.', payload({ bettingWindowMs: INT }, [])),
  entry('BettingClosed', ALL, 'Betting window closed: no more bets this round.', payload({}, [])),
  entry(
    'BetAccepted',
    ALL,
    'A bet was accepted (and the stake taken).',
    payload({ playerId: STR, amount: MONEY, main: MONEY, betId: STR, betType: STR, spot: STR }, [
      'playerId',
    ]),
  ),
  entry(
    'BetsAccepted',
    IBJ,
    'A batch of bets was accepted.',
    payload({ accepted: INT, rejected: ANY_ARRAY }, ['accepted']),
  ),
  entry(
    'SeatTaken',
    LUX,
    'A player took a seat with a seat bet.',
    payload({ seat: INT, playerId: STR }, ['seat']),
  ),
  entry(
    'SeatBetAccepted',
    LUX,
    'Seat bet accepted.',
    payload({ seat: INT, playerId: STR }, ['seat']),
  ),
  entry(
    'SeatBetFailed',
    LUX,
    'A seated player did not bet in time; the seat is freed.',
    payload({ seat: INT }, []),
  ),
  entry('SeatLeft', LUX, 'A player left a seat.', payload({ seat: INT }, [])),
  entry('SeatRemoved', LUX, 'A seat was removed from the round.', payload({ seat: INT }, [])),
  entry('SeatSitsOut', LUX, 'A seated player sits this round out.', payload({ seat: INT }, [])),
  entry(
    'BehindBetAccepted',
    LUX,
    'A bet behind a seat was accepted.',
    payload({ seat: INT, playerId: STR }, ['seat']),
  ),
  entry(
    'FollowChoiceSet',
    LUX,
    'Bet-behind choice: follow the seat on doubles / splits or not.',
    payload({ seat: INT, playerId: STR }, []),
  ),
  entry(
    'PreDecisionSet',
    LUX,
    'A pre-decision was registered for the seat.',
    payload({ seat: INT }, []),
  ),
  entry(
    'PreDecisionApplied',
    LUX,
    'A pre-decision was applied when the turn came.',
    payload({ seat: INT }, []),
  ),
  // ---- cards ----------------------------------------------------------------------------------
  entry(
    'CardDealt',
    BJ,
    'Card revealed: a face-up card was dealt to a slot.',
    payload({ slot: SLOT, card: CARD_CODE, to: STR }, ['card']),
  ),
  entry(
    'CardDealtFaceDown',
    ALL,
    'A card was dealt face down: only the slot, never the card (revealed later).',
    { type: 'object', properties: { slot: SLOT }, required: ['slot'], additionalProperties: false },
  ),
  entry(
    'CommonCardDrawn',
    IBJ,
    'Card revealed: a card for the common hand.',
    payload({ card: CARD_CODE }, []),
  ),
  entry(
    'DealerCardDrawn',
    IBJ_LUX,
    'Card revealed: the dealer drew a card.',
    payload({ card: CARD_CODE }, []),
  ),
  entry(
    'HoleCardRevealed',
    IBJ_LUX,
    "Card revealed: the dealer's hole card is turned over.",
    payload({ card: CARD_CODE, dealerTotal: INT }, ['card']),
  ),
  entry(
    'HiddenCardRevealed',
    EU,
    "Card revealed: the practice dealer's hidden card.",
    payload({ card: CARD_CODE }, []),
  ),
  entry(
    'DealerChecked',
    IBJ_LUX,
    'The dealer peeked for blackjack.',
    payload({ blackjack: BOOL }, []),
  ),
  entry('AllCardsDealt', PD, 'All Pok Deng cards are dealt (still face down).', payload({}, [])),
  entry(
    'HandRevealed',
    PD,
    'Card revealed: a Pok Deng hand is turned over with its score.',
    payload(
      {
        hand: STR,
        cards: { type: 'array', items: CARD_CODE },
        score: { type: 'string', description: 'e.g. "9 points", "pok 8"' },
        points: INT,
        combination: { type: ['string', 'null'] },
        flush: BOOL,
        pair: BOOL,
      },
      ['hand', 'cards'],
    ),
  ),
  entry(
    'CardRejected',
    ALL,
    'A reading was refused for the expected slot (the dealer rescans).',
    payload({ slot: SLOT, reason: STR }, ['reason']),
  ),
  entry('RescanRequired', ALL, 'The expected card must be scanned again.', payload({}, [])),
  entry(
    'CardNotExpected',
    ALL,
    'A card was read when none was expected.',
    payload({ reason: STR }, ['reason']),
  ),
  entry(
    'CardCorrectedFaceDown',
    ALL,
    'A supervisor corrected a face-down card (slot only).',
    payload({ slot: SLOT }),
  ),
  entry(
    'CardCorrected',
    ALL,
    'A supervisor corrected a face-up card.',
    payload({ slot: SLOT, card: CARD_CODE }, ['slot']),
  ),
  // ---- decisions ------------------------------------------------------------------------------
  entry(
    'InsuranceOffered',
    IBJ_LUX,
    'Insurance window opened (dealer shows an ace).',
    payload({}, []),
  ),
  entry('InsuranceAnswered', LUX, 'A seat answered insurance.', payload({}, [])),
  entry('InsuranceClosed', IBJ_LUX, 'Insurance window closed.', payload({}, [])),
  entry(
    'DecisionWindowOpened',
    IBJ,
    'Decision window opened: every listed hand may now decide.',
    payload({ window: INT, hands: ANY_ARRAY }, ['window']),
  ),
  entry(
    'DecisionWindowClosed',
    IBJ,
    'Decision window closed; hands without a decision were auto-played.',
    payload(
      {
        window: INT,
        autoPlayed: { type: 'integer', description: 'how many hands were auto-played' },
        moves: ANY_ARRAY,
      },
      ['window'],
    ),
  ),
  entry('DecisionsAccepted', IBJ, 'A batch of decisions was accepted.', payload({}, [])),
  entry('DecisionAccepted', IBJ_LUX, 'A decision was accepted.', payload({}, [])),
  entry('DecisionApplied', IBJ_LUX, 'A decision was applied to a hand.', payload({}, [])),
  entry(
    'DecisionRequested',
    BJ,
    'Decision window opened for one seat (its turn).',
    payload({}, []),
  ),
  entry('Decision', EU, 'A practice seat decided.', payload({}, [])),
  entry(
    'TurnStarted',
    LUX,
    "A seat's turn started (decision window for that seat).",
    payload({ seat: INT }, []),
  ),
  entry(
    'AutoPlayed',
    IBJ_LUX,
    'A hand without a decision was played by the default rule.',
    payload({}, []),
  ),
  // ---- results and money ---------------------------------------------------------------------
  entry(
    'RoundSettled',
    BJ,
    'Round result: the dealer hand and per-hand outcomes; totals of the round.',
    payload(
      { roundId: STR, dealerCards: { type: 'array', items: CARD_CODE }, totals: ANY_OBJECT },
      [],
    ),
  ),
  entry(
    'RoundResult',
    PD,
    'Round result: the Pok Deng roadmap entry.',
    payload({ roadmap: ANY_OBJECT }, []),
  ),
  entry(
    'BetsSettled',
    ALL,
    'Bets settled: one batch of settled bets (a large round is split into several batches).',
    payload({
      batch: { type: 'integer', minimum: 1, description: 'this batch, 1..batches' },
      batches: { type: 'integer', minimum: 1, description: 'how many batches the round has' },
      settlements: { type: 'array', items: SETTLEMENT_SCHEMA, minItems: 1 },
    }),
  ),
  entry(
    'BetsRefunded',
    ALL,
    'Bets refunded (voided round): stake returned in full, net 0.',
    payload(
      {
        batch: { type: 'integer', minimum: 1 },
        batches: { type: 'integer', minimum: 1 },
        settlements: { type: 'array', items: SETTLEMENT_SCHEMA },
      },
      ['settlements'],
    ),
  ),
  entry('BetsReturned', IBJ_LUX, 'Bets returned to the players (voided round).', payload({}, [])),
  entry(
    'RoundPaused',
    ALL,
    'Round paused by a supervisor or by an escalated rescan.',
    payload({ kind: STR, reason: STR }),
  ),
  entry('RoundResumed', ALL, 'Round resumed.', payload({ pausedFor: STR }, [])),
  entry('RoundVoided', ALL, 'Round voided: every bet is refunded.', payload({ reason: STR }, [])),
  entry('RoundCompleted', ALL, 'Round over and settled.', payload({}, [])),
  entry('RoundEnded', ALL, 'Round over after a void.', payload({}, [])),
  entry(
    'SupervisorAlert',
    ALL,
    'Something needs a supervisor (rescan limit, composition error).',
    payload({ kind: STR }, ['kind']),
  ),
];

const BY_TYPE = new Map(EVENT_SCHEMAS.map((e) => [e.type, e]));

export function eventSchemaEntry(type: string): EventSchemaEntry | undefined {
  return BY_TYPE.get(type);
}

/** The envelope of every event (the Kafka message value). */
export const EVENT_ENVELOPE_SCHEMA: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE_URI}event-envelope.json`,
  title: 'Table event envelope',
  type: 'object',
  properties: {
    eventId: { type: 'string', format: 'uuid', description: 'unique, stable across redelivery' },
    type: {
      type: 'string',
      description: 'the event type; its payload schema is events/<type>.json',
    },
    schemaVersion: { type: 'integer', minimum: 1 },
    tableId: { type: 'string', minLength: 1, description: 'also the Kafka message key' },
    roundId: { type: 'string', format: 'uuid' },
    seq: { type: 'integer', minimum: 1, description: 'per table: 1, 2, 3, ... with no gaps' },
    occurredAt: { type: 'string', format: 'date-time' },
    payload: { type: 'object' },
  },
  required: ['eventId', 'type', 'schemaVersion', 'tableId', 'seq', 'occurredAt', 'payload'],
  additionalProperties: false,
};

/** The full schema of one event type: the envelope with its `type` and `payload` pinned. */
export function eventSchema(entryOrType: EventSchemaEntry | string): JsonSchema | undefined {
  const e = typeof entryOrType === 'string' ? eventSchemaEntry(entryOrType) : entryOrType;
  if (!e) return undefined;
  return {
    ...EVENT_ENVELOPE_SCHEMA,
    $id: `${SCHEMA_BASE_URI}events/${e.type}.json`,
    title: e.type,
    description: e.summary,
    properties: {
      ...EVENT_ENVELOPE_SCHEMA.properties,
      type: { const: e.type },
      schemaVersion: { const: e.schemaVersion },
      payload: e.payload,
    },
  };
}
