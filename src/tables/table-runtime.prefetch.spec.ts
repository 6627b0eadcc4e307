import type { CommandRecord } from './ports';
import {
  answeredBeforeError,
  bets,
  countingTable,
  refused,
} from '../../test/support/counting-table';

type Answer = Record<string, unknown>;
type Ctx = { commands: CommandRecord[]; lookUpAnswers?: boolean };

/**
 * Idempotence of command ids on the batch path. The intake may look up the stored answers of
 * its next chunk while the current one commits (prepareAhead): a command id the current chunk
 * answers must still be answered as a duplicate in the next one, although the lookup began
 * before that answer was committed. Without a lookup made ahead, the commit looks the ids up
 * itself (lookUpAnswers) and writes nothing when one was answered before; the runtime then
 * answers it from the stored answer and commits the rest.
 */
describe('TableRuntime answers of commands answered before', () => {
  function table() {
    const stored = new Map<string, Answer>();
    // Commits wait until the test lets them through (once open, for good).
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const lookups: string[][] = [];
    const commits: Array<{ ids: string[]; lookUpAnswers: boolean; wrote: boolean }> = [];
    let version = 1;
    // The store's part of lookUpAnswers: nothing is written when an id is stored.
    const store = (commands: readonly CommandRecord[], lookUpAnswers = false) => {
      const ids = commands.map((c) => c.commandId);
      const refusal = lookUpAnswers ? answeredBeforeError(stored, ids) : undefined;
      commits.push({ ids, lookUpAnswers, wrote: !refusal });
      if (refusal) throw refusal;
      for (const c of commands) stored.set(c.commandId, c.result);
    };
    const runtime = countingTable({
      // The lookup sees what is stored when it is made, not what is committed afterwards.
      findCommands: async (ids: readonly string[]) => {
        lookups.push([...ids]);
        return new Map(ids.flatMap((id) => (stored.has(id) ? [[id, stored.get(id)!]] : [])));
      },
      commit: async (_outcome, ctx: Ctx) => {
        await gate;
        store(ctx.commands, ctx.lookUpAnswers);
        return (version += 1);
      },
      recordCommands: async (_t, commands: CommandRecord[], _at, lookUpAnswers) => {
        if (commands.length === 0) return; // the start's: not gated
        await gate;
        store(commands, lookUpAnswers);
      },
    });
    return { runtime, lookups, commits, commit: () => release() };
  }

  it('answers a command committed after the lookup ahead began as a duplicate', async () => {
    const t = table();
    await t.runtime.start();
    const first = t.runtime.submitBatch(bets('a', 'b'));
    await new Promise((r) => setImmediate(r));
    t.runtime.prepareAhead(bets('b', 'c')); // while a, b commit
    t.commit();
    expect(await first).toEqual([
      { accepted: true, reply: { n: 0 } },
      { accepted: true, reply: { n: 1 } },
    ]);
    expect(await t.runtime.submitBatch(bets('b', 'c'))).toEqual([
      { accepted: true, reply: { n: 1 }, duplicate: true },
      { accepted: true, reply: { n: 2 } },
    ]);
    // The first batch had no lookup made ahead: its commit looked its ids up. The second used
    // the lookup made ahead, and its commit did not look up again.
    expect(t.lookups).toEqual([['b', 'c']]);
    expect(t.commits).toEqual([
      { ids: ['a', 'b'], lookUpAnswers: true, wrote: true },
      { ids: ['c'], lookUpAnswers: false, wrote: true },
    ]);
    await t.runtime.stop();
  });

  it('does not use a lookup made ahead for other ids: the commit looks them up', async () => {
    const t = table();
    await t.runtime.start();
    t.runtime.prepareAhead(bets('x'));
    const batch = t.runtime.submitBatch(bets('y'));
    await new Promise((r) => setImmediate(r));
    t.commit();
    await batch;
    expect(t.lookups).toEqual([['x']]);
    expect(t.commits).toEqual([{ ids: ['y'], lookUpAnswers: true, wrote: true }]);
    await t.runtime.stop();
  });

  it('answers a command answered before from its stored answer and commits the others', async () => {
    const t = table();
    t.commit();
    await t.runtime.start();
    await t.runtime.submitBatch(bets('a', 'b'));
    // b repeated twice, once among new commands, without a lookup made ahead.
    expect(await t.runtime.submitBatch(bets('c', 'b', 'd', 'b'))).toEqual([
      { accepted: true, reply: { n: 2 } },
      { accepted: true, reply: { n: 1 }, duplicate: true },
      { accepted: true, reply: { n: 3 } },
      { accepted: true, reply: { n: 1 }, duplicate: true },
    ]);
    expect(t.commits).toEqual([
      { ids: ['a', 'b'], lookUpAnswers: true, wrote: true },
      { ids: ['c', 'b', 'd'], lookUpAnswers: true, wrote: false },
      { ids: ['c', 'd'], lookUpAnswers: true, wrote: true },
    ]);
    // The table is where the committed commands left it: the next bet is applied at n = 4.
    expect(await t.runtime.submitBatch(bets('e'))).toEqual([{ accepted: true, reply: { n: 4 } }]);
    await t.runtime.stop();
  });

  it('gives a refused command answered before its stored refusal (answers recorded alone)', async () => {
    const t = table();
    t.commit();
    await t.runtime.start();
    const refusal = { accepted: false, code: 'refused', message: 'refused' };
    expect(await t.runtime.submitBatch(refused('r'))).toEqual([refusal]);
    expect(await t.runtime.submitBatch(refused('r', 's'))).toEqual([
      { ...refusal, duplicate: true },
      refusal,
    ]);
    expect(t.commits).toEqual([
      { ids: ['r'], lookUpAnswers: true, wrote: true },
      { ids: ['r', 's'], lookUpAnswers: true, wrote: false },
      { ids: ['s'], lookUpAnswers: true, wrote: true },
    ]);
    // Only answered commands: nothing is stepped or written again.
    expect(await t.runtime.submitBatch(refused('r', 's'))).toEqual([
      { ...refusal, duplicate: true },
      { ...refusal, duplicate: true },
    ]);
    expect(t.commits).toHaveLength(4);
    expect(t.commits[3]).toEqual({ ids: ['r', 's'], lookUpAnswers: true, wrote: false });
    await t.runtime.stop();
  });
});
