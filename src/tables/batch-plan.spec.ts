import { planBatch, withoutAnswered } from './batch-plan';
import { bets } from '../../test/support/counting-table';

describe('withoutAnswered', () => {
  const stored = { accepted: true, reply: { n: 7 } };

  it('answers every unanswered occurrence of an answered id and keeps the rest to step', () => {
    const items = bets('a', 'b', 'c', 'b');
    const { results, fresh } = planBatch(items, new Map());
    expect(fresh).toEqual([0, 1, 2]);
    results[0] = { accepted: true, reply: { n: 0 } }; // committed in an earlier chunk
    const left = withoutAnswered(items, fresh, 1, new Map([['b', stored]]), results);
    expect(left).toEqual([0, 2]);
    expect(results[1]).toEqual({ ...stored, duplicate: true });
    expect(results[3]).toEqual({ ...stored, duplicate: true });
    expect(results[2]).toBeUndefined();
  });

  it('keeps the answer of a command committed earlier in the batch', () => {
    const items = bets('a', 'b');
    const { results, fresh } = planBatch(items, new Map());
    results[0] = { accepted: true, reply: { n: 0 } };
    const left = withoutAnswered(
      items,
      fresh,
      1,
      new Map([
        ['a', stored],
        ['b', stored],
      ]),
      results,
    );
    expect(left).toEqual([0]);
    expect(results[0]).toEqual({ accepted: true, reply: { n: 0 } });
  });

  it('refuses answers that remove nothing (the batch would be stepped again for ever)', () => {
    const items = bets('a', 'b');
    const { results, fresh } = planBatch(items, new Map());
    expect(() => withoutAnswered(items, fresh, 0, new Map([['z', stored]]), results)).toThrow(
      /does not hold/,
    );
  });
});
