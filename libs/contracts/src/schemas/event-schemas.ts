import { GAME_KINDS } from '../table-events';
import type { JsonSchema } from './json-schema';
import { def, SCHEMA_BASE_URI, SCHEMA_DIALECT } from './shared-defs';

/**
 * JSON Schemas of every event the studio publishes on the table-events topic.
 *
 * Every payload is closed (`additionalProperties: false`): the schema lists every field the event
 * carries, so platforms can generate types from it and a new field is a visible contract change.
 * Adding an optional field is a compatible change (same schemaVersion, a minor contract version);
 * removing, renaming or retyping one, or making one required, raises that event's schemaVersion
 * (docs/kafka-contract.md, "Versions").
 */

/** A card code: rank 2-9, T, J, Q, K, A then suit C, D, H, S (libs/cards). */
export const CARD_CODE: JsonSchema = def('cardCode');
const MONEY: JsonSchema = def('money');
const STR: JsonSchema = def('text');
const ID: JsonSchema = def('id');
const UUID: JsonSchema = def('uuid');
const COUNT: JsonSchema = def('count');
const BOOL: JsonSchema = { type: 'boolean' };
const OBJECT = (description: string): JsonSchema => ({ type: 'object', description });
const LIST = (items: JsonSchema, description?: string): JsonSchema => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
});
const SLOT: JsonSchema = def('slot');
const SEAT: JsonSchema = { type: 'integer', minimum: 1, maximum: 7, description: 'seat 1-7' };
const ACTION: JsonSchema = {
  type: 'string',
  enum: ['hit', 'stand', 'double', 'split', 'surrender', 'insurance', 'no-insurance'],
};

/** A closed payload: exactly these fields (`required` defaults to all of them). */
function payload(
  properties: Record<string, JsonSchema>,
  required: string[] = Object.keys(properties),
): JsonSchema {
  return {
    type: 'object',
    properties: withPlatform(properties),
    required,
    additionalProperties: false,
  };
}

/** Whose player it is, next to every playerId: absent for the `default` platform's players. */
const PLATFORM_ID: JsonSchema = {
  type: 'string',
  pattern: '^[a-z0-9][a-z0-9-]{0,39}$',
  description: "the player's platform; absent for the default platform (the v1 topics')",
};

function withPlatform(properties: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return 'playerId' in properties && !('platformId' in properties)
    ? { ...properties, platformId: PLATFORM_ID }
    : properties;
}

/**
 * A payload whose full field list is not yet pinned down by a recorded run: the listed fields are
 * typed, others are still allowed. The contract page marks these events "open".
 */
function openPayload(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return {
    type: 'object',
    properties: withPlatform(properties),
    required,
    additionalProperties: true,
  };
}

const SETTLEMENT_FIELDS: Record<string, JsonSchema> = {
  betId: def('betId'),
  playerId: ID,
  betType: ID,
  spot: { type: ['string', 'null'], maxLength: 20, description: 'null for bets without a spot' },
  stake: { ...MONEY, description: 'what was taken from the player for this bet' },
  returned: { ...MONEY, description: 'what goes back to the player: stake + winnings, or 0' },
  net: { ...MONEY, description: 'returned - stake' },
  outcome: ID,
  roundedDown: {
    type: 'string',
    pattern: '^\\d+(?:/\\d+)?$',
    description: 'fraction of a minor unit dropped by rounding down ("0", "1/2")',
  },
};

/** A settlement batch's place among its platform's batches of the round (not on the shared topic). */
const SETTLEMENT_BATCH_NUMBER: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description: "this batch, 1..batches, among this platform's batches of the round",
};
const SETTLEMENT_BATCHES: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description: "how many batches this platform's settlements of the round take",
};

/**
 * One settled bet (rows of the `settlements` table, as platforms credit them). `currency` (2.2) is
 * the bet's: every amount of the entry is in it; the studio always sends it, optional in the
 * schema so the change stays compatible (schemaVersion 1).
 */
