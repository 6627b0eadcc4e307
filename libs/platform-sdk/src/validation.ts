import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CommandResult, StudioCommand, TableEvent } from './generated/messages';

/** The contract's JSON Schemas shipped in this package (`schemas/`, draft 2020-12). */
export const SCHEMA_DIR = join(__dirname, '..', 'schemas');

export interface Violation {
  /** JSON Pointer of the offending value ("" is the whole message). */
  path: string;
  message: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; violations: Violation[] };

let validators: Map<string, ValidateFunction> | undefined;

/** One strict Ajv validator per shipped file (relative path → function), `$ref`s resolved. */
function load(): Map<string, ValidateFunction> {
  if (validators) return validators;
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  const files = readdirSync(SCHEMA_DIR, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => join(e.parentPath, e.name));
  const schemas = files.map((f) => [relative(SCHEMA_DIR, f), JSON.parse(readFileSync(f, 'utf8'))]);
  for (const [, schema] of schemas) ajv.addSchema(schema);
  validators = new Map(
    schemas
      .filter(([path]) => path !== 'defs.json')
      .map(([path, schema]) => [path.split('\\').join('/'), ajv.getSchema(schema.$id)!]),
  );
  return validators;
}

function check<T>(file: string, value: unknown, omitted: readonly string[] = []): Checked<T> {
  const fn = load().get(file);
  if (!fn) return { ok: false, violations: [{ path: '', message: `no schema ${file}` }] };
  if (fn(value)) return { ok: true, value: value as T };
  const errors = (fn.errors ?? []).filter(
    (e) =>
      !(
        e.keyword === 'required' &&
        e.instancePath === '/payload' &&
        omitted.includes(String((e.params as { missingProperty?: unknown }).missingProperty))
      ),
  );
  if (errors.length === 0) return { ok: true, value: value as T };
  const violations = errors.map((e) => ({
    path: e.instancePath,
    message: e.message ?? e.keyword,
  }));
  return { ok: false, violations };
}

const typeOf = (value: unknown) =>
  value && typeof value === 'object' ? String((value as { type?: unknown }).type) : '';

/** A command as the studio will check it (by its `type`), before it is sent. */
export function checkCommand(value: unknown): Checked<StudioCommand> {
  return check(`commands/${typeOf(value)}.json`, value);
}

/** A table event (the envelope and its payload, by `type`). */
export function checkEvent(value: unknown): Checked<TableEvent> {
  return check(`events/${typeOf(value)}.json`, value);
}

/**
 * What the shared events topic (contract v2, `studio.table-events.v2`) leaves out of an event
 * that names players (docs/kafka-contract.md, "Platforms"): a redacted event's player, a split
 * event's list of players' items and the numbers it counts per platform. The v1 events topic
 * carries other platforms' players' events so too. (`@studio/contracts`' EVENT_VISIBILITY; a
 * unit test keeps the two the same: `sharedTopicOmits`.)
 */
export const SHARED_TOPIC_OMITS: Readonly<Record<string, readonly string[]>> = {
  BetsAccepted: ['bets', 'platformId'],
  DecisionsAccepted: ['decisions', 'platformId'],
  BetsSettled: ['settlements', 'platformId', 'batch', 'batches'],
  BetsRefunded: ['settlements', 'platformId', 'batch', 'batches'],
  BetsReturned: ['bets', 'platformId'],
  BetsCancelled: ['bets', 'platformId'],
  RoundSettled: ['records', 'platformId'],
  SeatTaken: ['playerId', 'platformId'],
  SeatLeft: ['playerId', 'platformId'],
  SeatRemoved: ['playerId', 'platformId'],
  SeatSitsOut: ['playerId', 'platformId'],
  TurnStarted: ['playerId', 'platformId'],
  AutoPlayed: ['playerId', 'platformId'],
  DecisionRequested: ['playerId', 'platformId'],
};

/**
 * A table event as the shared topic (or the v1 topic, for another platform's players) carries
 * it: its schema with the fields that topic leaves out (SHARED_TOPIC_OMITS) optional.
 */
export function checkSharedEvent(value: unknown): Checked<TableEvent> {
  const type = typeOf(value);
  return check(`events/${type}.json`, value, SHARED_TOPIC_OMITS[type] ?? []);
}

/** An answer read from the results topic. */
export function checkCommandResult(value: unknown): Checked<CommandResult> {
  return check('command-result.json', value);
}
