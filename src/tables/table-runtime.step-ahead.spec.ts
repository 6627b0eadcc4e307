import { bets, countingTable } from '../../test/support/counting-table';

/**
 * The intake's next chunk is stepped on the state the current chunk's commit leaves while that
 * commit runs (stepAhead). Its batch takes that step only when the commit left exactly that
 * state: after a failed commit the batch is stepped again on what is committed.
 */
describe('TableRuntime stepping the next batch ahead', () => {
  function table() {
    const commits: Array<{ done: (ok: boolean) => void }> = [];
    let version = 1;
    const steppedFrom: number[] = [];
    const runtime = countingTable(
      {
        findCommands: async () => new Map(),
        // Each commit waits until the test settles it, committed or failed.
        commit: (outcome) =>
          outcome.state.n === 0
            ? Promise.resolve((version += 1)) // the table's start
            : new Promise<number>((resolve, reject) =>
                commits.push({
                  done: (ok) => (ok ? resolve((version += 1)) : reject(new Error('database gone'))),
                }),
              ),
      },
      steppedFrom,
    );
    /** Settles the oldest commit waiting, once it is there. */
    const settle = async (ok: boolean) => {
      for (let i = 0; commits.length === 0; i += 1) {
        if (i > 1_000) throw new Error('no commit waiting');
        await new Promise((r) => setImmediate(r));
      }
      commits.shift()!.done(ok);
    };
    return { runtime, steppedFrom, settle };
  }

  const items = bets;
  const replies = (results: unknown[]) => results.map((r) => (r as { reply: unknown }).reply);
  const macrotask = () => new Promise((r) => setImmediate(r));

  it('takes the step made during the previous commit, when that commit left its state', async () => {
    const t = table();
    await t.runtime.start();
    const next = items('c', 'd');
    const first = t.runtime.submitBatch(items('a', 'b'));
    await macrotask();
    t.runtime.prepareAhead(next); // while a, b commit
    await t.settle(true);
    expect(replies(await first)).toEqual([{ n: 0 }, { n: 1 }]);
    const second = t.runtime.submitBatch(next);
    await t.settle(true);
    expect(replies(await second)).toEqual([{ n: 2 }, { n: 3 }]);
    // Stepped once each: the second batch on the state the first left, before it committed.
    expect(t.steppedFrom).toEqual([0, 2]);
    await t.runtime.stop();
  });

  it('keeps that step when the answers looked up ahead meanwhile saw only other commands', async () => {
    const t = table();
    await t.runtime.start();
    const next = items('c', 'd');
    const first = t.runtime.submitBatch(items('a', 'b'));
    await macrotask();
    t.runtime.prepareAhead(next); // its lookup sees a, b committed after it began
    await t.settle(true);
    await first;
    const second = t.runtime.submitBatch(next);
    await t.settle(true);
    expect(replies(await second)).toEqual([{ n: 2 }, { n: 3 }]);
    expect(t.steppedFrom).toEqual([0, 2]);
    await t.runtime.stop();
  });

  it('steps the next batch again on the committed state when the previous commit failed', async () => {
    const t = table();
    await t.runtime.start();
    const next = items('c', 'd');
    const first = t.runtime.submitBatch(items('a', 'b'));
    await macrotask();
    t.runtime.prepareAhead(next);
    await t.settle(false);
    await expect(first).rejects.toThrow('database gone');
    const second = t.runtime.submitBatch(next);
    await t.settle(true);
    // Not the answers computed on the state a, b would have left.
    expect(replies(await second)).toEqual([{ n: 0 }, { n: 1 }]);
    expect(t.steppedFrom).toEqual([0, 2, 0]);
    await t.runtime.stop();
  });

  it('steps a batch again when it is not the one stepped ahead', async () => {
    const t = table();
    await t.runtime.start();
    const first = t.runtime.submitBatch(items('a'));
    await macrotask();
    t.runtime.prepareAhead(items('b'));
    await t.settle(true);
    await first;
    const other = t.runtime.submitBatch(items('b')); // equal, but not the items stepped ahead
    await t.settle(true);
    expect(replies(await other)).toEqual([{ n: 1 }]);
    expect(t.steppedFrom).toEqual([0, 1, 1]);
    await t.runtime.stop();
  });
});
