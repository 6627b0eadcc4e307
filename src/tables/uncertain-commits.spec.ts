import { emptyWrites } from '../table-core/table-writes';
import type { MachineOutcome, TableState } from '../table-core/table-machine';
import { UncertainCommits } from './uncertain-commits';

const state = (n: number, extra: Record<string, unknown> = {}) =>
  ({ tableId: 't1', n, ...extra }) as unknown as TableState;
const attempt = (n: number, extra: Record<string, unknown> = {}): MachineOutcome => ({
  state: state(n, extra),
  writes: { ...emptyWrites(), events: [{ type: 'Counted', payload: { n } }] as never },
});
/** As the database gives a state back: a JSON copy, its keys in another order. */
const stored = (n: number) => JSON.parse(`{"n":${n},"tableId":"t1"}`) as TableState;

describe('UncertainCommits', () => {
  it('names the attempt whose state the stored one is, one version on', () => {
    const uncertain = new UncertainCommits();
    uncertain.failed(7, attempt(1));
    uncertain.failed(7, attempt(2, { note: undefined }));
    expect(uncertain.landed(8, stored(2))?.writes.events).toEqual([
      { type: 'Counted', payload: { n: 2 } },
    ]);
    // Told once: the next look finds nothing.
    expect(uncertain.landed(8, stored(2))).toBeUndefined();
  });

  it('names none when the stored state is none of them, or not one version on', () => {
    const uncertain = new UncertainCommits();
    uncertain.failed(7, attempt(1));
    expect(uncertain.landed(8, stored(3))).toBeUndefined();
    uncertain.failed(7, attempt(1));
    expect(uncertain.landed(9, stored(1))).toBeUndefined();
  });

  it('forgets the attempts on an older version, and after clear', () => {
    const uncertain = new UncertainCommits();
    uncertain.failed(6, attempt(1));
    uncertain.failed(7, attempt(2));
    expect(uncertain.landed(7, stored(1))).toBeUndefined();
    uncertain.failed(7, attempt(2));
    uncertain.clear();
    expect(uncertain.landed(8, stored(2))).toBeUndefined();
  });

  it('keeps the last few attempts of a version only', () => {
    const uncertain = new UncertainCommits();
    for (let n = 1; n <= 10; n += 1) uncertain.failed(7, attempt(n));
    expect(uncertain.landed(8, stored(1))).toBeUndefined();
    for (let n = 1; n <= 10; n += 1) uncertain.failed(7, attempt(n));
    expect(uncertain.landed(8, stored(10))?.state).toMatchObject({ n: 10 });
  });
});
