import { Logger } from '@nestjs/common';
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

  it('says once that looking failed while the brokers stay away, however many ticks wait', async () => {
    jest.useFakeTimers();
    const warnings: string[] = [];
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation((m: unknown) => {
      warnings.push(String(m));
    });
    jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    try {
      let answer: (() => void) | undefined;
      const watcher = new CommandTopicWatcher(
        { topics: [], pattern, refreshMs: 100 },
        // A broker away: the look hangs until its timeout, then fails.
        () => new Promise((_ok, fail) => (answer = () => fail(new Error('broker away')))),
        async () => undefined,
      );
      watcher.start();
      await jest.advanceTimersByTimeAsync(1_050); // ten ticks while the first look hangs
      answer!();
      await jest.advanceTimersByTimeAsync(350); // three more looks, each failing at once
      answer!();
      await jest.advanceTimersByTimeAsync(0);
      watcher.stop();
      expect(warnings).toEqual(["Looking for new platforms' command topics failed: broker away"]);
    } finally {
      warn.mockRestore();
      jest.restoreAllMocks();
      jest.useRealTimers();
    }
  });
});
