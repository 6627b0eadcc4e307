import { CommandTopicWatcher } from './command-intake-topics';

describe('command topic watcher', () => {
  const pattern = /^studio\.platform\.([a-z0-9-]+)\.commands\.v2$/;

  it("subscribes again when a new platform's commands topic appears, and only then", async () => {
    let existing = ['studio.platform.a.commands.v2', 'studio.platform.a.events.v2', 'other'];
    const resubscribed: string[][] = [];
    const watcher = new CommandTopicWatcher(
      { topics: ['studio.platform-commands.v1'], pattern, refreshMs: 1_000 },
      async () => existing,
      async (_all, added) => {
        resubscribed.push(added);
      },
    );
    expect(await watcher.initial()).toEqual([
      'studio.platform-commands.v1',
      'studio.platform.a.commands.v2',
    ]);
    expect(await watcher.check()).toEqual([]);
    existing = [...existing, 'studio.platform.b.commands.v2', 'studio.platform.b.results.v2'];
    expect(await watcher.check()).toEqual(['studio.platform.b.commands.v2']);
    expect(await watcher.check()).toEqual([]);
    expect(resubscribed).toEqual([['studio.platform.b.commands.v2']]);
  });

  it('tries a failed subscription again at the next check', async () => {
    let fail = true;
    const watcher = new CommandTopicWatcher(
      { topics: [], pattern, refreshMs: 1_000 },
      async () => ['studio.platform.c.commands.v2'],
      async () => {
        if (fail) throw new Error('broker away');
      },
    );
    await watcher.initial().then(() => undefined);
    // initial() saw c already; a watcher started before c existed is what matters here:
    const late = new CommandTopicWatcher(
      { topics: [], pattern, refreshMs: 1_000 },
      (() => {
        let calls = 0;
        return async () => (calls++ === 0 ? [] : ['studio.platform.c.commands.v2']);
      })(),
      async () => {
        if (fail) throw new Error('broker away');
      },
    );
    expect(await late.initial()).toEqual([]);
    await expect(late.check()).rejects.toThrow('broker away');
    fail = false;
    expect(await late.check()).toEqual(['studio.platform.c.commands.v2']);
    expect(watcher).toBeDefined();
  });
});
