import { formatNotice, LatestVersions, parseNotice } from './table-change-notices';

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
});
