import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * What the auditor API answers, for the OpenAPI document (taken over from the hand-written
 * document it replaces). Requests are validated by the audit parameter checks.
 */
const integer: SchemaObject = { type: 'integer' };
const text: SchemaObject = { type: 'string' };
const nullableText: SchemaObject = { type: 'string', nullable: true };

export const RoundSummary: SchemaObject = {
  title: 'RoundSummary',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    tableId: text,
    game: text,
    shoeId: { ...nullableText, format: 'uuid' },
    shoeNumber: integer,
    roundNumber: integer,
    status: { type: 'string', enum: ['in-progress', 'paused', 'completed', 'voided'] },
    phase: text,
    startedAt: { type: 'string', format: 'date-time' },
    endedAt: { type: 'string', format: 'date-time', nullable: true },
    voidReason: nullableText,
  },
};

export const RoundPage: SchemaObject = {
  title: 'RoundPage',
  type: 'object',
  properties: {
    items: { type: 'array', items: RoundSummary },
    nextCursor: nullableText,
  },
};

export const TimelineEntry: SchemaObject = {
  title: 'TimelineEntry',
  type: 'object',
  description:
    'kind is reading (rawHex: the bytes received, outcome, rescan), card (slot, card, readingId, faceDown, correction), bet, decision (automatic marks auto-play; window: the Infinite Blackjack window it was taken in), settlement, supervisor-action or event (eventNo, prevHash, hash). A bet, decision or settlement keeps playerId (the player key, casino-a:alice) and names the player as player {platformId, playerId}; bets and settlements carry their currency. Until the round has ended (completed or voided), a face-down card has card null, a reading not of a face-up card has rawHex, decoded and outcomeDetail null (both with withheld: true), and events are the public ones without hashes.',
  properties: {
    at: { type: 'string', format: 'date-time' },
    kind: {
      type: 'string',
      enum: ['reading', 'card', 'bet', 'decision', 'settlement', 'supervisor-action', 'event'],
    },
  },
  additionalProperties: true,
};

export const RoundTimeline: SchemaObject = {
  title: 'RoundTimeline',
  type: 'object',
  properties: {
    round: RoundSummary,
    timeline: { type: 'array', items: TimelineEntry },
    counts: { type: 'object', additionalProperties: integer },
  },
};

export const PlayerBet: SchemaObject = {
  title: 'PlayerBet',
  type: 'object',
  properties: {
    betId: text,
    roundId: text,
    tableId: text,
    game: text,
    roundStatus: text,
    betType: text,
    spot: nullableText,
    amount: integer,
    deducted: integer,
    currency: text,
    status: { type: 'string', enum: ['accepted', 'settled', 'refunded', 'cancelled'] },
    placedAt: { type: 'string', format: 'date-time' },
    settlement: {
      type: 'object',
      nullable: true,
      properties: { returned: integer, net: integer, outcome: text, roundedDown: text },
    },
  },
};

export const PlayerBetPage: SchemaObject = {
  title: 'PlayerBetPage',
  type: 'object',
  properties: {
    items: { type: 'array', items: PlayerBet },
    nextCursor: nullableText,
  },
};

export const RoundVerdict: SchemaObject = {
  title: 'RoundVerdict',
  type: 'object',
  description:
    'verdict match | mismatch (mismatches: [{ field, stored, replayed }], e.g. field settlement[1].net) | replay-failed (step, code, message) | skipped (reason: not completed).',
  properties: {
    roundId: text,
    tableId: text,
    game: text,
    verdict: { type: 'string', enum: ['match', 'mismatch', 'replay-failed', 'skipped'] },
    settlements: integer,
    mismatches: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: text, stored: {}, replayed: {} },
      },
    },
    step: text,
    code: text,
    message: text,
    reason: text,
  },
};

export const RangeVerdict: SchemaObject = {
  title: 'RangeVerdict',
  type: 'object',
  properties: {
    from: text,
    to: text,
    rounds: integer,
    matched: integer,
    skipped: integer,
    failed: { type: 'array', items: RoundVerdict },
  },
};

export const ChainVerdict: SchemaObject = {
  title: 'ChainVerdict',
  type: 'object',
  properties: {
    tableId: text,
    events: { ...integer, description: 'Events checked before the first broken link.' },
    intact: { type: 'boolean' },
    firstBrokenLink: {
      type: 'object',
      properties: {
        tableId: text,
        eventNo: integer,
        rowId: text,
        reason: {
          type: 'string',
          enum: ['event-number-gap', 'prev-hash-mismatch', 'hash-mismatch', 'chain-version'],
        },
        expected: text,
        found: text,
      },
    },
    anchoredUpTo: {
      ...integer,
      description:
        'The newest chain head the service published (0: none): every event up to it is anchored when anchor.status is anchored.',
    },
    anchor: {
      type: 'object',
      description:
        'The chain against that head: anchored, no-checkpoint (nothing published yet), truncated, hash-differs or broken (docs/chain-anchoring.md).',
      properties: {
        tableId: text,
        status: {
          type: 'string',
          enum: ['anchored', 'no-checkpoint', 'truncated', 'hash-differs', 'broken'],
        },
      },
    },
    unanchored: {
      type: 'object',
      description: 'The events after anchoredUpTo, not published yet: how many, since when.',
      properties: {
        events: integer,
        oldestAt: { ...text, nullable: true },
        ageSeconds: { ...integer, nullable: true },
      },
    },
  },
};
