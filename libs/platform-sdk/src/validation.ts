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

function check<T>(file: string, value: unknown): Checked<T> {
  const fn = load().get(file);
  if (!fn) return { ok: false, violations: [{ path: '', message: `no schema ${file}` }] };
  if (fn(value)) return { ok: true, value: value as T };
  const violations = (fn.errors ?? []).map((e) => ({
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

/** An answer read from the results topic. */
export function checkCommandResult(value: unknown): Checked<CommandResult> {
  return check('command-result.json', value);
}
