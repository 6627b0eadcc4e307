import { JsonSchema, resolveDef } from '@studio/contracts';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Keywords of the contract's files that only make sense in a file of their own. */
const DROPPED = new Set(['$schema', '$id', '$defs']);

/** A titled schema with a name like this becomes a named component (`#/components/schemas/…`). */
const COMPONENT_NAME = /^[A-Z][A-Za-z0-9]*$/;

/**
 * Every named schema met so far, by name: filled as the decorators run, so the document can carry
 * them under components.schemas (src/http/openapi-document.ts keeps those its operations use).
 */
const COMPONENTS = new Map<string, { schema: SchemaObject; text: string }>();

/** The named component schemas, in the order they were first met. */
export function openApiComponents(): Record<string, SchemaObject> {
  return Object.fromEntries([...COMPONENTS].map(([name, { schema }]) => [name, schema]));
}

function component(name: string, build: () => SchemaObject): SchemaObject {
  const known = COMPONENTS.get(name);
  if (!known) {
    const schema = build();
    COMPONENTS.set(name, { schema, text: JSON.stringify(schema) });
  } else if (known.text !== JSON.stringify(build())) {
    // Two different schemas under one name would make a generated client lie about one of them.
    throw new Error(`Two different schemas are named ${name} in the OpenAPI document`);
  }
  // OpenAPI 3.1 allows siblings beside `$ref` (a use's own description), which the 3.0 type lacks.
  return { $ref: `#/components/schemas/${name}` } as SchemaObject;
}

/**
 * A validation schema as OpenAPI 3.1 describes it (JSON Schema 2020-12): the contract's shared
 * definitions and every schema titled like a type name are named components, referenced by `$ref`
 * (with the use's own description beside it); OpenAPI 3.0's `nullable` becomes a `null` type. The
 * validator keeps the original.
 */
export function openApiSchema(schema: JsonSchema): SchemaObject {
  const shared = resolveDef(schema);
  if (shared) {
    const name = schema.$ref!.slice(schema.$ref!.lastIndexOf('/') + 1);
    return {
      ...component(name, () => converted(shared)),
      ...(schema.description ? { description: schema.description } : {}),
    };
  }
  if (schema.title && COMPONENT_NAME.test(schema.title)) {
    return component(schema.title, () => converted(schema));
  }
  return converted(schema);
}

function converted(schema: JsonSchema): SchemaObject {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, openApiSchema(v)]),
      );
    } else if (
      key === 'items' ||
      ((key === 'additionalProperties' || key === 'propertyNames') && typeof value === 'object')
    ) {
      out[key] = openApiSchema(value as JsonSchema);
    } else if (key === 'oneOf' || key === 'anyOf' || key === 'allOf') {
      out[key] = (value as JsonSchema[]).map(openApiSchema);
    } else if (key === 'required' && Array.isArray(value) && value.length === 0) {
      continue;
    } else out[key] = value;
  }
  return withNull(out) as SchemaObject;
}

/** OpenAPI 3.0's `nullable: true` as 3.1 says it: `null` among the types (and the values). */
function withNull(out: Record<string, unknown>): Record<string, unknown> {
  if (out.nullable !== true) return out;
  const { nullable: _, ...rest } = out;
  if (rest.type !== undefined) rest.type = [...[rest.type].flat(), 'null'];
  if (Array.isArray(rest.enum)) rest.enum = [...(rest.enum as unknown[]), null];
  return rest;
}
