import { Clock, IdGenerator } from '../clock/clock';
import type { RawCommandMessage } from '../kafka/raw-command-message';
import { ApplyCommands } from '../use-cases/apply-commands/apply-commands.use-case';
import type { BatchItem, CommandResult, Tables } from '../use-cases/common/tables.port';
import { CommandApplier } from './command-applier';
import { CommandIntake } from './command-intake';
import type { CommandInbox } from './inbox/command-inbox';

/** Every table is driven here: nothing goes to the inbox. */
const hereInbox = {
  route: () => 'here',
  forwardKafka: () => Promise.reject(new Error('nothing is forwarded here')),
} as unknown as CommandInbox;

const fixedClock: Clock = { now: () => new Date('2026-11-29T14:00:00Z') };

/** Tables driven here (but "nowhere") whose intake answers each batch with `answer`. */
function tablesAnswering(
  answer: (tableId: string, items: readonly BatchItem[]) => CommandResult[],
) {
  return {
    get: (tableId: string) =>
      tableId === 'nowhere'
        ? { ok: false, code: 'unknown-table', message: 'No table nowhere' }
        : {
            ok: true,
            runtime: {
              tableId,
              currency: 'THB',
              currencies: ['THB'],
              prepareAhead: () => undefined,
              submitCommands: async (items: readonly BatchItem[]) => answer(tableId, items),
            },
          },
  } as unknown as Tables;
}

/** The real use cases, with the tables replaced by a recorder of what is applied. */
function setup() {
  const applied: Array<{ tableId: string; items: readonly BatchItem[] }> = [];
  let n = 0;
  const ids: IdGenerator = { newId: () => `id-${++n}` };
  const tables = tablesAnswering((tableId, items) => {
    applied.push({ tableId, items });
    return items.map((item) =>
      item.input.type === 'bet'
        ? { accepted: true, reply: { betId: item.input.bet.betId } }
        : { accepted: true, reply: {}, duplicate: true },
    );
  });
  const intake = new CommandIntake(
    new CommandApplier(new ApplyCommands(tables, ids)),
    hereInbox,
    fixedClock,
  );
  const process = async (message: RawCommandMessage) => (await intake.processBatch([message]))[0];
  const all = () => applied.flatMap((a) => a.items.map((i) => i.input));
  const bets = () => all().flatMap((i) => (i.type === 'bet' ? [i.bet] : []));
  const decisions = () => all().flatMap((i) => (i.type === 'decide' ? [i.decision] : []));
  return { intake, process, applied, bets, decisions };
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
    const { process, bets } = setup();
    const outcome = await process(
      raw({ ...base, commandId: 'c1', type: 'TakeSeat', seat: 3, amount: 500, pairs: 100 }),
    );
    expect(bets()).toEqual([
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
        reply: { betId: 'id-1' },
        duplicate: false,
        answeredAt: '2026-11-29T14:00:00.000Z',
      },
    });
  });

  it('maps LeaveSeat and BetBehindChoice onto Lux decisions and passes the duplicate flag on', async () => {
    const { intake, process, decisions } = setup();
    await process(raw({ ...base, commandId: 'c2', type: 'LeaveSeat', seat: 2 }));
    const behind = await process(
      raw({
        ...base,
        commandId: 'c3',
        type: 'BetBehindChoice',
        seat: 4,
        choice: 'no-follow-split',
      }),
    );
    expect(decisions().map((d) => [d.action, d.seat])).toEqual([
      ['leave-seat', '2'],
      ['no-follow-split', '4'],
    ]);
    expect(behind).toMatchObject({ result: { duplicate: true } });
    expect(intake.counters).toEqual({ accepted: 2, rejected: 0, duplicates: 2, deadLettered: 0 });
  });

  it('answers a use-case rejection with its code', async () => {
    const { process } = setup();
    const outcome = await process(
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
    const { process, bets, decisions } = setup();
    const outcome = await process(raw(value));
    expect(outcome).toMatchObject({ kind: 'dead-letter', code });
    expect(bets().length + decisions().length).toBe(0);
  });

  it('dead-letters a command naming a field twice as invalid-json (parsers differ on which counts)', async () => {
    const { process, bets } = setup();
    // JSON.parse keeps the last amount; a platform's own parser (its wallet's log) may keep the
    // first: the player debited 100 would be bet 400000. HTTP refuses such a body too.
    const twice =
      '{"commandId":"c6","type":"PlaceBet","schemaVersion":1,"tableId":"lux-1",' +
      '"playerId":"p1","betType":"main","amount":100,"amount":400000}';
    const outcome = await process(raw(twice));
    expect(outcome).toMatchObject({ kind: 'dead-letter', code: 'invalid-json' });
    expect(outcome).toMatchObject({ reason: expect.stringContaining('/amount') });
    const nested =
      '{"commandId":"c7","type":"PlaceBet","schemaVersion":1,"tableId":"lux-1",' +
      '"playerId":"p1","betType":"main","amount":100,"sideBets":{"pairs":10,"pairs":5000}}';
    expect(await process(raw(nested))).toMatchObject({
      kind: 'dead-letter',
      code: 'invalid-json',
      reason: expect.stringContaining('/sideBets/pairs'),
    });
    expect(bets()).toEqual([]);
  });

  it("answers a batch in message order, applying each table's commands together", async () => {
    const { intake, applied } = setup();
    const bet = (id: string, tableId: string) =>
      raw(
        { ...base, tableId, commandId: id, type: 'PlaceBet', betType: 'main', amount: 100 },
        tableId,
      );
    const outcomes = await intake.processBatch([
      bet('a1', 'lux-1'),
      raw('not json'),
      bet('b1', 'nowhere'),
      bet('a2', 'lux-1'),
      raw({
        ...base,
        playerId: ' ',
        commandId: 'a3',
        type: 'PlaceBet',
        betType: 'main',
        amount: 1,
      }),
    ]);
    expect(
      outcomes.map((o) =>
        o.kind === 'answered' ? o.result.commandId : o.kind === 'dead-letter' ? o.code : o.kind,
      ),
    ).toEqual(['a1', 'invalid-json', 'b1', 'a2', 'a3']);
    expect(outcomes.map((o) => (o.kind === 'answered' ? o.result.status : 'dead'))).toEqual([
      'accepted',
      'dead',
      'rejected',
      'accepted',
      'rejected',
    ]);
    // One call per table, in arrival order; the bet without a player and the bet for a table
    // that is not configured never reached a table.
    expect(applied.map((a) => [a.tableId, a.items.map((i) => i.meta.commandId)])).toEqual([
      ['lux-1', ['a1', 'a2']],
    ]);
    expect(intake.counters).toEqual({ accepted: 2, rejected: 2, duplicates: 0, deadLettered: 1 });
  });

  it('dead-letters a command whose key is not its table (it would lose per-table order)', async () => {
    const { process } = setup();
    const outcome = await process(
      raw({ ...base, commandId: 'c5', type: 'Decide', action: 'hit' }, 'ibj-1'),
    );
    expect(outcome).toEqual({
      kind: 'dead-letter',
      code: 'key-mismatch',
      reason: 'Message key "ibj-1" is not the command\'s tableId "lux-1"',
    });
  });
});

