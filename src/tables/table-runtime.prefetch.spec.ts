import type { CommandRecord } from './ports';
import { bets, countingTable } from '../../test/support/counting-table';

/**
 * The intake looks up the stored answers of its next chunk while the current one commits
 * (prepareAhead): a command id the current chunk answers must still be answered as a
 * duplicate in the next one, although the lookup began before that answer was committed.
 */
describe('TableRuntime answers looked up ahead', () => {
  type Answer = Record<string, unknown>;

  function table() {
    const stored = new Map<string, Answer>();
    // Commits wait until the test lets them through (once open, for good).
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const lookups: string[][] = [];
    let version = 1;
    const runtime = countingTable({
      // The lookup sees what is stored when it is made, not what is committed afterwards.
      findCommands: async (ids: readonly string[]) => {
        lookups.push([...ids]);
        const seen = new Map(ids.flatMap((id) => (stored.has(id) ? [[id, stored.get(id)!]] : [])));
        return seen as Map<string, Answer>;
      },
      commit: async (_outcome, ctx: { commands: CommandRecord[] }) => {
        await gate;
        for (const c of ctx.commands) stored.set(c.commandId, c.result);
        return (version += 1);
      },
    });
    return { runtime, lookups, commit: () => release() };
  }

  const items = bets;

  it('answers a command committed after the lookup began as a duplicate', async () => {
    const t = table();
    await t.runtime.start();
    const first = t.runtime.submitBatch(items('a', 'b'));
    await new Promise((r) => setImmediate(r));
    t.runtime.prepareAhead(items('b', 'c')); // while a, b commit
    t.commit();
    expect(await first).toEqual([
      { accepted: true, reply: { n: 0 } },
      { accepted: true, reply: { n: 1 } },
    ]);
    expect(await t.runtime.submitBatch(items('b', 'c'))).toEqual([
      { accepted: true, reply: { n: 1 }, duplicate: true },
      { accepted: true, reply: { n: 2 } },
    ]);
    // The second batch used the lookup made ahead: none of its own.
    expect(t.lookups).toEqual([
      ['a', 'b'],
      ['b', 'c'],
    ]);
    await t.runtime.stop();
  });

  it('looks up again when the ids are not the ones looked up ahead', async () => {
    const t = table();
    await t.runtime.start();
    t.runtime.prepareAhead(items('x'));
    const batch = t.runtime.submitBatch(items('y'));
    await new Promise((r) => setImmediate(r));
    t.commit();
    await batch;
    expect(t.lookups).toEqual([['x'], ['y']]);
    await t.runtime.stop();
  });
});
