import { BadRequestException } from '@nestjs/common';
import type { ArgumentMetadata } from '@nestjs/common';
import {
  CORRECT_CARD_BODY,
  DECIDE_BODY,
  ID_PARAM,
  LOGIN_BODY,
  PLACE_BET_BODY,
  REASON_BODY,
} from './http-schemas';
import { openApiComponents, openApiSchema } from './openapi-schema';
import { SchemaPipe } from './schema-pipe';

const BODY: ArgumentMetadata = { type: 'body' };
const PARAM: ArgumentMetadata = { type: 'param', data: 'tableId' };

function refusal(pipe: SchemaPipe, value: unknown, metadata = BODY): Record<string, unknown> {
  try {
    pipe.transform(value, metadata);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return (error as BadRequestException).getResponse() as Record<string, unknown>;
  }
  throw new Error(`accepted ${JSON.stringify(value)}`);
}

describe('SchemaPipe', () => {
  const bets = new SchemaPipe(PLACE_BET_BODY, { codes: { '/amount': 'invalid-amount' } });
  const bet = { playerId: 'alice', betType: 'player', spot: '1', amount: 1000 };

  it('passes a valid body through unchanged', () => {
    expect(bets.transform(bet, BODY)).toBe(bet);
    const full = {
      ...bet,
      commandId: 'c-1',
      roundId: 'r',
      currency: 'THB',
      sideBets: { pairs: 0 },
    };
    expect(bets.transform(full, BODY)).toBe(full);
  });

  it.each([
    [{ ...bet, playerId: { a: 1 } }, '/playerId'],
    [{ ...bet, playerId: 42 }, '/playerId'],
    [{ ...bet, playerId: 'x'.repeat(10_000) }, '/playerId'],
    [{ ...bet, playerId: 'a\u0000b' }, '/playerId'],
    [{ ...bet, playerId: 'a\uD800b' }, '/playerId'],
    [{ ...bet, commandId: 7 }, '/commandId'],
    [{ ...bet, betType: '__proto__' }, '/betType'],
    [{ ...bet, spot: ' 1' }, '/spot'],
    [{ ...bet, sideBets: { __proto__x: 1 } }, '/sideBets'],
    [{ ...bet, tableId: 'other' }, '/tableId'],
  ])('refuses %j naming %s', (value, pointer) => {
    const answer = refusal(bets, value);
    expect(answer).toMatchObject({ error: 'invalid-request', pointer });
    expect(answer.message).toContain(`body ${pointer}`);
  });

  it('keeps invalid-amount for an amount that is not a whole positive number', () => {
    for (const amount of [10.5, 0, -1, '1000', 1e13]) {
      expect(refusal(bets, { ...bet, amount })).toMatchObject({
        error: 'invalid-amount',
        pointer: '/amount',
      });
    }
  });

  it('names a missing field and treats a missing body as {}', () => {
    expect(refusal(bets, undefined)).toMatchObject({ error: 'invalid-request', pointer: '' });
    expect(new SchemaPipe(REASON_BODY).transform(undefined, BODY)).toEqual({});
  });

  it('refuses NUL and lone surrogates in a reason and too-long reasons', () => {
    const reasons = new SchemaPipe(REASON_BODY);
    for (const reason of ['a\u0000', '\uDC00x', 'r'.repeat(2001), 5]) {
      expect(refusal(reasons, { reason })).toMatchObject({ pointer: '/reason' });
    }
    expect(reasons.transform({ reason: 'misdeal 🂡' }, BODY)).toEqual({ reason: 'misdeal 🂡' });
  });

  it('checks decisions and card corrections with the contract formats', () => {
    expect(
      refusal(new SchemaPipe(DECIDE_BODY), { playerId: 'p', action: 'hit', seat: 1 }),
    ).toMatchObject({
      pointer: '/seat',
    });
    const cards = new SchemaPipe(CORRECT_CARD_BODY, { codes: { '/card': 'invalid-card' } });
    expect(refusal(cards, { slot: 'player-1/1', card: 'ZZ', reason: 'r' })).toMatchObject({
      error: 'invalid-card',
    });
  });

  it('checks a sign-in body (for the auth controller)', () => {
    const login = new SchemaPipe(LOGIN_BODY);
    expect(login.transform({ username: 'dealer', password: 'dealer-demo' }, BODY)).toBeTruthy();
    expect(refusal(login, { username: ['a'], password: 'p' })).toMatchObject({
      pointer: '/username',
    });
    expect(refusal(login, { username: 'a', password: 'p'.repeat(201) })).toMatchObject({
      pointer: '/password',
    });
  });

  it('validates path parameters as ids', () => {
    const ids = new SchemaPipe(ID_PARAM);
    expect(ids.transform('pokdeng-1', PARAM)).toBe('pokdeng-1');
    expect(refusal(ids, 'x'.repeat(201), PARAM).message).toMatch(/^path parameter tableId /);
  });
});

describe('openApiSchema', () => {
  it('names titled schemas and the shared definitions as components, referenced by $ref', () => {
    expect(openApiSchema(PLACE_BET_BODY)).toEqual({ $ref: '#/components/schemas/PlaceBetBody' });
    const components = openApiComponents();
    const body = components.PlaceBetBody as { properties: Record<string, unknown> };
    expect(body.properties.amount).toEqual({ $ref: '#/components/schemas/amount' });
    expect(components.amount).toMatchObject({ type: 'integer', minimum: 1 });
    expect(JSON.stringify(components)).not.toContain('https://');
    // A use's own description stays beside the reference (OpenAPI 3.1 allows it).
    expect(openApiSchema({ $ref: ID_PARAM.$ref, description: 'the table' })).toEqual({
      $ref: '#/components/schemas/id',
      description: 'the table',
    });
  });

  it('says nullable as OpenAPI 3.1 does, and refuses two schemas under one name', () => {
    const nullable = { type: 'string', enum: ['a'], nullable: true } as never;
    expect(openApiSchema(nullable)).toEqual({ type: ['string', 'null'], enum: ['a', null] });
    expect(openApiSchema({ const: true })).toEqual({ const: true });
    expect(() => openApiSchema({ title: 'PlaceBetBody', type: 'string' })).toThrow(
      /Two different schemas are named PlaceBetBody/,
    );
  });
});
