/**
 * Hand-written OpenAPI 3 description of the auditor API, served at GET /audit/openapi.json
 * (@nestjs/swagger is not a dependency of this project). Kept next to the controller it describes;
 * audit-openapi.spec.ts checks every controller route is in it.
 */
const timeParam = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'string', format: 'date-time' },
});
const textParam = (name: string, description: string, extra: Record<string, unknown> = {}) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'string', ...extra },
});
const page = [
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: 'Page size, 1..500 (default 50).',
    schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
  },
  textParam('cursor', 'The nextCursor of the previous page (keyset pagination).'),
];
const roundFilters = [
  textParam('tableId', 'Only rounds of this table.'),
  textParam('game', 'Only rounds of this game.', {
    enum: ['infinite-blackjack', 'blackjack-lux', 'european-blackjack-practice', 'pok-deng'],
  }),
  timeParam('from', 'Rounds started at or after this time.'),
  timeParam('to', 'Rounds started before this time.'),
  textParam('status', 'Round status.', {
    enum: ['in-progress', 'paused', 'completed', 'voided'],
  }),
  textParam('shoeId', 'Only rounds dealt from this shoe (uuid).', { format: 'uuid' }),
  textParam('playerId', 'Only rounds in which this player placed a bet.'),
];
const error = {
  description:
    'Bad request ({ error, message }); error is invalid-text (NUL, lone surrogate, over 200 characters, repeated key), invalid-time, invalid-cursor, range-too-large or bad-request',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};
const secured = { security: [{ bearer: [] }] };
const json = (ref: string, description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const roundIdParam = {
  name: 'roundId',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
};
const integer = { type: 'integer' };
const text = { type: 'string' };
const nullableText = { type: 'string', nullable: true };

export const AUDIT_OPENAPI = {
  openapi: '3.0.3',
  info: {
    title: 'Studio auditor API',
    version: '1.0.0',
    description:
      'Read-only history for auditors: round search, a round timeline with raw readings, player bet history, CSV/NDJSON exports, replay verification and hash-chain verification. Sign in with POST /auth/login as a user of role auditor and send Authorization: Bearer <token>. Money is integer minor units.',
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Error: {
        type: 'object',
        properties: { error: text, message: text },
        required: ['error', 'message'],
      },
      RoundSummary: {
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
      },
      RoundPage: {
        type: 'object',
        properties: {
          items: { type: 'array', items: { $ref: '#/components/schemas/RoundSummary' } },
          nextCursor: nullableText,
        },
      },
      TimelineEntry: {
        type: 'object',
        description:
          'kind is reading (rawHex: the bytes received, outcome, rescan), card (slot, card, readingId, faceDown, correction), bet, decision (automatic marks auto-play), settlement, supervisor-action or event (eventNo, prevHash, hash). Until the round has ended (completed or voided), a face-down card has card null, a reading not of a face-up card has rawHex, decoded and outcomeDetail null (both with withheld: true), and events are the public ones without hashes.',
        properties: {
          at: { type: 'string', format: 'date-time' },
          kind: {
            type: 'string',
            enum: [
              'reading',
              'card',
              'bet',
              'decision',
              'settlement',
              'supervisor-action',
              'event',
            ],
          },
        },
        additionalProperties: true,
      },
      RoundTimeline: {
        type: 'object',
        properties: {
          round: { $ref: '#/components/schemas/RoundSummary' },
          timeline: { type: 'array', items: { $ref: '#/components/schemas/TimelineEntry' } },
          counts: { type: 'object', additionalProperties: integer },
        },
      },
      PlayerBet: {
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
          status: { type: 'string', enum: ['accepted', 'settled', 'refunded'] },
          placedAt: { type: 'string', format: 'date-time' },
          settlement: {
            type: 'object',
            nullable: true,
            properties: { returned: integer, net: integer, outcome: text, roundedDown: text },
          },
        },
      },
      PlayerBetPage: {
        type: 'object',
        properties: {
          items: { type: 'array', items: { $ref: '#/components/schemas/PlayerBet' } },
          nextCursor: nullableText,
        },
      },
      RoundVerdict: {
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
      },
      RangeVerdict: {
        type: 'object',
        properties: {
          from: text,
          to: text,
          rounds: integer,
          matched: integer,
          skipped: integer,
          failed: { type: 'array', items: { $ref: '#/components/schemas/RoundVerdict' } },
        },
      },
      ChainVerdict: {
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
                enum: ['event-number-gap', 'prev-hash-mismatch', 'hash-mismatch'],
              },
              expected: text,
              found: text,
            },
          },
        },
      },
    },
  },
  paths: {
    '/audit/openapi.json': {
      get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3' } } },
    },
    '/audit/rounds': {
      get: {
        ...secured,
        summary: 'Search rounds, newest first',
        parameters: [...roundFilters, ...page],
        responses: { '200': json('RoundPage', 'A page of rounds'), '400': error },
      },
    },
    '/audit/rounds/{roundId}/timeline': {
      get: {
        ...secured,
        summary: "A round's full record in time order",
        parameters: [roundIdParam],
        responses: {
          '200': json('RoundTimeline', 'The timeline'),
          '400': error,
          '404': { ...error, description: 'No such round' },
        },
      },
    },
    '/audit/rounds/{roundId}/replay': {
      get: {
        ...secured,
        summary: 'Replay one round with the engines and compare it with the stored settlements',
        parameters: [roundIdParam],
        responses: {
          '200': json('RoundVerdict', 'The verdict'),
          '404': { ...error, description: 'No such round' },
        },
      },
    },
    '/audit/replay': {
      get: {
        ...secured,
        summary:
          'Replay every round started in a time range (at most 7 days and 2,000 rounds per call)',
        parameters: [
          { ...timeParam('from', 'Range start (inclusive)'), required: true },
          { ...timeParam('to', 'Range end (exclusive)'), required: true },
          textParam('tableId', 'Only this table.'),
        ],
        responses: {
          '200': json('RangeVerdict', 'Counts and every round that failed'),
          '400': error,
        },
      },
    },
    '/audit/players/{playerId}/bets': {
      get: {
        ...secured,
        summary: "A player's bets with their settlements, newest first",
        parameters: [
          { name: 'playerId', in: 'path', required: true, schema: text },
          timeParam('from', 'Bets placed at or after this time.'),
          timeParam('to', 'Bets placed before this time.'),
          ...page,
        ],
        responses: { '200': json('PlayerBetPage', 'A page of bets'), '400': error },
      },
    },
    '/audit/export': {
      get: {
        ...secured,
        summary: 'Stream the rounds of a time range (oldest first) with settlement totals',
        parameters: [
          { name: 'format', in: 'query', schema: { type: 'string', enum: ['csv', 'ndjson'] } },
          ...roundFilters.map((p) =>
            p.name === 'from' || p.name === 'to' ? { ...p, required: true } : p,
          ),
        ],
        responses: {
          '200': {
            description:
              'CSV (header roundId,tableId,game,shoeId,shoeNumber,roundNumber,status,startedAt,endedAt,voidReason,bets,staked,returned,net) or one JSON object per line',
            content: { 'text/csv': {}, 'application/x-ndjson': {} },
          },
          '400': error,
        },
      },
    },
    '/audit/chain': {
      get: {
        ...secured,
        summary: "Walk each table's hash-chained round events and name the first broken link",
        parameters: [textParam('tableId', 'Only this table.')],
        responses: {
          '200': {
            description: 'One verdict per table',
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/ChainVerdict' } },
              },
            },
          },
        },
      },
    },
  },
} as const;
