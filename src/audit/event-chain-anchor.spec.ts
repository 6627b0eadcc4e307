import {
  anchorFailed,
  BrokenLink,
  ChainCheckpoint,
  checkAgainstCheckpoint,
  latestCheckpoints,
  StoredChain,
} from './event-chain-walk';

const H = (c: string) => c.repeat(64);

const checkpoint = (eventNo: number, hash = H('a'), tableId = 't1'): ChainCheckpoint => ({
  tableId,
  eventNo,
  hash,
  checkpointAt: '2026-11-30T12:00:00.000Z',
});

const intact = (
  verified: number,
  atCheckpoint?: { eventNo: number; hash: string },
): StoredChain => ({
  tableId: 't1',
  verified,
  intact: true,
  ...(atCheckpoint ? { atCheckpoint } : {}),
});

const broken = (eventNo: number): BrokenLink => ({
  tableId: 't1',
  eventNo,
  rowId: '9',
  reason: 'prev-hash-mismatch',
  expected: H('b'),
  found: H('c'),
});

describe('latestCheckpoints', () => {
  it('keeps, per table, the checkpoint furthest along the chain whatever the order read', () => {
    const latest = latestCheckpoints([
      checkpoint(7),
      checkpoint(12, H('b')),
      checkpoint(9),
      checkpoint(3, H('d'), 't2'),
    ]);
    expect(latest.get('t1')).toMatchObject({ eventNo: 12, hash: H('b') });
    expect(latest.get('t2')).toMatchObject({ eventNo: 3 });
    expect(latest.size).toBe(2);
  });
});

describe('checkAgainstCheckpoint', () => {
  it('anchors a chain that holds the checkpointed event with its hash, even when it grew since', () => {
    const v = checkAgainstCheckpoint(intact(20, { eventNo: 12, hash: H('a') }), checkpoint(12));
    expect(v).toMatchObject({ status: 'anchored', tableId: 't1' });
    expect(anchorFailed(v)).toBe(false);
  });

  it('names a tail truncation: where the chain ends, where the checkpoint is, how many are missing', () => {
    const v = checkAgainstCheckpoint(intact(9), checkpoint(12));
    expect(v).toEqual({
      tableId: 't1',
      status: 'truncated',
      checkpoint: checkpoint(12),
      chainEnd: 9,
      missing: 3,
    });
    expect(anchorFailed(v)).toBe(true);
  });

  it('counts every event of a table whose events were all deleted as missing', () => {
    expect(checkAgainstCheckpoint(intact(0), checkpoint(5))).toMatchObject({
      status: 'truncated',
      chainEnd: 0,
      missing: 5,
    });
  });

  it('reports a rewritten checkpointed event (same number, other hash)', () => {
    const v = checkAgainstCheckpoint(intact(12, { eventNo: 12, hash: H('e') }), checkpoint(12));
    expect(v).toMatchObject({ status: 'hash-differs', storedHash: H('e') });
    expect(anchorFailed(v)).toBe(true);
  });

  it('reports a chain that breaks before the checkpoint, though the checkpointed row matches', () => {
    const stored: StoredChain = {
      ...intact(4, { eventNo: 12, hash: H('a') }),
      intact: false,
      firstBrokenLink: broken(5),
    };
    const v = checkAgainstCheckpoint(stored, checkpoint(12));
    expect(v).toMatchObject({ status: 'broken', firstBrokenLink: { eventNo: 5 } });
    expect(anchorFailed(v)).toBe(true);
  });

  it('reports a chain broken by a gap where the checkpointed row is missing as broken', () => {
    const stored: StoredChain = { ...intact(4), intact: false, firstBrokenLink: broken(5) };
    expect(checkAgainstCheckpoint(stored, checkpoint(12)).status).toBe('broken');
  });

  it('leaves a break after the checkpoint to the chain walk: the anchored part is intact', () => {
    const stored: StoredChain = {
      ...intact(14, { eventNo: 12, hash: H('a') }),
      intact: false,
      firstBrokenLink: broken(15),
    };
    expect(checkAgainstCheckpoint(stored, checkpoint(12)).status).toBe('anchored');
  });

  it('says a table without any published checkpoint is not anchored, which is no finding', () => {
    const v = checkAgainstCheckpoint(intact(3), undefined);
    expect(v).toEqual({ tableId: 't1', status: 'no-checkpoint', verified: 3 });
    expect(anchorFailed(v)).toBe(false);
  });
});
