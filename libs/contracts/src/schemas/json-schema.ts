/**
 * The subset of JSON Schema (draft 2020-12 keywords) the contract uses, and a validator for it.
 * Pure: the schemas are data shipped with the contract, so platforms in any language can use their
 * own validator; the service and the simulators use this one (no extra dependency).
 */
export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

export interface JsonSchema {
  $schema?: string;
  $id?: string;
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: readonly (string | number | boolean | null)[];
  const?: string | number | boolean | null;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: 'date-time' | 'uuid';
  minimum?: number;
  maximum?: number;
  oneOf?: JsonSchema[];
}

export interface SchemaViolation {
  /** JSON Pointer of the offending value ("" is the whole document). */
  path: string;
  message: string;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function typeOf(value: unknown): JsonType | 'undefined' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

function typeMatches(actual: JsonType | 'undefined', expected: JsonType): boolean {
  return actual === expected || (expected === 'number' && actual === 'integer');
}

/** Every violation of `schema` by `value` (empty when valid), at most `limit` of them. */
export function validate(schema: JsonSchema, value: unknown, limit = 20): SchemaViolation[] {
  const out: SchemaViolation[] = [];
  check(schema, value, '', out, limit);
  return out;
}

function check(
  schema: JsonSchema,
  value: unknown,
  path: string,
  out: SchemaViolation[],
  limit: number,
): void {
  if (out.length >= limit) return;
  const fail = (message: string) => out.push({ path, message });
  if (schema.oneOf) {
    const matching = schema.oneOf.filter((s) => validate(s, value, 1).length === 0).length;
    if (matching !== 1) fail(`must match exactly one alternative (matched ${matching})`);
  }
  const actual = typeOf(value);
  if (schema.type) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => typeMatches(actual, t))) {
      fail(`must be ${types.join(' or ')}, got ${actual}`);
      return;
    }
  }
  if (schema.const !== undefined && value !== schema.const) {
    fail(`must be ${JSON.stringify(schema.const)}`);
  }
  if (schema.enum && !schema.enum.includes(value as string)) {
    fail(`must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) {
      fail(`must be at least ${schema.minLength} characters`);
    }
    if (schema.maxLength !== undefined && value.length > schema.maxLength) {
      fail(`must be at most ${schema.maxLength} characters`);
    }
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) {
      fail(`must match ${schema.pattern}`);
    }
    if (schema.format === 'date-time' && !DATE_TIME.test(value)) fail('must be an ISO-8601 time');
    if (schema.format === 'uuid' && !UUID.test(value)) fail('must be a UUID');
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) {
      fail(`must be >= ${schema.minimum}`);
    }
    if (schema.maximum !== undefined && value > schema.maximum) {
      fail(`must be <= ${schema.maximum}`);
    }
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      fail(`must have at least ${schema.minItems} items`);
    }
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      fail(`must have at most ${schema.maxItems} items`);
    }
    if (schema.items) {
      value.forEach((item, i) => check(schema.items!, item, `${path}/${i}`, out, limit));
    }
  }
  if (actual === 'object') {
    const record = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (!(name in record) || record[name] === undefined) fail(`must have property "${name}"`);
    }
    for (const [name, child] of Object.entries(record)) {
      if (child === undefined) continue;
      const childSchema = schema.properties?.[name];
      const childPath = `${path}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (childSchema) check(childSchema, child, childPath, out, limit);
      else if (schema.additionalProperties === false) {
        out.push({ path: childPath, message: 'is not allowed' });
      } else if (typeof schema.additionalProperties === 'object') {
        check(schema.additionalProperties, child, childPath, out, limit);
      }
    }
  }
}

/** "path message; path message" for logs, rejection reasons and dead-letter headers. */
export function describeViolations(violations: SchemaViolation[]): string {
  return violations.map((v) => `${v.path || '/'} ${v.message}`).join('; ');
}
