import type { JsonSchema } from './json-schema';
import { def, SCHEMA_BASE_URI, SCHEMA_DIALECT } from './shared-defs';

/**
 * Commands platforms send on the commands topic (key = table id), and the answers on the results
 * topic. Every command is one flat JSON object; `type` selects its schema.
 */
export const COMMAND_TYPES = [
  'PlaceBet',
  'TakeSeat',
  'LeaveSeat',
  'Decide',
  'BetBehindChoice',
  'CancelBet',
] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

export const FOLLOW_CHOICES = [
  'follow-double',
  'no-follow-double',
  'follow-split',
  'no-follow-split',
] as const;

interface CommandBase {
  commandId: string;
  schemaVersion: 1;
  tableId: string;
  roundId?: string;
  playerId: string;
  sentAt?: string;
}

export interface PlaceBetCommandMessage extends CommandBase {
  type: 'PlaceBet';
  betType: string;
  spot?: string;
  amount: number;
  sideBets?: Record<string, number>;
  currency?: string;
}
export interface TakeSeatCommandMessage extends CommandBase {
  type: 'TakeSeat';
  seat: number;
  amount: number;
  pairs?: number;
  currency?: string;
}
export interface LeaveSeatCommandMessage extends CommandBase {
  type: 'LeaveSeat';
  seat: number;
}
export interface DecideCommandMessage extends CommandBase {
  type: 'Decide';
  action: string;
  seat?: string;
}
export interface BetBehindChoiceCommandMessage extends CommandBase {
  type: 'BetBehindChoice';
  seat: number;
  choice: (typeof FOLLOW_CHOICES)[number];
}
/** Takes back an accepted bet while betting is open: named by its betId or its PlaceBet's commandId. */
export interface CancelBetCommandMessage extends CommandBase {
  type: 'CancelBet';
  betId?: string;
  betCommandId?: string;
}
export type CommandMessage =
  | PlaceBetCommandMessage
  | TakeSeatCommandMessage
  | LeaveSeatCommandMessage
  | DecideCommandMessage
  | BetBehindChoiceCommandMessage
  | CancelBetCommandMessage;

const ID: JsonSchema = def('id');
const AMOUNT: JsonSchema = def('amount');
/** A side bet or the pairs bet may be 0 (not placed). */
const OPTIONAL_AMOUNT: JsonSchema = def('amountOrZero');
const TOKEN = (maxLength: number): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength,
  pattern: '^[A-Za-z0-9:+._-]+$',
});
const SEAT: JsonSchema = { type: 'integer', minimum: 1, maximum: 7, description: 'Lux seat 1-7' };
const CURRENCY: JsonSchema = def(
  'currency',
  "the bet's currency (ISO 4217), one the table accepts and the platform uses; omitted: the first of the table's currencies (its default first) that the platform uses",
);
const BET_ID: JsonSchema = def('betId', "the betId of the PlaceBet's answer");
const BET_COMMAND_ID: JsonSchema = def(
  'id',
  'the commandId of the PlaceBet (when its answer never came)',
);

function command(
  type: CommandType,
  description: string,
  properties: Record<string, JsonSchema>,
  required: string[],
): JsonSchema {
  return {
    $schema: SCHEMA_DIALECT,
    $id: `${SCHEMA_BASE_URI}commands/${type}.json`,
    title: type,
    description,
    type: 'object',
    properties: {
      commandId: def(
        'id',
        "chosen by the platform, unique among its own commands (another platform's same id is another command): a repeat gets the first answer",
      ),
      type: { const: type },
      schemaVersion: { const: 1 },
      tableId: def('id', 'also the Kafka message key'),
      roundId: def(
        'id',
        'optional: the round the player saw; another round refuses it (unknown-round)',
      ),
      playerId: ID,
      sentAt: def('timestamp'),
      ...properties,
    },
    required: ['commandId', 'type', 'schemaVersion', 'tableId', 'playerId', ...required],
    // Commands are strict: a misspelt field is refused rather than silently ignored.
    additionalProperties: false,
  };
}

