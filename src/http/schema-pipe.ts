import { ArgumentMetadata, BadRequestException, Injectable, PipeTransform } from '@nestjs/common';
import { JsonSchema, SchemaViolation, validate } from '@studio/contracts';

export interface SchemaPipeOptions {
  /**
   * The `error` code when the first violation is at or under a JSON Pointer (e.g. `/amount` →
   * `invalid-amount`, the code the table answers to a bad amount); otherwise `invalid-request`.
   */
  codes?: Record<string, string>;
}

/** Where a value came from, as the message names it: `body /amount`, `path tableId`. */
function placeOf(metadata: ArgumentMetadata): string {
  if (metadata.type === 'body') return 'body';
  const where = metadata.type === 'param' ? 'path parameter' : `${metadata.type} parameter`;
  return metadata.data ? `${where} ${metadata.data}` : where;
}

function codeOf(violation: SchemaViolation, codes: Record<string, string>): string {
  for (const [pointer, code] of Object.entries(codes)) {
    if (violation.path === pointer || violation.path.startsWith(`${pointer}/`)) return code;
  }
  return 'invalid-request';
}

/**
 * Validates one HTTP input (a JSON body, a path or a query parameter) against its JSON Schema
 * with the contract's Ajv, before any use case sees it: 400 `{ error, message, pointer }` naming
 * the first refused value. The same schema object describes the input in the OpenAPI document.
 */
@Injectable()
export class SchemaPipe implements PipeTransform<unknown, unknown> {
  constructor(
    readonly schema: JsonSchema,
    private readonly options: SchemaPipeOptions = {},
  ) {}

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    // A request without a JSON body is an empty object, as an omitted optional field would be.
    const input = metadata.type === 'body' && value === undefined ? {} : value;
    const [first] = validate(this.schema, input, 1);
    if (!first) return input;
    const pointer = metadata.type === 'body' ? first.path : '';
    throw new BadRequestException({
      error: codeOf(first, this.options.codes ?? {}),
      message: `${placeOf(metadata)}${first.path ? ` ${first.path}` : ''} ${first.message}`,
      pointer,
    });
  }
}
