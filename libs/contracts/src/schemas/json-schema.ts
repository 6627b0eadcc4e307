import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * The JSON Schema (draft 2020-12) keywords the contract uses, and its validator: Ajv in strict
 * mode with formats, the validator a platform engineer would use on the shipped files.
 */
export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

export interface JsonSchema {
  $schema?: string;
  $id?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  maxProperties?: number;
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
  anyOf?: JsonSchema[];
}

export interface SchemaViolation {
  /** JSON Pointer of the offending value ("" is the whole document). */
  path: string;
  message: string;
}

/** Checks one value: the violations, empty when valid. */
export type Validator = (value: unknown) => SchemaViolation[];

/**
 * A strict Ajv 2020-12 instance with formats and the given schemas registered (by their $id), so
 * `$ref`s between shipped files resolve. Strict: an unknown keyword or a `required` field without
 * a definition is an error in the schema, not silently ignored.
 */
export function createContractAjv(schemas: readonly JsonSchema[] = []): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    verbose: true,
  });
  addFormats(ajv);
  for (const schema of schemas) ajv.addSchema(schema as object);
  return ajv;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

function toViolation(error: ErrorObject): SchemaViolation {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    const name = escapePointer(String(params.additionalProperty));
    return { path: `${error.instancePath}/${name}`, message: 'is not allowed' };
  }
  if (error.keyword === 'required') {
    return {
      path: error.instancePath,
      message: `must have property "${String(params.missingProperty)}"`,
    };
  }
  if (error.keyword === 'enum') {
    const values = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
    return { path: error.instancePath, message: `must be one of ${values.join(', ')}` };
  }
  if (error.keyword === 'type') {
    // Say what arrived, as a reader of a dead-letter header needs: "must be integer, got string".
    return { path: error.instancePath, message: `${error.message}, got ${jsonTypeOf(error.data)}` };
  }
  if (error.keyword === 'const') {
    return { path: error.instancePath, message: `must be ${JSON.stringify(params.allowedValue)}` };
  }
  return { path: error.instancePath, message: error.message ?? error.keyword };
}

/** Wraps a compiled Ajv function as a Validator (at most `limit` violations). */
export function violationsOf(fn: ValidateFunction, limit = 20): Validator {
  return (value) => (fn(value) ? [] : (fn.errors ?? []).slice(0, limit).map(toViolation));
}

let registry: { ajv: Ajv2020; byText: Map<string, ValidateFunction> } | undefined;
let registered: readonly JsonSchema[] = [];

/** Called once by the catalogue: the schemas `validate` resolves `$ref`s against. */
export function registerContractSchemas(schemas: readonly JsonSchema[]): void {
  registered = schemas;
  registry = undefined;
  byObject = new WeakMap();
}

let byObject = new WeakMap<JsonSchema, ValidateFunction>();

/** The compiled function of a schema: by identity on the hot path (the command intake). */
function compiled(schema: JsonSchema): ValidateFunction {
  let fn = byObject.get(schema);
  if (!fn) {
    fn = compiledByText(schema);
    byObject.set(schema, fn);
  }
  return fn;
}

function compiledByText(schema: JsonSchema): ValidateFunction {
  registry ??= { ajv: createContractAjv(registered), byText: new Map() };
  const text = JSON.stringify(schema);
  let fn = registry.byText.get(text);
  if (fn) return fn;
  const known = schema.$id ? registry.ajv.getSchema(schema.$id) : undefined;
  if (known && JSON.stringify(known.schema) === text) fn = known;
  else if (schema.$id && known) {
    // Another schema under a registered $id (a test's variant): compiled on its own.
    fn = createContractAjv(registered.filter((s) => s.$id !== schema.$id)).compile(schema);
  } else fn = registry.ajv.compile(schema);
  registry.byText.set(text, fn);
  return fn;
}

/** Every violation of `schema` by `value` (empty when valid), at most `limit` of them. */
export function validate(schema: JsonSchema, value: unknown, limit = 20): SchemaViolation[] {
  return violationsOf(compiled(schema), limit)(value);
}

/** "path message; path message" for logs, rejection reasons and dead-letter headers. */
export function describeViolations(violations: SchemaViolation[]): string {
  return violations.map((v) => `${v.path || '/'} ${v.message}`).join('; ');
}
