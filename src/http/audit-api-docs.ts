import { applyDecorators } from '@nestjs/common';
import { ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_BODY } from './http-schemas';
import { openApiSchema } from './openapi-schema';

/** The auditor API's query parameters, as the audit parameter checks accept them. */
export const TIME: SchemaObject = {
  type: 'string',
  maxLength: 200,
  description: 'ISO 8601 time (a date, or a date and time; no offset means UTC), years 1970-9999',
  example: '2026-11-29T12:00:00Z',
};
const TEXT: SchemaObject = {
  type: 'string',
  maxLength: 200,
  description: 'at most 200 characters, no NUL, no lone surrogate, given once',
};

export const AUDIT_400 =
  'Bad request ({ error, message }); error is invalid-text (NUL, lone surrogate, over 200 ' +
  'characters, repeated key), invalid-time, invalid-cursor, unknown-parameter (a query ' +
  'parameter the endpoint does not read), range-too-large or bad-request';

export const EXPORT_200 =
  'CSV (header roundId,tableId,game,shoeId,shoeNumber,roundNumber,status,startedAt,endedAt,' +
  'voidReason,platformId,currency,bets,staked,returned,net: a line per round, platform and ' +
  'currency) or one JSON object per line';

const query = (name: string, schema: SchemaObject, description: string, required = false) =>
  ApiQuery({ name, required, schema, description });

/** `limit` and `cursor` of the keyset-paged listings. */
export const Page = () =>
  applyDecorators(
    query(
      'limit',
      { type: 'string', pattern: '^[0-9]+$', default: '50' },
      'Page size, 1..500 (default 50).',
    ),
    query('cursor', TEXT, 'The nextCursor of the previous page (keyset pagination).'),
  );

/** The round search's filters (the export requires its time range). */
export const RoundFilters = (rangeRequired = false) =>
  applyDecorators(
    query('tableId', TEXT, 'Only rounds of this table.'),
    query(
      'game',
      {
        type: 'string',
        enum: ['infinite-blackjack', 'blackjack-lux', 'european-blackjack-practice', 'pok-deng'],
      },
      'Only rounds of this game.',
    ),
    query('from', TIME, 'Rounds started at or after this time.', rangeRequired),
    query('to', TIME, 'Rounds started before this time.', rangeRequired),
    query(
      'status',
      { type: 'string', enum: ['in-progress', 'paused', 'completed', 'voided'] },
      'Round status.',
    ),
    query('shoeId', { type: 'string', format: 'uuid' }, 'Only rounds dealt from this shoe.'),
    query('playerId', TEXT, 'Only rounds in which this player placed a bet.'),
  );

export const NoSuchRound = () =>
  ApiResponse({ status: 404, description: 'No such round', schema: openApiSchema(ERROR_BODY) });
