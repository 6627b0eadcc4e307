import { applyDecorators } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { JsonSchema } from '@studio/contracts';
import { BET_ID_PARAM, ERROR_BODY, ID_PARAM } from './http-schemas';
import { openApiSchema } from './openapi-schema';

/** The names of the security schemes in the OpenAPI document. */
export const BEARER = 'bearer';
export const PLATFORM_KEY = 'platform-key';

const error = (status: number, description: string) =>
  ApiResponse({ status, description, schema: openApiSchema(ERROR_BODY) });

/** A JSON body validated by `schema` (the SchemaPipe's), and its 400. */
export const ApiJsonBody = (schema: JsonSchema) =>
  applyDecorators(
    ApiBody({ schema: openApiSchema(schema) }),
    error(400, 'refused input: `pointer` names the value'),
  );

/** Path parameters that are contract ids. */
export const ApiIdParams = (...names: string[]) =>
  applyDecorators(
    ...names.map((name) => ApiParam({ name, required: true, schema: openApiSchema(ID_PARAM) })),
  );

/** A path's betId: as its bet's answer named it (longer than an id may be). */
export const ApiBetIdParam = () =>
  ApiParam({ name: 'betId', required: true, schema: openApiSchema(BET_ID_PARAM) });

/** An optional query parameter. */
export const ApiOptionalQuery = (name: string, schema: JsonSchema, description?: string) =>
  ApiQuery({ name, required: false, schema: openApiSchema(schema), description });

/** The 200 answer's body, where it is known. */
export const ApiOk = (schema: JsonSchema | SchemaObject, description = 'OK') =>
  ApiResponse({ status: 200, description, schema: openApiSchema(schema as JsonSchema) });

/** A route for signed-in staff (Authorization: Bearer from POST /auth/login). */
export const ApiStaff = (tag: string, ...roles: string[]) =>
  applyDecorators(
    ApiTags(tag),
    ApiBearerAuth(BEARER),
    error(401, 'no token, or an unknown, expired or revoked one'),
    error(403, `signed in without the role ${roles.join(' or ')}`),
  );

/** A route anyone may call: documented with an empty security requirement, as it behaves. */
export const ApiPublic = (tag: string, summary: string) =>
  applyDecorators(ApiTags(tag), ApiOperation({ summary, security: [] }));

/** What an operation does, in a line (generated clients name and document methods with it). */
export const ApiSummary = (summary: string) => ApiOperation({ summary });

/** Sign-in's throttling and lock-outs (docs/security.md): 429 with Retry-After. */
export const ApiThrottled = () =>
  ApiResponse({
    status: 429,
    description: 'too many attempts from the address, or the account is locked here for a while',
    headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
    schema: openApiSchema(ERROR_BODY),
  });

/** A route of the platform API (X-Platform-Key): its key's refusals and its rate limit. */
export const ApiPlatform = () =>
  applyDecorators(
    ApiTags('platform'),
    ApiSecurity(PLATFORM_KEY),
    error(401, 'unknown-api-key (no or unknown X-Platform-Key) or api-key-revoked'),
    error(403, 'platform-suspended: the key is good, its platform is suspended'),
    ApiResponse({
      status: 429,
      description:
        'rate-limited: the platform made more than PLATFORM_HTTP_RATE_LIMIT requests in ' +
        'PLATFORM_HTTP_RATE_WINDOW_MS (per instance); ask again after Retry-After seconds',
      headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
      schema: openApiSchema(ERROR_BODY),
    }),
  );

/** The refusals every table command may answer. */
export const ApiTableCommandErrors = () =>
  applyDecorators(
    error(404, 'unknown table (or void request)'),
    error(409, 'the table refuses the command in its current phase'),
    error(413, 'payload-too-large: the body is over HTTP_BODY_LIMIT_COMMAND_BYTES'),
    error(415, 'the body is not JSON: send it with Content-Type: application/json'),
    error(
      503,
      'no instance drove the table within COMMAND_WAIT_MS, the table is stopping, the database ' +
        'is out, or the address has too many open connections (Retry-After)',
    ),
  );
