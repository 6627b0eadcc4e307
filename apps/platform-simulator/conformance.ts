import type { JsonSchema } from '@studio/contracts';
import Ajv2020, { ErrorObject } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The conformance check of recorded traffic against the shipped schema files, as a platform
 * engineer would run it: Ajv 2020-12, strict, with formats, over libs/contracts/schemas as
 * committed (not the TypeScript catalogue), so a loosened or stale file is what gets checked.
 * It uses Ajv directly, not the contract library's wrapper, so it checks the files independently
 * of the code that produced them (and runs in jest's global teardown, outside the module map).
 */
export interface ConformanceRecord {
  kind: 'event' | 'answer' | 'command';
  source: string;
  value: unknown;
}

export interface ConformanceReport {
  eventsValidated: number;
  answersValidated: number;
  /** Event types that have a schema file. */
  typesKnown: string[];
  /** Event types seen in the records (with a schema or not). */
  typesSeen: string[];
  neverSeen: string[];
  /** One line per violation: "<source> <type>#<seq>: <pointer> <message>". */
  violations: string[];
}

/** Every schema file under `dir` (path relative to it → parsed schema). */
export function readSchemaFiles(dir: string): Record<string, JsonSchema> {
  const files: Record<string, JsonSchema> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const full = join(entry.parentPath, entry.name);
    files[relative(dir, full)] = JSON.parse(readFileSync(full, 'utf8')) as JsonSchema;
  }
  return files;
}

/** Every record of the NDJSON files in `dir` (none when the directory does not exist). */
export function readConformanceRecords(dir: string): ConformanceRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.ndjson'));
  } catch {
    return [];
  }
  return names.flatMap((name) =>
    readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as ConformanceRecord),
  );
}

type Check = (value: unknown) => string[];

function errorText(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') {
    return `${e.instancePath}/${String(params.additionalProperty)} is not allowed`;
  }
  return `${e.instancePath || '/'} ${e.message ?? e.keyword}`;
}

/** One strict Ajv 2020-12 validator per shipped file (path → check), `$ref`s resolved between them. */
export function validatorsForFiles(files: Record<string, JsonSchema>): Map<string, Check> {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  for (const schema of Object.values(files)) ajv.addSchema(schema as object);
  const out = new Map<string, Check>();
  for (const [path, schema] of Object.entries(files)) {
    if (!schema.$id || path === 'defs.json') continue;
    const fn = ajv.getSchema(schema.$id)!;
    out.set(path, (value) => (fn(value) ? [] : (fn.errors ?? []).map(errorText)));
  }
  return out;
}

export function checkConformance(
  records: readonly ConformanceRecord[],
  files: Record<string, JsonSchema>,
): ConformanceReport {
  const validators = validatorsForFiles(files);
  const answer = validators.get('command-result.json');
  if (!answer) throw new Error('The shipped schemas have no command-result.json');
  const typesKnown = Object.keys(files)
    .filter((p) => p.startsWith('events/'))
    .map((p) => p.slice('events/'.length, -'.json'.length))
    .sort();
  const seen = new Set<string>();
  const violations: string[] = [];
  let eventsValidated = 0;
  let answersValidated = 0;
  for (const record of records) {
    const value = record.value as { type?: unknown; seq?: unknown; commandId?: unknown };
    if (record.kind === 'answer') {
      answersValidated += 1;
      const v = answer(value);
      if (v.length) {
        violations.push(`${record.source} answer ${String(value?.commandId)}: ${v.join('; ')}`);
      }
      continue;
    }
    if (record.kind === 'command') {
      // Commands the tests sent on purpose may be invalid (poison tests): only the valid ones are
      // examples, and the service's answers are what the conformance check judges.
      continue;
    }
    eventsValidated += 1;
    const type = String(value?.type);
    seen.add(type);
    const where = `${record.source} ${type}#${String(value?.seq)}`;
    const validator = validators.get(`events/${type}.json`);
    if (!validator) {
      violations.push(`${where}: no schema for event type ${type}`);
      continue;
    }
    const v = validator(value);
    if (v.length) violations.push(`${where}: ${v.join('; ')}`);
  }
  return {
    eventsValidated,
    answersValidated,
    typesKnown,
    typesSeen: [...seen].sort(),
    neverSeen: typesKnown.filter((t) => !seen.has(t)),
    violations,
  };
}

/** The one line CI shows. */
export function conformanceLine(report: ConformanceReport): string {
  const seenKnown = report.typesKnown.filter((t) => report.typesSeen.includes(t)).length;
  return (
    `events validated ${report.eventsValidated}, types seen ${seenKnown} of ` +
    `${report.typesKnown.length}, violations ${report.violations.length}`
  );
}
