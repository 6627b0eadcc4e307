import {
  COMMAND_HEAD_SCHEMA,
  COMMAND_RESULT_SCHEMA,
  COMMAND_SCHEMAS,
  COMMAND_VALIDATORS,
  contractSchemaFiles,
  describeViolations,
  EVENT_SCHEMAS,
  eventSchema,
  eventValidator,
  renderContractDocument,
  validate,
} from '..';

const envelope = (type: string, payload: unknown, extra: Record<string, unknown> = {}) => ({
  eventId: '0b8f4a52-4f43-4e0a-9f7e-0d7f3b0c1a11',
  type,
  schemaVersion: 1,
  tableId: 'pokdeng-1',
  roundId: '5d0c2f1e-8a7b-4c3d-9e2f-1a2b3c4d5e6f',
  seq: 7,
  occurredAt: '2026-11-29T13:45:00.000Z',
  payload,
  ...extra,
});

describe('event schemas', () => {
  it('accept a Pok Deng HandRevealed and refuse one whose card is not a card code', () => {
    const schema = eventSchema('HandRevealed')!;
    const ok = envelope('HandRevealed', { hand: 'banker', cards: ['9S', 'KH'], points: 9 });
    expect(validate(schema, ok)).toEqual([]);
    const bad = envelope('HandRevealed', { hand: 'banker', cards: ['9S', '1H'] });
    expect(describeViolations(validate(schema, bad))).toBe(
      '/payload/cards/1 must match pattern "^[2-9TJQKA][CDHS]$"',
    );
  });

  it('let CardDealtFaceDown carry the slot and nothing else (a card there would leak it)', () => {
    const schema = eventSchema('CardDealtFaceDown')!;
    expect(validate(schema, envelope('CardDealtFaceDown', { slot: 'dealer-hole' }))).toEqual([]);
    expect(
      validate(schema, envelope('CardDealtFaceDown', { slot: 'dealer-hole', card: 'AS' })),
    ).toEqual([{ path: '/payload/card', message: 'is not allowed' }]);
  });

  it('pin the envelope: seq from 1, a UUID event id, no unknown top-level fields, the right type', () => {
    const schema = eventSchema('RoundResumed')!;
    const violations = validate(
      schema,
      envelope('RoundPaused', { pausedFor: 'x' }, { seq: 0, eventId: 'x', extra: true }),
    ).map((v) => `${v.path} ${v.message}`);
    expect(violations.sort()).toEqual([
      '/eventId must match format "uuid"',
      '/extra is not allowed',
      '/seq must be >= 1',
      '/type must be "RoundResumed"',
    ]);
  });

  it('give a settlement batch integer money only (games.md: fractions round down to the minor unit)', () => {
    const schema = eventSchema('BetsSettled')!;
    const settlement = {
      betId: 'b1',
      playerId: 'alice',
      stake: 1_000,
      returned: 1_950,
      net: 950,
      betType: 'main',
      spot: null,
      outcome: 'win',
      roundedDown: '0',
    };
    expect(
      validate(
        schema,
        envelope('BetsSettled', { batch: 1, batches: 1, settlements: [settlement] }),
      ),
    ).toEqual([]);
    expect(
      validate(
        schema,
        envelope('BetsSettled', {
          batch: 1,
          batches: 1,
          settlements: [{ ...settlement, returned: 1_950.5 }],
        }),
      ),
    ).toEqual([
      { path: '/payload/settlements/0/returned', message: 'must be integer, got number' },
    ]);
  });

  it('have one entry per type', () => {
    const types = EVENT_SCHEMAS.map((e) => e.type);
    expect(new Set(types).size).toBe(types.length);
  });
});

