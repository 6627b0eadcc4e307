import { Clock } from '../clock/clock';
import type { Decide, DecideCommand } from '../use-cases/decide.use-case';
import type { PlaceBet, PlaceBetCommand } from '../use-cases/place-bet.use-case';
import { CommandIntake, RawCommandMessage } from './command-intake';

const fixedClock: Clock = { now: () => new Date('2026-11-29T14:00:00Z') };

function setup() {
  const bets: PlaceBetCommand[] = [];
  const decisions: DecideCommand[] = [];
  const placeBet = {
    execute: async (c: PlaceBetCommand) => {
      bets.push(c);
      return c.tableId === 'nowhere'
        ? { accepted: false as const, code: 'unknown-table', message: 'No table nowhere' }
        : { accepted: true as const, reply: { betIds: ['b1'] } };
    },
  } as unknown as PlaceBet;
  const decide = {
    execute: async (c: DecideCommand) => {
      decisions.push(c);
      return { accepted: true as const, reply: {}, duplicate: true };
    },
  } as unknown as Decide;
  const intake = new CommandIntake(placeBet, decide, fixedClock);
  return { intake, bets, decisions };
}

const raw = (value: unknown, key: string | null = 'lux-1'): RawCommandMessage => ({
  topic: 'cmd',
  partition: 0,
  offset: '5',
  key,
  value: Buffer.isBuffer(value)
    ? value
    : Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)),
});

const base = { schemaVersion: 1, tableId: 'lux-1', playerId: 'p1' };

describe('command intake', () => {
  it('maps TakeSeat onto the seat bet that takes a Lux seat, with its pair bet', async () => {
    const { intake, bets } = setup();
    const outcome = await intake.process(
      raw({ ...base, commandId: 'c1', type: 'TakeSeat', seat: 3, amount: 500, pairs: 100 }),
    );
    expect(bets).toEqual([
      expect.objectContaining({
        betType: 'main',
        spot: '3',
        amount: 500,
        sideBets: { pairs: 100 },
      }),
    ]);
    expect(outcome).toEqual({
      kind: 'answered',
      result: {
        commandId: 'c1',
        commandType: 'TakeSeat',
        tableId: 'lux-1',
        playerId: 'p1',
        status: 'accepted',
        reply: { betIds: ['b1'] },
        duplicate: false,
        answeredAt: '2026-11-29T14:00:00.000Z',
      },
    });
  });

  it('maps LeaveSeat and BetBehindChoice onto Lux decisions and passes the duplicate flag on', async () => {
    const { intake, decisions } = setup();
    await intake.process(raw({ ...base, commandId: 'c2', type: 'LeaveSeat', seat: 2 }));
    const behind = await intake.process(
      raw({
        ...base,
        commandId: 'c3',
        type: 'BetBehindChoice',
        seat: 4,
        choice: 'no-follow-split',
      }),
    );
    expect(decisions.map((d) => [d.action, d.seat])).toEqual([
      ['leave-seat', '2'],
      ['no-follow-split', '4'],
    ]);
    expect(behind).toMatchObject({ result: { duplicate: true } });
    expect(intake.counters).toEqual({ accepted: 2, rejected: 0, duplicates: 2, deadLettered: 0 });
  });

  it('answers a use-case rejection with its code', async () => {
    const { intake } = setup();
    const outcome = await intake.process(
      raw(
        {
          ...base,
          tableId: 'nowhere',
          commandId: 'c4',
          type: 'PlaceBet',
          betType: 'main',
          amount: 1,
        },
        'nowhere',
      ),
    );
    expect(outcome).toMatchObject({ result: { status: 'rejected', code: 'unknown-table' } });
  });

  it.each([
    ['empty value', Buffer.alloc(0), 'invalid-json'],
    ['not JSON', 'hello', 'invalid-json'],
    ['JSON but not an object', '[1,2]', 'unknown-command-type'],
    ['an unknown type', { ...base, commandId: 'c', type: 'Cashout' }, 'unknown-command-type'],
    [
      'a future schema version',
      { ...base, commandId: 'c', type: 'Decide', action: 'hit', schemaVersion: 2 },
      'schema-violation',
    ],
    ['a missing field', { ...base, commandId: 'c', type: 'Decide' }, 'schema-violation'],
  ])('dead-letters %s as %s', async (_what, value, code) => {
    const { intake, bets, decisions } = setup();
    const outcome = await intake.process(raw(value));
    expect(outcome).toMatchObject({ kind: 'dead-letter', code });
    expect(bets.length + decisions.length).toBe(0);
  });

  it('dead-letters a command whose key is not its table (it would lose per-table order)', async () => {
    const { intake } = setup();
    const outcome = await intake.process(
      raw({ ...base, commandId: 'c5', type: 'Decide', action: 'hit' }, 'ibj-1'),
    );
    expect(outcome).toEqual({
      kind: 'dead-letter',
      code: 'key-mismatch',
      reason: 'Message key "ibj-1" is not the command\'s tableId "lux-1"',
    });
  });
});
