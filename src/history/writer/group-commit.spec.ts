import { GroupCommitter, GroupSender, Settled } from './group-commit';

interface Call {
  table: string;
  n: number;
}

/** A sender whose calls stay out until the test answers them. */
class FakeSender implements GroupSender<Call, number> {
  readonly sent: Array<{ calls: Call[]; answer(r: Array<Settled<number>> | Error): void }> = [];

  one(call: Call): Promise<number> {
    return this.group([call]).then(([s]) => {
      if (s.ok) return s.value;
      throw s.error;
    });
  }

  group(calls: readonly Call[]): Promise<Array<Settled<number>>> {
    return new Promise((resolve, reject) => {
      this.sent.push({
        calls: [...calls],
        answer: (r) => (r instanceof Error ? reject(r) : resolve(r)),
      });
    });
  }

  private answered = 0;

  /** Answers the oldest call still out. */
  answerNext(r: Array<Settled<number>> | Error): void {
    const next = this.sent[this.answered];
    if (!next) throw new Error('nothing out');
    this.answered += 1;
    next.answer(r);
  }

  /** Answers the oldest call still out: every call committed, as its n. */
  commitNext(): void {
    this.answerNext((this.sent[this.answered]?.calls ?? []).map((c) => ({ ok: true, value: c.n })));
  }
}

const flush = () => new Promise((r) => setImmediate(r));

function committer(sender: FakeSender, maxInFlight = 1, maxGroup = 32) {
  return new GroupCommitter<Call, number>(sender, (c) => c.table, { maxInFlight, maxGroup });
}

describe('GroupCommitter', () => {
  it('sends a call at once while nothing is out, and the calls queued meanwhile as one group', async () => {
    const sender = new FakeSender();
    const group = committer(sender);
    const a = group.submit({ table: 'a', n: 1 });
    const later = ['b', 'c', 'd'].map((table, i) => group.submit({ table, n: 2 + i }));
    expect(sender.sent.map((s) => s.calls.map((c) => c.table))).toEqual([['a']]);

    sender.commitNext();
    await expect(a).resolves.toBe(1);
    await flush();
    expect(sender.sent.map((s) => s.calls.map((c) => c.table))).toEqual([['a'], ['b', 'c', 'd']]);
    sender.commitNext();
    await expect(Promise.all(later)).resolves.toEqual([2, 3, 4]);
  });

  it('keeps one call per table in a group, in order, and at most maxGroup calls', async () => {
    const sender = new FakeSender();
    const group = committer(sender, 1, 2);
    const results = [
      group.submit({ table: 'a', n: 1 }),
      group.submit({ table: 'a', n: 2 }),
      group.submit({ table: 'b', n: 3 }),
      group.submit({ table: 'a', n: 4 }),
      group.submit({ table: 'c', n: 5 }),
    ];
    for (let i = 0; i < 3; i += 1) {
      sender.commitNext();
      await flush();
    }
    expect(sender.sent.map((s) => s.calls.map((c) => c.n))).toEqual([[1], [2, 3], [4, 5]]);
    await expect(Promise.all(results)).resolves.toEqual([1, 2, 3, 4, 5]);
  });

  it('rejects every call of a group whose statement failed', async () => {
    const sender = new FakeSender();
    const group = committer(sender);
    const first = group.submit({ table: 'a', n: 1 });
    const grouped = ['b', 'c', 'd'].map((table, i) => group.submit({ table, n: 2 + i }));
    sender.commitNext();
    await first;
    await flush();
    const lost = new Error('connection lost');
    sender.answerNext(lost);
    for (const g of grouped) await expect(g).rejects.toBe(lost);
    // The committer goes on: the next call is sent.
    const next = group.submit({ table: 'b', n: 5 });
    sender.commitNext();
    await expect(next).resolves.toBe(5);
  });

  it('settles each call of a group on its own: a fenced table fails, the others commit', async () => {
    const sender = new FakeSender();
    const group = committer(sender);
    const first = group.submit({ table: 'a', n: 1 });
    const [b, c, d] = ['b', 'c', 'd'].map((table, i) => group.submit({ table, n: 2 + i }));
    sender.commitNext();
    await first;
    await flush();
    const fenced = new Error('lease of table c lost');
    sender.answerNext([
      { ok: true, value: 2 },
      { ok: false, error: fenced },
      { ok: true, value: 4 },
    ]);
    await expect(b).resolves.toBe(2);
    await expect(c).rejects.toBe(fenced);
    await expect(d).resolves.toBe(4);
  });

  it('sends up to maxInFlight calls at once before grouping', async () => {
    const sender = new FakeSender();
    const group = committer(sender, 2);
    const all = ['a', 'b', 'c', 'd'].map((table, n) => group.submit({ table, n }));
    expect(sender.sent.map((s) => s.calls.map((c) => c.table))).toEqual([['a'], ['b']]);
    sender.commitNext();
    await flush();
    expect(sender.sent.map((s) => s.calls.map((c) => c.table))).toEqual([['a'], ['b'], ['c', 'd']]);
    sender.commitNext();
    sender.commitNext();
    await expect(Promise.all(all)).resolves.toEqual([0, 1, 2, 3]);
  });
});