describe('command schemas', () => {
  const bet = {
    commandId: 'c-1',
    type: 'PlaceBet',
    schemaVersion: 1,
    tableId: 'ibj-1',
    playerId: 'p1',
    betType: 'main',
    amount: 1_000,
    sideBets: { pairs: 100 },
  };

  it('accept a well-formed bet', () => {
    expect(validate(COMMAND_HEAD_SCHEMA, bet)).toEqual([]);
    expect(validate(COMMAND_SCHEMAS.PlaceBet, bet)).toEqual([]);
  });

  it('take a CancelBet naming its bet by betId or by betCommandId, exactly one of them', () => {
    const cancel = {
      commandId: 'c-2',
      type: 'CancelBet',
      schemaVersion: 1,
      tableId: 't1',
      playerId: 'p1',
    };
    expect(validate(COMMAND_HEAD_SCHEMA, { ...cancel, betId: 'b-1' })).toEqual([]);
    expect(validate(COMMAND_SCHEMAS.CancelBet, { ...cancel, betId: 'b-1' })).toEqual([]);
    expect(validate(COMMAND_SCHEMAS.CancelBet, { ...cancel, betCommandId: 'c-1' })).toEqual([]);
    expect(validate(COMMAND_SCHEMAS.CancelBet, cancel)).not.toEqual([]);
    expect(
      validate(COMMAND_SCHEMAS.CancelBet, { ...cancel, betId: 'b-1', betCommandId: 'c-1' }),
    ).not.toEqual([]);
  });

  it('refuse fractional or negative money, missing fields and misspelt fields', () => {
    const msgs = (value: unknown) =>
      validate(COMMAND_SCHEMAS.PlaceBet, value).map((v) => `${v.path} ${v.message}`);
    expect(msgs({ ...bet, amount: 10.5 })).toEqual(['/amount must be integer, got number']);
    expect(msgs({ ...bet, amount: 0 })).toEqual(['/amount must be >= 1']);
    expect(msgs({ ...bet, sideBets: { pairs: -1 } })).toEqual(['/sideBets/pairs must be >= 0']);
    const { playerId: _drop, ...noPlayer } = bet;
    expect(msgs(noPlayer)).toEqual([' must have property "playerId"']);
    expect(msgs({ ...bet, ammount: 5 })).toEqual(['/ammount is not allowed']);
  });

  it('refuse NUL, lone surrogates and over-long ids in every id field (one shared definition)', () => {
    const msgs = (value: unknown) =>
      validate(COMMAND_SCHEMAS.PlaceBet, value).map((v) => `${v.path} ${v.message}`);
    const textRule = 'must match pattern "^[^\\u0000\\uD800-\\uDFFF]*$"';
    expect(msgs({ ...bet, playerId: 'p\u0000' })).toEqual([`/playerId ${textRule}`]);
    expect(msgs({ ...bet, commandId: 'c\uD800' })).toEqual([`/commandId ${textRule}`]);
    expect(msgs({ ...bet, playerId: 'p😀' })).toEqual([]);
    expect(msgs({ ...bet, tableId: 'x'.repeat(201) })).toEqual([
      '/tableId must NOT have more than 200 characters',
    ]);
    expect(msgs({ ...bet, roundId: '' })).toEqual([
      '/roundId must NOT have fewer than 1 characters',
    ]);
  });

  it('export one compiled validator per command type and per event type', () => {
    expect(COMMAND_VALIDATORS.LeaveSeat({ ...bet, type: 'LeaveSeat', seat: 8 })).toEqual(
      expect.arrayContaining([{ path: '/seat', message: 'must be <= 7' }]),
    );
    expect(
      eventValidator('CardDealtFaceDown')!(envelope('CardDealtFaceDown', { slot: 'x' })),
    ).toEqual([]);
    expect(eventValidator('NoSuchEvent')).toBeUndefined();
  });

  it('name the unknown command type in the head check', () => {
    expect(describeViolations(validate(COMMAND_HEAD_SCHEMA, { ...bet, type: 'Cashout' }))).toMatch(
      /^\/type must be one of "PlaceBet"/,
    );
  });

  it('describe the result message', () => {
    const result = {
      commandId: 'c-1',
      commandType: 'PlaceBet',
      tableId: 'ibj-1',
      playerId: 'p1',
      status: 'rejected',
      code: 'betting-closed',
      message: 'betting is not open',
      duplicate: false,
      answeredAt: '2026-11-29T13:45:00.000Z',
    };
    expect(validate(COMMAND_RESULT_SCHEMA, result)).toEqual([]);
    expect(validate(COMMAND_RESULT_SCHEMA, { ...result, status: 'maybe' })).toHaveLength(1);
  });
});

describe('contract document', () => {
  it('lists every event and command type and ships one schema file each', () => {
    const doc = renderContractDocument();
    for (const e of EVENT_SCHEMAS) expect(doc).toContain(`| \`${e.type}\` |`);
    for (const type of Object.keys(COMMAND_SCHEMAS)) expect(doc).toContain(`| \`${type}\` |`);
    const files = contractSchemaFiles();
    expect(Object.keys(files)).toHaveLength(
      EVENT_SCHEMAS.length + Object.keys(COMMAND_SCHEMAS).length + 3,
    );
    expect(new Set(Object.values(files).map((s) => s.$id)).size).toBe(Object.keys(files).length);
  });

  it('closes every event payload except the ones marked open on the page', () => {
    const open = EVENT_SCHEMAS.filter((e) => e.payload.additionalProperties !== false);
    const doc = renderContractDocument();
    for (const e of open) expect(doc).toMatch(new RegExp(`\\| \`${e.type}\` \\|.*\\(open:`));
    // Left open: ShoeLoaded is never published by the service (only the offline verifier loads a
    // shoe), CardCorrected only restricted (the public twin is the closed CardCorrectedFaceDown).
    expect(open.map((e) => e.type).sort()).toEqual(['CardCorrected', 'ShoeLoaded']);
  });
});
