import { eventHash, GENESIS_HASH } from '../history/event-chain';
import { ChainWalker, StoredChainEvent } from './event-chain-walk';

/** Five chained events of table t-1, as the table state store writes them. */
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
});
