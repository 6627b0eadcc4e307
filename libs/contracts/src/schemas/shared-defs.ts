import type { JsonSchema } from './json-schema';

export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
export const SCHEMA_BASE_URI = 'https://studio.example/contracts/v1/';

/** Printable text: no NUL and no lone UTF-16 surrogate (they break logs, SQL and other parsers). */
const TEXT_PATTERN = '^[^\\u0000\\uD800-\\uDFFF]*$';

/**
 * The formats every schema shares, defined once (`defs.json`) and referenced by `$ref`, so an id
 * or an amount means the same thing in every command, answer and event.
 */
export const SHARED_DEFS: Record<string, JsonSchema> = {
  id: {
    type: 'string',
    minLength: 1,
    maxLength: 200,
    pattern: TEXT_PATTERN,
    description: 'an identifier: 1-200 characters, no NUL, no lone surrogate',
  },
  // A betId is built from the round, the player's key (platform and a playerId of up to 200
  // characters) and the bet type at some games (`<round>/<platform>:<player>/seat-7/<type>`, up
  // to ~330 characters): longer than an id, so that a bet is cancelled by the betId it was given.
  betId: {
    type: 'string',
    minLength: 1,
    maxLength: 400,
    pattern: TEXT_PATTERN,
    description:
      "a bet's id as its answer named it: 1-400 characters (it may hold the round, the playerId and the bet type), no NUL, no lone surrogate",
  },
  text: {
    type: 'string',
    maxLength: 2000,
    pattern: TEXT_PATTERN,
    description: 'free text: at most 2000 characters, no NUL, no lone surrogate',
  },
  uuid: { type: 'string', format: 'uuid' },
  timestamp: { type: 'string', format: 'date-time', description: 'ISO-8601 UTC time' },
  amount: {
    type: 'integer',
    minimum: 1,
    maximum: 1_000_000_000_000,
    description: "a stake: integer minor units of the bet's currency, 1 to 10^12",
  },
  amountOrZero: {
    type: 'integer',
    minimum: 0,
    maximum: 1_000_000_000_000,
    description: 'an optional stake: 0 (not placed) or integer minor units, at most 10^12',
  },
  money: {
    type: 'integer',
    minimum: -1_000_000_000_000_000,
    maximum: 1_000_000_000_000_000,
    description: "an amount of money: integer minor units of the bet's currency (may be negative)",
  },
  currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' },
  cardCode: {
    type: 'string',
    pattern: '^[2-9TJQKA][CDHS]$',
    description: 'card code: rank 2-9 T J Q K A, then suit C D H S ("AS", "TH")',
  },
  slot: {
    type: 'string',
    minLength: 1,
    maxLength: 40,
    pattern: '^[a-z0-9-]+(?:/[a-z0-9-]+)*$',
    description: 'where a card goes: "player-1/2", "banker/1", "dealer-up", "dealer-hole", "1/1"',
  },
  count: { type: 'integer', minimum: 0 },
};

export const SHARED_DEFS_SCHEMA: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  $id: `${SCHEMA_BASE_URI}defs.json`,
  title: 'Shared definitions',
  description: 'Formats shared by every command, answer and event schema.',
  $defs: SHARED_DEFS,
};

export type SharedDef = keyof typeof SHARED_DEFS;

/** A reference to a shared definition, optionally with its own description. */
export function def(name: SharedDef, description?: string): JsonSchema {
  if (!(name in SHARED_DEFS)) throw new Error(`No shared definition "${name}"`);
  return {
    $ref: `${SCHEMA_BASE_URI}defs.json#/$defs/${name}`,
    ...(description ? { description } : {}),
  };
}

/** The shared definition a `$ref` points at (for documentation), or undefined. */
export function resolveDef(schema: JsonSchema): JsonSchema | undefined {
  const prefix = `${SCHEMA_BASE_URI}defs.json#/$defs/`;
  if (!schema.$ref?.startsWith(prefix)) return undefined;
  return SHARED_DEFS[schema.$ref.slice(prefix.length)];
}