export const SETTLEMENT_SCHEMA: JsonSchema = payload(
  {
    ...SETTLEMENT_FIELDS,
    currency: {
      ...def('currency'),
      description: "the bet's currency (ISO 4217): stake, returned and net are in it",
    },
  },
  Object.keys(SETTLEMENT_FIELDS),
);

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
const SCANNER_STATUSES = ['connecting', 'connected', 'stale', 'disconnected', 'stopped'];

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
      tableId: ID,
      name: STR,
      game: { type: 'string', enum: GAME_KINDS },
      currency: def('currency'),
      reason: { type: 'string', enum: ['new', 'configuration-changed'] },
      configurationHash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    }),
  ),
  entry(
    'ScannerStatusChanged',
    ALL,
    "The table's card-shoe reader connected, went stale or disconnected.",
    payload({
      tableId: ID,
      port: STR,
      wireFormat: ID,
      virtual: BOOL,
      status: { type: 'string', enum: SCANNER_STATUSES },
      previousStatus: { type: 'string', enum: SCANNER_STATUSES },
      reason: STR,
      reconnectAttempts: COUNT,
    }),
  ),
  entry(
    'ChainCheckpoint',
    ALL,
    'Chain head of the hash-chained event log, anchoring it outside the database.',
    payload({
      tableId: ID,
      eventNo: { type: 'integer', minimum: 1, description: 'event_no of the chain head' },
      hash: {
        type: 'string',
        pattern: '^[0-9a-f]{64}$',
        description: 'SHA-256 hash of that event (hex)',
      },
      checkpointAt: { type: 'string', format: 'date-time' },
    }),
  ),
  entry(
    'ShoeStarted',
    ALL,
    'A new shoe was started (burn follows for dealt shoes).',
    payload({ shoeId: UUID, shoeNumber: COUNT, deckCount: { type: 'integer', minimum: 1 } }),
  ),
  entry(
    'BurnCardShown',
    ALL,
    'The first card of a new shoe is shown; its value says how many cards are burnt.',
    payload({ card: CARD_CODE, toBurn: COUNT }),
  ),
  entry(
    'CardBurnt',
    ALL,
    'A card was burnt face down (never published).',
    payload({ remaining: COUNT }),
  ),
  entry('BurnCompleted', ALL, 'The burn is over.', payload({ burntCount: COUNT })),
  entry(
    'ShoeFinished',
    ALL,
    'Shoe ended (cut card, or ended by a supervisor); the burnt cards are shown now.',
    payload({
      shoeId: UUID,
      shoeNumber: COUNT,
      reason: STR,
      burntCards: LIST(CARD_CODE),
      cardsDrawn: COUNT,
    }),
  ),
  entry('ShoeLoaded', EU, 'The practice table loaded its recorded shoe.', openPayload({})),
  entry(
    'LastRoundOfShoe',
    ALL,
    'A supervisor declared the last round of the shoe.',
    payload({ roundNumber: { type: ['integer', 'null'], minimum: 1 } }),
  ),
  // ---- rounds ---------------------------------------------------------------------------------
  entry(
    'RoundStarted',
    ALL,
    'A round started (the envelope carries its roundId).',
    payload(
      {
        shoeNumber: COUNT,
        roundNumber: { type: 'integer', minimum: 1 },
        isLastRoundOfShoe: BOOL,
        sideBetsNoLongerOffered: LIST(ID),
        game: { type: 'string', enum: GAME_KINDS },
        currency: def('currency'),
      },
      ['roundNumber', 'game', 'currency'],
    ),
  ),
  entry(
    'BettingOpened',
    ALL,
    'Betting window opened.',
    payload(
      {
        roundId: UUID,
        roundOfShoe: COUNT,
        bettingWindowMs: COUNT,
        pairsOffered: BOOL,
        sideBetsOffered: LIST(ID),
        spots: LIST(ID, 'Pok Deng: the player spots open for bets'),
        bots: LIST(
          payload({
            seat: SEAT,
            level: { type: 'string', enum: ['easy', 'normal', 'hard'] },
          }),
          'practice: the bots at the table',
        ),
      },
      [],
    ),
  ),
  entry(
    'BettingClosed',
    ALL,
    'Betting window closed: no more bets this round.',
    payload(
      {
        roundId: UUID,
        seatsPlaying: LIST(SEAT),
        seats: LIST(SEAT, 'practice: the seats playing'),
        players: COUNT,
        bets: COUNT,
      },
      [],
    ),
  ),
  entry(
    'BetAccepted',
    ALL,
    'A bet was accepted (and the stake taken); at Infinite Blackjack, see BetsAccepted.',
    payload(
      {
        playerId: ID,
        betId: UUID,
        betType: ID,
        seat: SEAT,
        spot: { type: 'string', maxLength: 20 },
        amount: MONEY,
        main: MONEY,
        side: {
          type: 'object',
          additionalProperties: MONEY,
          propertyNames: { maxLength: 40 },
          description: 'side bets by name: amount',
        },
        deducted: { ...MONEY, description: 'what was taken from the player in total' },
      },
      ['playerId'],
    ),
  ),
  entry(
    'BetsAccepted',
    IBJ,
    'Bets accepted: the bets one table transaction placed, from Kafka or HTTP, one or many (up to 10 per event; Infinite Blackjack announces every bet this way).',
    payload({
      accepted: { ...COUNT, description: 'how many bets this event lists' },
      bets: LIST(
        payload({
          playerId: ID,
          main: MONEY,
          side: {
            type: 'object',
            additionalProperties: MONEY,
            propertyNames: { maxLength: 40 },
            description: 'side bets by name: amount ({} without side bets)',
          },
        }),
        'the accepted bets',
      ),
    }),
  ),
  entry(
    'SeatTaken',
    LUX,
    'A player took a seat with a seat bet.',
    payload({ seat: SEAT, playerId: ID }, ['seat']),
  ),
  entry(
    'SeatBetAccepted',
    LUX,
    'Seat bet accepted.',
    payload({ seat: SEAT, playerId: ID, main: MONEY, pairs: MONEY }, ['seat']),
  ),
  entry(
    'SeatBetFailed',
    LUX,
    'A seated player did not bet in time; the seat is freed.',
    payload({
      seat: SEAT,
      playerId: ID,
      reason: { type: 'string', enum: ['below-minimum', 'failed'] },
    }),
  ),
  entry('SeatLeft', LUX, 'A player left a seat.', payload({ seat: SEAT, playerId: ID })),
  entry(
    'SeatRemoved',
    LUX,
    'A seat was removed from the round.',
    payload({
      seat: SEAT,
      playerId: ID,
      reason: {
        type: 'string',
        enum: [
          'balance-below-minimum',
          'no-seat-bet-last-round',
          'removed-no-valid-bet',
          'seat-bet-cancelled',
        ],
      },
    }),
  ),
  entry(
    'SeatSitsOut',
    LUX,
    'A seated player sits this round out.',
    payload({ seat: SEAT, playerId: ID }),
  ),
  entry(
    'BehindBetAccepted',
    LUX,
    'A bet behind a seat was accepted.',
    payload({ seat: SEAT, playerId: ID, main: MONEY, pairs: MONEY }, ['seat']),
  ),
  entry(
    'FollowChoiceSet',
    LUX,
    'Bet-behind choice: follow the seat on doubles / splits or not.',
    payload(
      {
        seat: SEAT,
        playerId: ID,
        followDouble: { type: ['boolean', 'null'] },
        followSplit: { type: ['boolean', 'null'] },
      },
      ['seat'],
    ),
  ),
  entry(
    'PreDecisionSet',
    LUX,
    'A pre-decision was registered for the seat.',
    payload({ seat: SEAT, action: ID, playerId: ID }, ['seat']),
  ),
  entry(
    'PreDecisionApplied',
    LUX,
    'A pre-decision was applied when the turn came.',
    payload({ seat: SEAT, action: ID }, ['seat']),
  ),
  // ---- cards ----------------------------------------------------------------------------------
  entry(
    'CardDealt',
    BJ,
    'Card revealed: a face-up card was dealt to a slot.',
    payload({ slot: SLOT, card: CARD_CODE, seat: SEAT, hand: COUNT, to: STR }, ['card']),
  ),
  entry(
    'CardDealtFaceDown',
    ALL,
    'A card was dealt face down: only the slot, never the card (revealed later).',
    payload({ slot: SLOT }),
  ),
  entry(
    'CommonCardDrawn',
    IBJ,
    'Card revealed: a card for the common hand.',
    payload(
      { card: CARD_CODE, position: COUNT, nodes: LIST(COUNT, 'decision nodes the card goes to') },
      ['card'],
    ),
  ),
  entry(
    'DealerCardDrawn',
    IBJ_LUX,
    'Card revealed: the dealer drew a card.',
    payload({ card: CARD_CODE, dealerTotal: COUNT }, ['card']),
  ),
  entry(
    'HoleCardRevealed',
    IBJ_LUX,
    "Card revealed: the dealer's hole card is turned over.",
    payload({ card: CARD_CODE, dealerTotal: COUNT }, ['card']),
  ),
  entry(
    'HiddenCardRevealed',
    EU,
    "Card revealed: the practice dealer's hidden card.",
    payload({ card: CARD_CODE }),
  ),
  entry('DealerChecked', IBJ_LUX, 'The dealer peeked for blackjack.', payload({ blackjack: BOOL })),
  entry('AllCardsDealt', PD, 'All Pok Deng cards are dealt (still face down).', payload({})),
  entry(
    'HandRevealed',
    PD,
    'Card revealed: a Pok Deng hand is turned over with its score.',
    payload(
      {
        hand: { type: 'string', pattern: '^(?:banker|player-[1-9])$' },
        cards: { ...LIST(CARD_CODE), minItems: 2, maxItems: 3 },
        score: { type: 'string', maxLength: 40, description: 'e.g. "7", "pok 8"' },
        points: { type: 'integer', minimum: 0, maximum: 9 },
        combination: { type: ['string', 'null'], maxLength: 40 },
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
    payload({ slot: SLOT, reason: ID }, ['reason']),
  ),
  entry(
    'RescanRequired',
    ALL,
    'The expected card must be scanned again.',
    payload({ slot: STR, attempt: COUNT, reason: STR }, []),
  ),
  entry(
    'CardNotExpected',
    ALL,
    'A card was read when none was expected.',
    payload({ reason: { type: 'string', enum: ['table-paused', 'no-card-expected'] } }),
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
    openPayload({ slot: SLOT, card: CARD_CODE }, ['slot']),
  ),
  // ---- decisions ------------------------------------------------------------------------------
  entry(
    'InsuranceOffered',
    IBJ_LUX,
    'Insurance window opened (dealer shows an ace).',
    payload({ window: COUNT }),
  ),
  entry(
    'InsuranceAnswered',
    LUX,
    'A seat answered insurance.',
    payload({ seat: SEAT, playerId: ID, take: BOOL }),
  ),
  entry(
    'InsuranceClosed',
    IBJ_LUX,
    'Insurance window closed.',
    payload(
      {
        window: COUNT,
        taken: { ...COUNT, description: 'Infinite Blackjack: how many players took insurance' },
      },
      ['window'],
    ),
  ),
  entry(
    'DecisionWindowOpened',
    IBJ,
    'Decision window opened: every listed hand may now decide.',
    payload({ window: COUNT, hands: LIST(OBJECT('a hand that may decide: node, cards, legal')) }),
  ),
  entry(
    'DecisionWindowClosed',
    IBJ,
    'Decision window closed; hands without a decision were auto-played.',
    payload({
      window: COUNT,
      autoPlayed: { ...COUNT, description: 'how many hands were auto-played' },
      moves: LIST(OBJECT('a move of the common hand: from, to, action, players')),
    }),
  ),
  entry(
    'DecisionsAccepted',
    IBJ,
    'Decisions accepted: the decisions one table transaction applied, from Kafka or HTTP, one or many (up to 10 per event; Infinite Blackjack announces every decision this way).',
    payload({
      window: COUNT,
      accepted: { ...COUNT, description: 'how many decisions this event lists' },
      decisions: LIST(payload({ playerId: ID, action: ID }), 'the accepted decisions'),
    }),
  ),
  entry(
    'DecisionAccepted',
    IBJ_LUX,
    "A decision was accepted (Infinite Blackjack's come as DecisionsAccepted).",
    payload({ playerId: ID, action: ID, window: COUNT, seat: SEAT, hand: COUNT }, []),
  ),
  entry(
    'DecisionApplied',
    IBJ_LUX,
    'A decision was applied to a hand.',
    payload({ seat: SEAT, hand: COUNT, action: ID }, []),
  ),
  entry(
    'DecisionRequested',
    BJ,
    'Decision window opened for one seat (its turn).',
    payload(
      {
        seat: SEAT,
        hand: COUNT,
        playerId: ID,
        window: COUNT,
        cards: LIST(CARD_CODE),
        legalActions: LIST(ACTION),
      },
      [],
    ),
  ),
  entry(
    'Decision',
    EU,
    'A practice seat decided.',
    payload({ seat: SEAT, hand: COUNT, action: ACTION }),
  ),
  entry(
    'TurnStarted',
    LUX,
    "A seat's turn started (decision window for that seat).",
    payload({ seat: SEAT, playerId: ID }, ['seat']),
  ),
  entry(
    'AutoPlayed',
    LUX,
    'A hand without a decision was played by the default rule.',
    payload({ seat: SEAT, playerId: ID, action: ACTION }),
  ),
  // ---- results and money ---------------------------------------------------------------------
  entry(
    'RoundSettled',
    BJ,
    'Round result: the dealer hand and per-hand outcomes; totals of the round.',
    payload(
      {
        roundId: UUID,
        dealerCards: LIST(CARD_CODE),
        records: LIST(OBJECT('one settled hand or bet: seat, role, bet, result, paid')),
        nodes: LIST(OBJECT('Infinite Blackjack: one node of the common hand and its pays')),
        side: OBJECT('side-bet results by side bet'),
        totals: OBJECT('staked, paid and refunded per bet kind'),
        totalsByCurrency: OBJECT(
          'a table of several currencies, instead of totals: per currency, then bet kind, the bets, stake, returned and net of its settlements (2.2)',
        ),
        earlyEnd: { type: ['string', 'null'], maxLength: 40 },
        insuranceWins: BOOL,
        voided: { ...BOOL, description: 'the round was voided: every bet refunded' },
        round: { ...COUNT, description: 'practice: the round number' },
        seats: LIST(OBJECT('practice: one seat with its hands, cards and payouts')),
        dealer: OBJECT("practice: the dealer's cards and total"),
      },
      [],
    ),
  ),
  entry(
    'RoundResult',
    PD,
    'Round result: the Pok Deng roadmap entry.',
    payload({ roadmap: OBJECT('the roadmap entry: each hand against the banker') }),
  ),
  entry(
    'BetsSettled',
    ALL,
    "Bets settled: one batch of one platform's settled bets (a round's settlements are split per platform, and a platform's in batches of up to 500).",
    payload({
      batch: SETTLEMENT_BATCH_NUMBER,
      batches: SETTLEMENT_BATCHES,
      settlements: { type: 'array', items: SETTLEMENT_SCHEMA, minItems: 1 },
    }),
  ),
  entry(
    'BetsRefunded',
    ALL,
    'Bets refunded (voided round): stake returned in full, net 0; batched per platform as `BetsSettled`.',
    payload({
      batch: SETTLEMENT_BATCH_NUMBER,
      batches: SETTLEMENT_BATCHES,
      settlements: { type: 'array', items: SETTLEMENT_SCHEMA },
    }),
  ),
  entry(
    'BetsReturned',
    LUX,
    'Bets behind a seat that does not play (or whose seat bet was cancelled), returned to their players; settled `returned` with the round.',
    payload({
      bets: LIST(
        payload({
          playerId: ID,
          seat: SEAT,
          role: { type: 'string', enum: ['seat', 'behind'] },
          bet: { type: 'string', enum: ['main', 'pairs', 'insurance'] },
          staked: MONEY,
          refunded: MONEY,
          paid: MONEY,
          houseResult: MONEY,
          result: { anyOf: [STR, LIST(STR)] },
          rounding: LIST(
            payload({ numerator: COUNT, denominator: { type: 'integer', minimum: 1 } }),
          ),
        }),
        'one returned bet each',
      ),
    }),
  ),
  entry(
    'BetCancelled',
    ALL,
    "A platform's CancelBet took its player's bet back while betting was open: the bet leaves the round (not settled, not in BetsSettled); credit `returned`, once per betId. Private: only on that platform's events topic.",
    payload(
      {
        betId: def('betId', 'the betId the PlaceBet answer named'),
        betCommandId: { ...ID, description: 'the commandId of the PlaceBet that placed it' },
        playerId: ID,
        betType: ID,
        spot: { type: 'string', maxLength: 20, description: 'the spot or seat it was on' },
        parts: LIST(
          payload({ betType: ID, amount: MONEY }),
          'each part taken back: the bet and the side bets placed with it',
        ),
        returned: { ...MONEY, description: 'what the platform credits back (every part)' },
        currency: {
          ...def('currency'),
          description: "the bet's currency (ISO 4217), the one `returned` is credited in (2.4)",
        },
      },
      ['betId', 'playerId', 'betType', 'parts', 'returned', 'currency'],
    ),
  ),
  entry(
    'RoundPaused',
    ALL,
    'Round paused by a supervisor or by an escalated rescan.',
    payload({ kind: { type: 'string', enum: ['supervisor', 'escalation'] }, reason: STR }),
  ),
  entry('RoundResumed', ALL, 'Round resumed.', payload({ pausedFor: STR })),
  entry(
    'RoundVoided',
    ALL,
    'Round voided: every bet is refunded.',
    payload({ reason: STR, approvedBy: ID }, ['reason']),
  ),
  entry(
    'RoundCompleted',
    ALL,
    'Round over and settled.',
    payload({ shoeNumber: COUNT, roundNumber: COUNT, status: { const: 'completed' } }),
  ),
  entry(
    'RoundEnded',
    ALL,
    'Round over after a void.',
    payload({ shoeNumber: COUNT, roundNumber: COUNT, status: { const: 'voided' } }),
  ),
  entry(
    'SupervisorAlert',
    ALL,
    'Something needs a supervisor (rescan limit, composition error, a scanner sequence number repeated with other content or going backwards, scanner frames that never arrived).',
    payload(
      {
        kind: {
          type: 'string',
          enum: ['rescan-limit', 'composition', 'scanner-sequence', 'scanner-gap'],
        },
        missedFrames: COUNT,
        slot: STR,
        failedAttempts: COUNT,
        elapsedMs: COUNT,
        trigger: STR,
        message: STR,
        reason: { type: 'string', enum: ['repeated-with-other-content', 'backwards'] },
        sequence: COUNT,
        previousSequence: { type: ['integer', 'null'], minimum: 0 },
      },
      ['kind'],
    ),
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
    chain: {
      type: 'object',
      description:
        "the table's hash-chain head at this event (docs/chain.md): its event number and hash; it anchors every event up to it",
      properties: {
        eventNo: { type: 'integer', minimum: 1 },
        hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      },
      required: ['eventNo', 'hash'],
      additionalProperties: false,
    },
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

/** The type and payload of a ChainCheckpoint event (its schema is in EVENT_SCHEMAS). */
export const CHAIN_CHECKPOINT = 'ChainCheckpoint' as const;
export const CHAIN_CHECKPOINT_SCHEMA_VERSION = 1;

export interface ChainCheckpointPayload {
  tableId: string;
  /** event_no of the table's chain head when the checkpoint was taken. */
  eventNo: number;
  /** That event's hash: 64 lowercase hex characters. */
  hash: string;
  /** When the checkpoint was taken (ISO 8601, UTC). */
  checkpointAt: string;
}
