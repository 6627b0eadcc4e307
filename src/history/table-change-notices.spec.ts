import {
  formatNotice,
  LatestVersions,
  parseNotice,
  TableChangeNotices,
} from './table-change-notices';

describe('table change notices', () => {
  it('round-trips a notice through its short payload, table ids with colons included', () => {
    expect(formatNotice({ tableId: 'pd-1', version: 42, kind: 'state' })).toBe('pd-1:42:state');
    expect(parseNotice('pd-1:42:state')).toEqual({ tableId: 'pd-1', version: 42, kind: 'state' });
    expect(parseNotice(formatNotice({ tableId: 'a:b', kind: 'action' }))).toEqual({
      tableId: 'a:b',
      version: undefined,
      kind: 'action',
    });
  });

  it('rejects payloads it does not understand', () => {
    for (const payload of [
      undefined,
      '',
      'pd-1',
      'pd-1:42:teleport',
      ':4:state',
      'pd-1:-3:state',
    ]) {
      expect(parseNotice(payload)).toBeUndefined();
    }
    expect(parseNotice('pd-1:1.5:state')).toBeUndefined();
  });

  it('accepts each table’s versions only in increasing order', () => {
    const latest = new LatestVersions();
    expect(latest.mayBeNewer('t1', 3)).toBe(true);
    expect(latest.accept('t1', 3)).toBe(true);
    expect(latest.accept('t1', 3)).toBe(false);
    expect(latest.accept('t1', 2)).toBe(false);
    expect(latest.mayBeNewer('t1', 3)).toBe(false);
    expect(latest.mayBeNewer('t1', undefined)).toBe(true);
    expect(latest.accept('t2', 1)).toBe(true); // per table
    expect(latest.accept('t1', 4)).toBe(true);
  });

  it('sends one statement at a time, the notices that arrived meanwhile together, latest first', async () => {
    const sent: string[][] = [];
    let release: () => void = () => undefined;
    const sender = {
      listen: async () => undefined,
      close: async () => undefined,
      notify: jest.fn(async (_channel: string, payloads: readonly string[]) => {
        sent.push([...payloads]);
        await new Promise<void>((resolve) => (release = resolve));
      }),
    };
    const notices = new TableChangeNotices({ minIntervalMs: 0 } as never, sender);
    const first = notices.notify({ tableId: 't1', version: 1, kind: 'state' });
    // While the first statement is in flight: t1 twice (the newer replaces the older), t2 once.
    void notices.notify({ tableId: 't1', version: 2, kind: 'state' });
    void notices.notify({ tableId: 't2', version: 7, kind: 'state-action' });
    void notices.notify({ tableId: 't1', version: 3, kind: 'state' });
    release();
    await new Promise((r) => setImmediate(r));
    release();
    await first;
    expect(sent).toEqual([['t1:1:state'], ['t1:3:state', 't2:7:state-action']]);
    expect(sender.notify).toHaveBeenCalledTimes(2);
  });

  it('sends at most one statement per interval: what arrives within it goes out after it, together', async () => {
    const sent: Array<{ at: number; payloads: string[] }> = [];
    const t0 = performance.now();
    const sender = {
      listen: async () => undefined,
      close: async () => undefined,
      notify: jest.fn(async (_channel: string, payloads: readonly string[]) => {
        sent.push({ at: performance.now() - t0, payloads: [...payloads] });
      }),
    };
    const notices = new TableChangeNotices({ minIntervalMs: 100 } as never, sender);
    await notices.notify({ tableId: 't1', version: 1, kind: 'state' }); // quiet before: at once
    expect(sent).toHaveLength(1);
    const later = notices.notify({ tableId: 't1', version: 2, kind: 'state' });
    void notices.notify({ tableId: 't2', version: 5, kind: 'state' });
    void notices.notify({ tableId: 't1', version: 3, kind: 'state' });
    await later;
    expect(sent.map((s) => s.payloads)).toEqual([['t1:1:state'], ['t1:3:state', 't2:5:state']]);
    expect(sent[1].at - sent[0].at).toBeGreaterThanOrEqual(95);
    // After a quiet spell longer than the interval, the next notice goes out at once again.
    await new Promise((r) => setTimeout(r, 120));
    const before = performance.now() - t0;
    await notices.notify({ tableId: 't3', version: 1, kind: 'action' });
    expect(sent[2].at - before).toBeLessThan(50);
  });
});
