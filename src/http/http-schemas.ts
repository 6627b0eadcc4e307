import {
  COMMAND_SCHEMAS,
  def,
  JsonSchema,
  SCHEMA_BASE_URI,
  SCHEMA_DIALECT,
} from '@studio/contracts';

/**
 * The JSON Schemas of the HTTP APIs: built from the contract's shared definitions and command
 * schemas, so an id, an amount or a bet means the same over HTTP as on the Kafka command topic.
 * Only what HTTP adds (no `type`/`tableId` in the body, optional commandId) is defined here.
 */

/** A key a user names: starts with a letter or digit, so `__proto__` is not a name. */
const NAME_TOKEN = (maxLength: number): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength,
  pattern: '^[A-Za-z0-9][A-Za-z0-9:+._-]*$',
});

function httpSchema(
  name: string,
  description: string,
  properties: Record<string, JsonSchema>,
  required: string[] = [],
): JsonSchema {
  return {
    $schema: SCHEMA_DIALECT,
    $id: `${SCHEMA_BASE_URI}http/${name}.json`,
    title: name,
    description,
    type: 'object',
    properties,
    required,
    additionalProperties: false,
  };
}

/** The command's own fields, minus what the HTTP path says (`tableId`) or implies (`type`). */
const PATH_OR_TYPE = new Set(['type', 'schemaVersion', 'tableId']);

function commandBody(
  command: keyof typeof COMMAND_SCHEMAS,
  description: string,
  overrides: Record<string, JsonSchema> = {},
  inPath: readonly string[] = [],
): JsonSchema {
  const schema = COMMAND_SCHEMAS[command];
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).filter(
      ([name]) => !PATH_OR_TYPE.has(name) && !inPath.includes(name),
    ),
  );
  // Over HTTP the commandId is optional (without one, a repeat is a new command).
  const required = (schema.required ?? []).filter(
    (name) => !PATH_OR_TYPE.has(name) && name !== 'commandId',
  );
  return httpSchema(`${command}Body`, description, { ...properties, ...overrides }, required);
}

export const PLACE_BET_BODY = commandBody(
  'PlaceBet',
  'The PlaceBet command of the Kafka contract without type/schemaVersion/tableId (the path names the table).',
  {
    betType: NAME_TOKEN(40),
    sideBets: {
      type: 'object',
      propertyNames: NAME_TOKEN(40),
      additionalProperties: def('amountOrZero'),
      maxProperties: 20,
    },
  },
);

export const DECIDE_BODY = commandBody(
  'Decide',
  'The Decide command of the Kafka contract without type/schemaVersion/tableId (the path names the table).',
  { action: NAME_TOKEN(40) },
);

/** The CancelBet command's fields but the bet, which the path names (by betId or betCommandId). */
export const CANCEL_BET_BODY = commandBody(
  'CancelBet',
  'The CancelBet command of the Kafka contract without type/schemaVersion/tableId and without the bet (the path names both).',
  {},
  ['betId', 'betCommandId'],
);

/** A supervisor's reason: free text; a blank one is refused by the command (`reason-required`). */
const REASON = def('text', 'why: recorded with the action and shown in the action log');

export const REASON_BODY = httpSchema('ReasonBody', 'A supervisor action with its reason.', {
  reason: REASON,
});

/**
 * The round the supervisor was looking at when deciding: a console sends it, so an action meant
 * for a round that has since ended is refused (`round-changed`) instead of hitting the next one.
 */
const ROUND_ID = def('id', 'the round this action is meant for; refused if another is in play');

export const VOID_BODY = httpSchema('VoidBody', 'Void the round, with a reason.', {
  reason: REASON,
  roundId: ROUND_ID,
});

export const CORRECT_CARD_BODY = httpSchema(
  'CorrectCardBody',
  'Replace a mis-scanned card before the round settles.',
  { slot: def('slot'), card: def('cardCode'), reason: REASON, roundId: ROUND_ID },
  ['slot', 'card'],
);

/** Path parameters: every id in a path is the contract's id. */
export const ID_PARAM: JsonSchema = def('id');

/** A betId in a path: as its bet's answer named it, which may be longer than an id. */
export const BET_ID_PARAM: JsonSchema = def('betId');

