import { gapReason, TakeoverGuard } from './takeover-check';

describe('a takeover judged by frame numbers', () => {
  it('lets a first frame that continues or repeats the stored one pass', () => {
    expect(gapReason(90, 91)).toBeUndefined();
    expect(gapReason(90, 90)).toBeUndefined();
    expect(gapReason(99_999, 0)).toBeUndefined();
  });

  it('names the frames sent while no instance drove the table', () => {
    expect(gapReason(90, 94)).toMatch(/^Frames 91–93 were sent while no instance drove the table/);
    expect(gapReason(90, 92)).toMatch(/^Frame 91 was sent/);
    expect(gapReason(99_998, 1)).toMatch(/^Frames 99999–0 were sent/);
    expect(gapReason(500, 3)).toMatch(/restarted its numbering/);
  });

  it('waits for the first numbered frame, ignores unnumbered bytes, and judges only once', async () => {
    const guard = new TakeoverGuard('t', 'numbered', { lastFrame: async () => ({ sequence: 7 }) });
    expect(await guard.begin()).toBeUndefined();
    expect(guard.awaitingFirstFrame).toBe(true);
    expect(guard.observe({})).toBeUndefined();
    expect(guard.observe({ sequence: 10 })).toMatch(/^Frames 8–9 were sent/);
    expect(guard.awaitingFirstFrame).toBe(false);
    expect(guard.observe({ sequence: 20 })).toBeUndefined();
  });

  it('pauses at once when nothing can prove that no card was lost', async () => {
    const none = async () => undefined;
    expect(await new TakeoverGuard('t', 'unnumbered').begin()).toMatch(
      /does not number its frames/,
    );
    expect(await new TakeoverGuard('t', 'none').begin()).toMatch(/no card reader/);
    expect(await new TakeoverGuard('t', 'numbered', { lastFrame: none }).begin()).toMatch(
      /no numbered frame of its reader is stored/,
    );
    expect(await new TakeoverGuard('t', 'in-process').begin()).toBeUndefined();
  });

  it('watches a table taken up mid-round after a handover: only a numbered gap pauses it', async () => {
    const stored = { lastFrame: async () => ({ sequence: 41 }) };
    const numbered = new TakeoverGuard('t', 'numbered', stored);
    await numbered.watch();
    expect(numbered.awaitingFirstFrame).toBe(true);
    expect(numbered.observe({ sequence: 45 })).toMatch(/^Frames 42–44 were sent/);
    // Nothing to compare with, or a reader that cannot tell: a handover pauses nothing.
    for (const guard of [
      new TakeoverGuard('t', 'numbered', { lastFrame: async () => undefined }),
      new TakeoverGuard('t', 'unnumbered', stored),
      new TakeoverGuard('t', 'in-process', stored),
      new TakeoverGuard('t', 'none', stored),
    ]) {
      await guard.watch();
      expect(guard.awaitingFirstFrame).toBe(false);
    }
  });
});
