import { createHash } from 'node:crypto';
import { ChainedEventFields, eventHash, GENESIS_HASH, hashedText } from '../history/event-chain';
import { ChainWalker, StoredChainEvent } from './event-chain-walk';

/**
 * Five chained events of table t-1, as the table state store writes them: two of before the
 * versioned chain (version 1), three after (version 2, salted).
 */
function chain(): StoredChainEvent[] {
  const out: StoredChainEvent[] = [];
  let prev = GENESIS_HASH;
  for (let n = 1; n <= 5; n += 1) {
    const fields = {
      tableId: 't-1',
      eventNo: n,
      roundId: 'r-1',
      type: n === 5 ? 'BetsSettled' : 'CardDealtFaceDown',
      visibility: 'public',
      payload: { slot: `player-${n}/1`, amount: n * 100 },
      actor: null,
      occurredAt: `2026-11-29T12:00:0${n}.000Z`,
      ...(n <= 2
        ? { chainVersion: 1 as const, salt: null }
        : { chainVersion: 2 as const, salt: String(n).repeat(32) }),
    };
    const hash = eventHash(prev, fields);
    out.push({ ...fields, id: String(100 + n), prevHash: prev, hash });
    prev = hash;
  }
  return out;
}

describe('ChainWalker', () => {
  it('accepts an intact chain, also walked page by page', () => {
    const events = chain();
    const walker = new ChainWalker('t-1');
    expect(walker.walk(events.slice(0, 2))).toBeUndefined();
    expect(walker.walk(events.slice(2))).toBeUndefined();
    expect(walker.checked).toBe(5);
  });

  it('names an edited row by its recomputed hash', () => {
    const events = chain();
    events[2] = { ...events[2], payload: { slot: 'player-3/1', amount: 30_000 } };
    expect(new ChainWalker('t-1').walk(events)).toMatchObject({
      eventNo: 3,
      rowId: '103',
      reason: 'hash-mismatch',
      found: chain()[2].hash,
    });
  });

  it('names the row after a deleted one by the gap in event numbers', () => {
    const events = chain();
    events.splice(1, 1);
    expect(new ChainWalker('t-1').walk(events)).toMatchObject({
      eventNo: 3,
      reason: 'event-number-gap',
      expected: '2',
      found: '3',
    });
  });

  it('names the first of two swapped rows whose numbers were swapped too by its prev_hash', () => {
    const events = chain();
    const [a, b] = [events[1], events[2]];
    events[1] = { ...b, eventNo: 2 };
    events[2] = { ...a, eventNo: 3 };
    expect(new ChainWalker('t-1').walk(events)).toMatchObject({
      eventNo: 2,
      rowId: '103',
      reason: 'prev-hash-mismatch',
      expected: chain()[0].hash,
      found: chain()[1].hash,
    });
  });

  it('names a deleted row whose successors were renumbered by the broken prev_hash link', () => {
    const events = chain();
    events.splice(1, 1);
    events.forEach((e, i) => (e.eventNo = i + 1));
    expect(new ChainWalker('t-1').walk(events)).toMatchObject({
      eventNo: 2,
      rowId: '103',
      reason: 'prev-hash-mismatch',
    });
  });

  it('refuses a version-2 row set back to version 1, and an unknown version', () => {
    const events = chain();
    events[3] = { ...events[3], chainVersion: 1 };
    expect(new ChainWalker('t-1').walk(events)).toMatchObject({
      eventNo: 4,
      reason: 'chain-version',
      found: '1',
    });
    const unknown = chain();
    unknown[0] = { ...unknown[0], chainVersion: 3 as 2 };
    expect(new ChainWalker('t-1').walk(unknown)).toMatchObject({
      eventNo: 1,
      reason: 'chain-version',
    });
  });

  it('names an edited salt by the recomputed hash', () => {
    const events = chain();
    events[2] = { ...events[2], salt: 'f'.repeat(32) };
    expect(new ChainWalker('t-1').walk(events)).toMatchObject({
      eventNo: 3,
      reason: 'hash-mismatch',
    });
  });
});

describe('the hashed text (docs/chain.md)', () => {
  const event: ChainedEventFields = {
    tableId: 'pd-1',
    eventNo: 7,
    roundId: null,
    type: 'VoidRequested',
    visibility: 'public',
    payload: { reason: 'é\u2028<"x">', b: [1.5, -0, 1e21, true], a: { z: null, é: 1, A: 2 } },
    actor: 'sup',
    occurredAt: '2026-12-01T10:00:00.000Z',
    chainVersion: 2,
    salt: '0123456789abcdef0123456789abcdef',
  };

  it('version 2 is RFC 8785: keys sorted by UTF-16 code units, shortest numbers, minimal escapes', () => {
    expect(hashedText(event)).toBe(
      '{"actor":"sup","chainVersion":2,"eventNo":7,"occurredAt":"2026-12-01T10:00:00.000Z",' +
        '"payload":{"a":{"A":2,"z":null,"é":1},"b":[1.5,0,1e+21,true],"reason":"é\u2028<\\"x\\">"},' +
        '"roundId":null,"salt":"0123456789abcdef0123456789abcdef","tableId":"pd-1",' +
        '"type":"VoidRequested","visibility":"public"}',
    );
  });

  it('the hash is sha256 over the previous hash, a newline and that text, in UTF-8', () => {
    const prev = 'ab'.repeat(32);
    const expected = createHash('sha256')
      .update(Buffer.from(`${prev}\n${hashedText(event)}`, 'utf8'))
      .digest('hex');
    expect(eventHash(prev, event)).toBe(expected);
    expect(eventHash(prev, { ...event, chainVersion: 1, salt: null })).not.toBe(expected);
  });

  it('gives the hash of the example in docs/chain.md (computed there by tools/verify_chain.py)', () => {
    const example = {
      ...event,
      payload: { reason: 'é<"x">', b: [1.5, -0, 1e21, true], a: { z: null, é: 1, A: 2 } },
    };
    expect(eventHash('ab'.repeat(32), example)).toBe(
      '367108008e244ea9778168c17e0fd29899e1482ef1d1549cacbddd672a5098ba',
    );
  });
});