describe('command intake: a command whose commit fails', () => {
  /** Tables whose commit fails (as PostgreSQL does, SQLSTATE 22P05) for any batch holding `poison`. */
  function failingSetup(error: Error & { code?: string }) {
    const calls: number[] = [];
    const tables = tablesAnswering((_tableId, items) => {
      calls.push(items.length);
      if (items.some((i) => i.input.type === 'bet' && i.input.bet.playerId === 'poison'))
        throw error;
      return items.map(() => ({ accepted: true, reply: {} }));
    });
    let n = 0;
    const ids: IdGenerator = { newId: () => `id-${++n}` };
    const intake = new CommandIntake(
      new CommandApplier(new ApplyCommands(tables, ids)),
      hereInbox,
      fixedClock,
    );
    return { intake, calls };
  }
  const bet = (commandId: string, playerId: string) =>
    raw({ ...base, commandId, playerId, type: 'PlaceBet', betType: 'main', amount: 500 });

  it('dead-letters only the failing command and answers the others in order', async () => {
    const dataError = Object.assign(new Error('unsupported Unicode escape sequence'), {
      code: '22P05',
    });
    const { intake, calls } = failingSetup(dataError);
    const raws = ['a', 'b', 'poison', 'c', 'd'].map((p, i) => bet(`c${i}`, p));
    const outcomes = await intake.processBatch(raws);
    expect(outcomes.map((o) => o.kind)).toEqual([
      'answered',
      'answered',
      'dead-letter',
      'answered',
      'answered',
    ]);
    expect(outcomes[2]).toEqual(
      expect.objectContaining({ code: 'command-failed', reason: expect.stringContaining('22P05') }),
    );
    expect(intake.counters.deadLettered).toBe(1);
    // Split in halves until the failing command stood alone: never the whole batch one by one.
    expect(calls.length).toBeLessThan(raws.length + 3);
  });

  it('throws on an outage so the batch is read again, instead of dead-lettering it', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const { intake } = failingSetup(outage);
    await expect(intake.processBatch([bet('c1', 'a'), bet('c2', 'poison')])).rejects.toThrow(
      'ECONNREFUSED',
    );
    expect(intake.counters.deadLettered).toBe(0);
  });
});