/** The `{ error, message }` of every refused request. */
export const ERROR_BODY: JsonSchema = httpSchema(
  'Error',
  'A refused request: a machine-readable code and a sentence for people.',
  {
    error: { type: 'string', minLength: 1, maxLength: 60 },
    message: { type: 'string' },
    pointer: { type: 'string', description: 'JSON Pointer of the refused value (invalid-request)' },
  },
  ['error', 'message'],
);
ERROR_BODY.additionalProperties = true;

/** The answer to an accepted table or platform command (what it produced varies by command). */
export const ACCEPTED_BODY: JsonSchema = {
  title: 'Accepted',
  type: 'object',
  properties: {
    accepted: { const: true },
    duplicate: { type: 'boolean', description: 'a repeated commandId: the first answer' },
  },
  required: ['accepted'],
};

/** A placed bet's answer: the betId its settlement will name, and what it took from the player. */
export const BET_ACCEPTED_BODY: JsonSchema = {
  title: 'BetAccepted',
  type: 'object',
  properties: {
    ...ACCEPTED_BODY.properties,
    reply: {
      type: 'object',
      properties: {
        betId: {
          type: 'string',
          description: 'the id its settlement, refund or cancellation names',
        },
        roundId: { type: 'string', format: 'uuid' },
        deducted: {
          type: 'integer',
          minimum: 0,
          description:
            'what the bet took from the player in all, minor units: its side bets with the main ' +
            "one, a Pok Deng Player N bet's deposit with the bet (what the wallet must have debited)",
        },
      },
      required: ['betId', 'roundId'],
    },
  },
  required: ['accepted', 'reply'],
};

const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, nullable: true }) as JsonSchema;

/** What a console shows of a table (see src/tables/table-view.ts). */
export const TABLE_VIEW: JsonSchema = {
  title: 'TableView',
  type: 'object',
  properties: {
    tableId: def('id'),
    name: { type: 'string' },
    game: { type: 'string' },
    currency: def('currency'),
    driven: { type: 'boolean', description: 'false: another instance drives the table' },
    shoe: nullable({ type: 'object' }),
    round: nullable({
      type: 'object',
      properties: {
        id: { type: 'string' },
        number: { type: 'integer' },
        phase: { type: 'string' },
        bettingOpen: { type: 'boolean' },
        view: { type: 'object' },
      },
      required: ['id', 'number', 'phase', 'bettingOpen'],
    }),
    paused: nullable({ type: 'object' }),
    timers: { type: 'array', items: { type: 'object' } },
    faceDownCards: { type: 'object', description: 'supervisors only' },
    unavailable: {
      const: 'database-unavailable',
      description:
        'in the list only: driven by another instance and unreadable during a database outage',
    },
  },
  required: ['tableId', 'name', 'game', 'currency', 'driven'],
};

/** GET /health/live: 200 `starting` from the first moment of start-up, `ok` once started. */
export const LIVENESS_BODY: JsonSchema = {
  title: 'Liveness',
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'starting'] },
    uptimeSeconds: { type: 'integer', minimum: 0 },
  },
  required: ['status', 'uptimeSeconds'],
  additionalProperties: false,
};

/** GET /health/ready: 200 when every check is ok, 503 otherwise. */
export const READINESS_BODY: JsonSchema = {
  title: 'Readiness',
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'error'] },
    checks: { type: 'object', additionalProperties: { type: 'object' } },
  },
  required: ['status'],
};

/** One entry of the supervisors' action log (see src/consoles/console-queries.ts). */
export const ACTION_LOG_ENTRY: JsonSchema = {
  title: 'ActionLogEntry',
  type: 'object',
  properties: {
    id: { type: 'string' },
    at: def('timestamp'),
    tableId: def('id'),
    action: { type: 'string' },
    by: { type: 'string' },
    status: { type: 'string' },
    details: { type: 'object' },
  },
  required: ['id', 'at', 'tableId', 'action', 'by', 'status'],
};

/**
 * POST /auth/login, for the sign-in controller (src/auth, merged by the lead): the same `id` as
 * everywhere for the username; a password is any text up to 200 characters.
 */
