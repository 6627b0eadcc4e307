import type { BatchItem, CommandResult } from '../use-cases/common/tables.port';
import { CommandQueue } from './command-queue';

const item = (commandId: string): BatchItem => ({
  input: { type: 'bet' } as never,
  meta: { commandId, kind: 'place-bet' },
});
const ids = (results: CommandResult[]) =>
  results.map((r) => (r.accepted ? r.reply.id : `refused:${r.code}`));

/** A table that applies each batch when the test lets it, answering every command by its id. */
function table() {
  const batches: string[][] = [];
  const pending: Array<{ done(error?: Error): void }> = [];
  const apply = (items: readonly BatchItem[]) => {
    batches.push(items.map((i) => i.meta.commandId!));
    return new Promise<CommandResult[]>((resolve, reject) =>
      pending.push({
        done: (error) =>
          error
            ? reject(error)
            : resolve(items.map((i) => ({ accepted: true, reply: { id: i.meta.commandId } }))),
      }),
    );
  };
  const settle = async (error?: Error) => {
    for (let i = 0; pending.length === 0; i += 1) {
      if (i > 1_000) throw new Error('no batch in flight');
      await new Promise((r) => setImmediate(r));
    }
    pending.shift()!.done(error);
  };
  return { apply, batches, settle };
}

describe('CommandQueue (a table’s one intake, group commit across callers)', () => {
  it('applies a command at once when idle, and those arriving meanwhile together next', async () => {
    const t = table();
    const queue = new CommandQueue(t.apply);
    const first = queue.submit([item('a')]);
    const second = queue.submit([item('b')]);
    const third = queue.submit([item('c'), item('d')]);
    expect(t.batches).toEqual([['a']]);
    await t.settle();
    expect(ids(await first)).toEqual(['a']);
    await t.settle();
    // Each caller gets its own answers, in its order.
    expect(ids(await second)).toEqual(['b']);
    expect(ids(await third)).toEqual(['c', 'd']);
    expect(t.batches).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('takes no more than its group limit in one batch, keeping arrival order', async () => {
    const t = table();
    const queue = new CommandQueue(t.apply, 3);
    const answers = ['a', 'b', 'c', 'd', 'e'].map((id) => queue.submit([item(id)]));
    for (let i = 0; i < 3; i += 1) await t.settle();
    expect((await Promise.all(answers)).map(ids)).toEqual([['a'], ['b'], ['c'], ['d'], ['e']]);
    expect(t.batches).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
  });

  it('applies a failed group again caller by caller when a command caused it', async () => {
    const t = table();
    const queue = new CommandQueue(t.apply);
    const first = queue.submit([item('a')]);
    const good = queue.submit([item('b')]);
    const bad = queue.submit([item('c')]);
    await t.settle();
    await first;
    // A value the database refuses (class 22): only its caller's command fails.
    await t.settle(Object.assign(new Error('invalid byte sequence'), { code: '22021' }));
    await t.settle();
    await t.settle(Object.assign(new Error('invalid byte sequence'), { code: '22021' }));
    expect(ids(await good)).toEqual(['b']);
    await expect(bad).rejects.toThrow('invalid byte sequence');
    expect(t.batches).toEqual([['a'], ['b', 'c'], ['b'], ['c']]);
  });

  it('fails every caller of the group in an outage, without trying each again', async () => {
    const t = table();
    const queue = new CommandQueue(t.apply);
    const first = queue.submit([item('a')]);
    const others = [queue.submit([item('b')]), queue.submit([item('c')])];
    await t.settle();
    await first;
    await t.settle(new Error('Connection terminated'));
    for (const other of others) await expect(other).rejects.toThrow('Connection terminated');
    expect(t.batches).toEqual([['a'], ['b', 'c']]);
  });
});
