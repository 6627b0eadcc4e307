/** What became of one call of a group: its result or its own error. */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/** Sends calls to the database: one alone, or several in one statement and one commit. */
export interface GroupSender<C, R> {
  one(call: C): Promise<R>;
  /**
   * The calls in one commit, each all-or-nothing on its own: a call that fails settles with its
   * error and leaves nothing behind, the others commit. A rejection means none is known to have
   * committed (the statement failed, or the connection was lost at COMMIT: maybe all did).
   */
  group(calls: readonly C[]): Promise<Array<Settled<R>>>;
}

export interface GroupCommitOptions {
  /** Calls (single or grouped) sent at once; what arrives while they are all out waits. */
  maxInFlight: number;
  /** At most this many calls share one commit. */
  maxGroup: number;
}

interface Pending<C, R> {
  call: C;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit. A call is sent at once while fewer than maxInFlight are out; the calls that arrive
 * meanwhile wait and go together, in one statement and one commit, as soon as one comes back. At
 * a low rate nothing waits; flat out, many tables' transitions share a round trip and a WAL flush
 * instead of each paying its own. A group holds at most one call per key (a table): a table's
 * transitions stay one after the other, in their order.
 */
export class GroupCommitter<C, R> {
  private waiting: Array<Pending<C, R>> = [];
  private inFlight = 0;

  constructor(
    private readonly sender: GroupSender<C, R>,
    private readonly keyOf: (call: C) => string,
    private readonly options: GroupCommitOptions,
  ) {}

  submit(call: C): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ call, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const group = this.take();
      this.inFlight += 1;
      void this.send(group).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  /** The oldest waiting calls, one per key, up to maxGroup; the others wait for the next group. */
  private take(): Array<Pending<C, R>> {
    const keys = new Set<string>();
    const group: Array<Pending<C, R>> = [];
    const rest: Array<Pending<C, R>> = [];
    for (const p of this.waiting) {
      const key = this.keyOf(p.call);
      if (group.length < this.options.maxGroup && !keys.has(key)) {
        keys.add(key);
        group.push(p);
      } else {
        rest.push(p);
      }
    }
    this.waiting = rest;
    return group;
  }

  private async send(group: Array<Pending<C, R>>): Promise<void> {
    if (group.length === 1) {
      const [p] = group;
      await this.sender.one(p.call).then(p.resolve, p.reject);
      return;
    }
    let settled: Array<Settled<R>>;
    try {
      settled = await this.sender.group(group.map((p) => p.call));
    } catch (error) {
      for (const p of group) p.reject(error);
      return;
    }
    group.forEach((p, i) => {
      const s = settled[i];
      if (s?.ok) p.resolve(s.value);
      else p.reject(s ? s.error : new Error('The group commit answered no result for this call'));
    });
  }
}