export const LOGIN_BODY = httpSchema(
  'LoginBody',
  'Sign in: the answer carries the bearer token for every staff route.',
  {
    username: def('id'),
    password: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^\\u0000]*$' },
  },
  ['username', 'password'],
);

const ROLE: JsonSchema = { type: 'string', enum: ['dealer', 'supervisor', 'auditor'] };

/** Who is signed in (GET /auth/me; also in the sign-in answer). */
export const STAFF_USER: JsonSchema = {
  title: 'StaffUser',
  type: 'object',
  properties: { id: def('uuid'), username: def('id'), displayName: { type: 'string' }, role: ROLE },
  required: ['id', 'username', 'displayName', 'role'],
};

/** POST /auth/login's answer. */
export const SIGN_IN_BODY: JsonSchema = {
  title: 'SignIn',
  type: 'object',
  properties: {
    token: { type: 'string', description: 'opaque bearer token for Authorization: Bearer' },
    expiresAt: def('timestamp'),
    user: STAFF_USER,
  },
  required: ['token', 'expiresAt', 'user'],
};

/** One account of GET /auth/users. */
export const LISTED_USER: JsonSchema = {
  title: 'ListedUser',
  type: 'object',
  properties: {
    ...STAFF_USER.properties,
    role: { type: 'string' },
    disabled: { type: 'boolean' },
  },
  required: ['id', 'username', 'displayName', 'role', 'disabled'],
};

const MINOR_UNITS = (description: string): JsonSchema => ({ type: 'integer', description });
const COUNT = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
/** A UTC day, YYYY-MM-DD. */
export const DAY: JsonSchema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };

/** One line of GET /platform/reports/settlements (src/history/reader/platform-records.reader.ts). */
export const SETTLEMENT_REPORT_LINE: JsonSchema = {
  title: 'SettlementReportLine',
  type: 'object',
  description: 'A UTC day (of settlement), a table and a currency; amounts in its minor units.',
  properties: {
    day: DAY,
    tableId: def('id'),
    currency: def('currency'),
    rounds: COUNT('rounds with a settled or refunded bet of yours (cancelled ones not counted)'),
    bets: COUNT('settled and refunded bets (each side bet apart), cancelled ones not counted'),
    stake: MINOR_UNITS('stakes of the settled and refunded bets'),
    payout: MINOR_UNITS('returned by settled bets (stake + winnings), refunds apart'),
    refunds: MINOR_UNITS('returned by voided rounds (BetsRefunded)'),
    cancellations: COUNT(
      'parts of bets taken back by CancelBet (each entry of a BetCancelled `parts`)',
    ),
    cancelledStake: MINOR_UNITS(
      'what those cancellations gave back (the sum of their BetCancelled `returned`); ' +
        'not in stake, payout, refunds or net',
    ),
    net: MINOR_UNITS('payout + refunds - stake: the players’ result, cancellations not in it'),
  },
  required: [
    'day',
    'tableId',
    'currency',
    'rounds',
    'bets',
    'stake',
    'payout',
    'refunds',
    'cancellations',
    'cancelledStake',
    'net',
  ],
  additionalProperties: false,
};

/** GET /platform/reports/settlements as JSON. */
export const SETTLEMENT_REPORT: JsonSchema = {
  title: 'SettlementReport',
  type: 'object',
  properties: {
    platformId: { type: 'string' },
    from: DAY,
    to: DAY,
    final: {
      type: 'boolean',
      description:
        'true: the last day is over and no round of these days holding your bets is still in ' +
        'progress, so these figures will not change; false: they may still change',
    },
    openRounds: COUNT(
      'rounds started on these days, still in progress or paused, holding bets of yours not ' +
        'yet settled (all tables)',
    ),
    openRoundsByTable: {
      type: 'array',
      description: 'the same rounds per table (tables with none left out)',
      items: {
        type: 'object',
        properties: { tableId: def('id'), rounds: COUNT('open rounds at that table') },
        required: ['tableId', 'rounds'],
        additionalProperties: false,
      },
    },
    lines: { type: 'array', items: SETTLEMENT_REPORT_LINE },
  },
  required: ['platformId', 'from', 'to', 'final', 'openRounds', 'openRoundsByTable', 'lines'],
  additionalProperties: false,
};
