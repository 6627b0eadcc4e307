import { JsonSchema, resolveDef } from '@studio/contracts';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Keywords of the contract's draft 2020-12 schemas that OpenAPI 3.0 does not know. */
const DROPPED = new Set(['$schema', '$id', '$defs', 'propertyNames']);

/**
 * A validation schema as OpenAPI 3.0 describes it: the shared definitions inlined (their `$ref`s
 * point at the contract's files), `const` as a one-value `enum`. The validator keeps the original.
 */
export function openApiSchema(schema: JsonSchema): SchemaObject {
  const shared = resolveDef(schema);
  if (shared) {
    return {
      ...openApiSchema(shared),
      ...(schema.description ? { description: schema.description } : {}),
    };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (key === 'const') out.enum = [value];
    else if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, openApiSchema(v)]),
      );
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = openApiSchema(value as JsonSchema);
    } else if (key === 'oneOf' || key === 'anyOf') {
      out[key] = (value as JsonSchema[]).map(openApiSchema);
    } else out[key] = value;
  }
  return out as SchemaObject;
}