export const COMMAND_SCHEMAS: Record<CommandType, JsonSchema> = {
  PlaceBet: command(
    'PlaceBet',
    'Place bets: a bet of any kind the table offers (main, side bets, bet behind, Pok Deng spots).',
    {
      betType: TOKEN(40),
      spot: TOKEN(20),
      amount: AMOUNT,
      sideBets: {
        type: 'object',
        propertyNames: TOKEN(40),
        additionalProperties: OPTIONAL_AMOUNT,
        maxProperties: 20,
      },
      currency: CURRENCY,
    },
    ['betType', 'amount'],
  ),
  TakeSeat: command(
    'TakeSeat',
    'Take a Blackjack Lux seat: a seat is taken by its seat bet (games.md), so this carries it.',
    { seat: SEAT, amount: AMOUNT, pairs: OPTIONAL_AMOUNT, currency: CURRENCY },
    ['seat', 'amount'],
  ),
  LeaveSeat: command('LeaveSeat', 'Leave a Blackjack Lux seat.', { seat: SEAT }, ['seat']),
  Decide: command(
    'Decide',
    'A decision in the open window: hit, stand, double, split, surrender, insurance, no-insurance, pre:<action>.',
    {
      action: TOKEN(40),
      seat: { type: 'string', maxLength: 20, pattern: '^[A-Za-z0-9:/_-]*$' },
    },
    ['action'],
  ),
  BetBehindChoice: command(
    'BetBehindChoice',
    'A bet-behind player chooses whether to follow the seated player on doubles and splits.',
    { seat: SEAT, choice: { type: 'string', enum: FOLLOW_CHOICES } },
    ['seat', 'choice'],
  ),
  CancelBet: {
    ...command(
      'CancelBet',
      "Take back the player's accepted bet while betting is open (the wallet could not take the stake, or its answer never came): name it by the betId of the PlaceBet's answer, or by that PlaceBet's commandId. After betting closed: betting-closed; a bet this platform's player does not hold: unknown-bet; one cancelled before: bet-already-cancelled.",
      { betId: BET_ID, betCommandId: BET_COMMAND_ID },
      [],
    ),
    // Exactly one of the two names the bet.
    oneOf: [
      { properties: { betId: BET_ID }, required: ['betId'] },
      { properties: { betCommandId: BET_COMMAND_ID }, required: ['betCommandId'] },
    ],
  },
};

/** Parses just enough to pick the schema: `type` must name a known command. */
export const COMMAND_HEAD_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { type: { type: 'string', enum: COMMAND_TYPES }, schemaVersion: { const: 1 } },
  required: ['type', 'schemaVersion'],
};

export function isCommandType(value: unknown): value is CommandType {
  return typeof value === 'string' && (COMMAND_TYPES as readonly string[]).includes(value);
}

/** The answer to every command that passed its schema, on the results topic (key = table id). */
export interface CommandResultMessage {
  commandId: string;
  commandType: CommandType;
  tableId: string;
  playerId: string;
  status: 'accepted' | 'rejected';
  /** Reason code of a rejection (unknown-table, betting-closed, unknown-round, ...). */
  code?: string;
  message?: string;
  /** True when this command id was answered before: this is the stored first answer. */
  duplicate: boolean;
  reply?: Record<string, unknown>;
  answeredAt: string;
}

export const COMMAND_RESULT_SCHEMA: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE_URI}command-result.json`,
  title: 'CommandResult',
  description: 'Accepted or rejected, with a reason code; correlated by commandId.',
  type: 'object',
  properties: {
    commandId: ID,
    commandType: { type: 'string', enum: COMMAND_TYPES },
    tableId: ID,
    playerId: ID,
    status: { type: 'string', enum: ['accepted', 'rejected'] },
    code: TOKEN(60),
    message: def('text'),
    duplicate: { type: 'boolean' },
    reply: { type: 'object', description: 'what the command produced (bet id, seat, ...)' },
    answeredAt: def('timestamp'),
  },
  required: [
    'commandId',
    'commandType',
    'tableId',
    'playerId',
    'status',
    'duplicate',
    'answeredAt',
  ],
  additionalProperties: false,
};

/**
 * A message that cannot be answered (not JSON, not an object, or failing its schema) goes to the
 * dead-letter topic: the value is the original bytes untouched, these headers say why.
 */
/** Headers of every answer on a results topic: route or filter without parsing the value. */
export const RESULT_HEADERS = {
  commandId: 'command-id',
  status: 'command-status',
} as const;

export const DEAD_LETTER_HEADERS = {
  reasonCode: 'dlq-reason-code',
  reason: 'dlq-reason',
  sourceTopic: 'dlq-source-topic',
  sourcePartition: 'dlq-source-partition',
  sourceOffset: 'dlq-source-offset',
  deadLetteredAt: 'dlq-dead-lettered-at',
  /** Set only when the value was cut to DEAD_LETTER_MAX_VALUE_BYTES: the original's size. */
  originalBytes: 'dlq-original-bytes',
} as const;

/**
 * The largest value a dead letter carries: the first this many bytes of a larger original (the
 * original plus the headers would not fit a broker's default 1 MiB message, and a dead letter that
 * cannot be published would stop the consumer).
 */
export const DEAD_LETTER_MAX_VALUE_BYTES = 512 * 1024;

export const DEAD_LETTER_REASON_CODES = [
  /** The value is not UTF-8 JSON, or it names a field twice in one object. */
  'invalid-json',
  /** JSON, but `type`/`schemaVersion` name no command this service knows. */
  'unknown-command-type',
  /** A known command that fails its JSON Schema. */
  'schema-violation',
  /** The message key is not the command's tableId (per-table order would be lost). */
  'key-mismatch',
  /** Valid, but applying it failed because of a value it carries (e.g. text the database refuses). */
  'command-failed',
] as const;
export type DeadLetterReasonCode = (typeof DEAD_LETTER_REASON_CODES)[number];
