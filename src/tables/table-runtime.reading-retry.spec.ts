import { emptyWrites } from '../table-core/table-writes';
import { TableRuntime, TransitionListener } from './table-runtime';

/**
 * A card read while the database is out is not lost: the runtime holds it and commits it once the
 * database answers again, exactly once even when a commit landed but its answer did not.
 */
describe('TableRuntime readings through a database outage', () => {
  type State = {
    tableId: string;
    phase: { kind: string };
    timers: [];
    ingestion: { lastRead?: { code: string | null; at: number } };
    n: number;
  };
  const initial: State = {
    tableId: 't1',
    phase: { kind: 'between-rounds' },
    timers: [],
    ingestion: {},
    n: 0,
  };
  const unreachable = () =>
    Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

  // Every runtime is stopped, even after a failed expectation (its timers would keep jest running).
  const runtimes: TableRuntime[] = [];
  afterEach(async () => {
    for (const runtime of runtimes.splice(0)) await runtime.stop();
  });

  type Verdict = 'ok' | 'refused' | 'landed-unanswered' | Error;

  /** The commits after the start answer with `verdicts` in turn, then 'ok'. */
  function table(
    verdicts: Verdict[],
    listeners: TransitionListener[] = [],
    loadsInOutage = true,
    waitListeners: Array<(tableId: string) => void> = [],
  ) {
    let stored = { version: 1, state: initial };
    const recordedAlone: unknown[] = [];
    const pending = [...verdicts];
    let started = false;
    const store = {
      load: async () => {
        // Out with the database: a read fails like the commits (when the test says so).
        if (started && !loadsInOutage && pending[0] === 'refused') throw unreachable();
        return stored;
      },
      findCommands: async () => new Map(),
      recordCommands: async () => undefined,
      commit: async (outcome: { state: State }, ctx: { expectedVersion: number }) => {
        const verdict = started ? (pending.shift() ?? 'ok') : 'ok';
        if (verdict === 'refused') throw unreachable();
        if (verdict instanceof Error) throw verdict;
        if (ctx.expectedVersion !== stored.version) {
          throw Object.assign(new Error('stale'), { name: 'StaleTableStateError' });
        }
        // As a JSON column gives it back: a copy, not the runtime's own object.
        stored = { version: stored.version + 1, state: JSON.parse(JSON.stringify(outcome.state)) };
        if (verdict === 'landed-unanswered') throw new Error('Connection terminated unexpectedly');
        return stored.version;
      },
    };
    let steps = 0;
    const machine = {
      settings: { tableId: 't1' },
      expected: () => null,
      // Each input counts; a reading is the table's last read, as the ingestion keeps it.
      step: (
        state: State,
        input: { type: string; reading?: { code: string; receivedAt: number } },
      ) => {
        const read = input.reading;
        const ingestion = read
          ? { lastRead: { code: read.code, at: read.receivedAt } }
          : state.ingestion;
        const n = state.n + 1;
        // Each step writes an event naming its count: what a listener is told it wrote. And each
        // attempt's state is its own, as a real one is (its timers are due from its own now).
        const events = [{ type: 'Counted', payload: { n } }];
        const attempt = (steps += 1);
        return { state: { ...state, n, ingestion, attempt }, writes: { ...emptyWrites(), events } };
      },
    };
    const runtime = new TableRuntime(machine as never, {
      store: store as never,
      readings: { record: (r) => recordedAlone.push(r) },
      lease: { tableId: 't1', epoch: 1, handedOver: true },
      clock: { now: () => new Date(0) },
      ids: { newId: () => 'id' },
      listeners,
      waitListeners,
      deckCount: 1,
    });
    runtimes.push(runtime);
    const start = async () => {
      await runtime.start();
      started = true;
    };
    return { runtime, start, recordedAlone, stored: () => stored };
  }

  let received = 0;
  const card = () => ({
    tableId: 't1',
    port: 'p',
    wireFormat: 'w',
    reading: { kind: 'card', code: 'AS', receivedAt: (received += 1) },
    outcome: 'applied',
  });
  let reading = card();
  const submit = (runtime: TableRuntime) => runtime.submitReading((reading = card()) as never);

  it('announces the state it takes up after a commit whose answer was lost, with its writes', async () => {
    // What the listeners saw: a virtual dealer deals the card the announced state expects; the
    // round log and the metrics count what the writes say.
    const seen: number[] = [];
    const written: unknown[] = [];
    const t = table(
      ['landed-unanswered'],
      [
        (_id, o) => seen.push((o.state as never as State).n),
        (_id, o) => written.push(...o.writes.events.map((e) => e.payload)),
      ],
    );
    await t.start(); // n = 1, announced
    await expect(t.runtime.submit({ type: 'tick' } as never)).rejects.toThrow(/terminated/);
    expect(t.stored().state.n).toBe(2); // it landed; nobody was told
    expect(seen).toEqual([1]);
    // The next commit finds the stored version ahead: the table takes that state up, and says so.
    await expect(t.runtime.submit({ type: 'tick' } as never)).rejects.toThrow('stale');
    expect((t.runtime.snapshot as never as State).n).toBe(2);
    expect(seen).toEqual([1, 2]);
    expect(written).toEqual([{ n: 1 }, { n: 2 }]);
    // And goes on from it.
    await expect(t.runtime.submit({ type: 'tick' } as never)).resolves.toMatchObject({
      accepted: true,
    });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('announces a landed reading with its writes after retries that never reached the database', async () => {
    const written: unknown[] = [];
    const t = table(
      ['landed-unanswered', 'refused', 'refused', 'refused', 'refused', 'refused', 'refused'],
      [(_id, o) => written.push(...o.writes.events.map((e) => e.payload))],
      false,
    );
    await t.start(); // n = 1
    expect(await submit(t.runtime)).toEqual({ accepted: true, reply: {} });
    // Applied once (n = 2), and announced with what that commit wrote, not as a bare state.
    expect(t.stored()).toMatchObject({ version: 3, state: { n: 2 } });
    expect(written).toEqual([{ n: 1 }, { n: 2 }]);
    await t.runtime.stop();
  });

  it('commits the reading once the database answers again, and the next one after it', async () => {
    const t = table(['refused', 'refused', 'refused']);
    await t.start(); // n = 1
    const [first, second] = await Promise.all([submit(t.runtime), submit(t.runtime)]);
    expect(first).toEqual({ accepted: true, reply: {} });
    expect(second).toEqual({ accepted: true, reply: {} });
    expect(t.stored().state.n).toBe(3);
    expect(t.recordedAlone).toEqual([]);
    await t.runtime.stop();
  });

  it('says since when and how many card readings wait for the database, and when none does', async () => {
    const waits: unknown[] = [];
    const t = table(['refused', 'refused', 'refused', 'refused'], [], true, [
      () => waits.push(t.runtime.databaseWait),
    ]);
    await t.start();
    expect(t.runtime.databaseWait).toBeNull();
    const first = submit(t.runtime);
    const firstAt = reading.reading.receivedAt;
    await new Promise((r) => setTimeout(r, 20));
    const second = submit(t.runtime);
    const secondAt = reading.reading.receivedAt;
    await new Promise((r) => setTimeout(r, 20));
    expect(t.runtime.databaseWait).toEqual({
      since: new Date(firstAt).toISOString(),
      readings: 2,
    });
    await Promise.all([first, second]);
    expect(t.runtime.databaseWait).toBeNull();
    // Told at each change: one held, two held, the first applied (the second waits), none left.
    expect(waits).toEqual([
      { since: new Date(firstAt).toISOString(), readings: 1 },
      { since: new Date(firstAt).toISOString(), readings: 2 },
      { since: new Date(secondAt).toISOString(), readings: 1 },
      null,
    ]);
    await t.runtime.stop();
  });

  it('refuses other input at once while a reading waits, as the database being unavailable', async () => {
    const t = table(['refused', 'refused', 'refused', 'refused', 'refused']);
    await t.start();
    try {
      let applied = false;
      const waiting = submit(t.runtime).then((answer) => {
        applied = true;
        return answer;
      });
      await new Promise((r) => setTimeout(r, 50));
      await expect(t.runtime.submit({ type: 'pause', by: 'supervisor' } as never)).rejects.toThrow(
        expect.objectContaining({ name: 'TableWaitsForDatabaseError' }),
      );
      await expect(
        t.runtime.submitBatch([{ input: { type: 'bet' }, meta: {} }] as never),
      ).rejects.toThrow(/waits for the database/);
      // Refused while the reading was still held: they did not wait behind it.
      expect(applied).toBe(false);
      expect(await waiting).toEqual({ accepted: true, reply: {} });
      // Applied: other input is taken again.
      await expect(t.runtime.submit({ type: 'pause', by: 'supervisor' } as never)).resolves.toEqual(
        expect.objectContaining({ accepted: true }),
      );
    } finally {
      await t.runtime.stop();
    }
  });

  it('does not apply a reading twice when its commit landed but the answer was lost', async () => {
    const t = table(['landed-unanswered']);
    await t.start();
    expect(await submit(t.runtime)).toEqual({ accepted: true, reply: {} });
    expect(await submit(t.runtime)).toEqual({ accepted: true, reply: {} });
    // Two readings, two increments: the first was not applied again.
    expect(t.stored()).toMatchObject({ version: 4, state: { n: 3 } });
    expect(t.runtime.snapshot).toMatchObject({ n: 3 });
    await t.runtime.stop();
  });

  it('retries through a lease that lapsed in the outage and was kept again', async () => {
    const lapsed = Object.assign(new Error('no longer holds'), { name: 'LeaseLostError' });
    const t = table([lapsed, 'refused', lapsed]);
    await t.start();
    expect(await submit(t.runtime)).toEqual({ accepted: true, reply: {} });
    expect(t.stored().state.n).toBe(2);
    expect(t.recordedAlone).toEqual([]);
    await t.runtime.stop();
  });

  it.each([
    ['its lease was taken', () => Object.assign(new Error('gone'), { name: 'LeaseLostError' })],
    ['the database stays out', unreachable],
  ])('stores a waiting reading alone when the table is let go (%s)', async (_why, failure) => {
    const t = table(Array.from({ length: 1000 }, failure));
    await t.start();
    const waiting = submit(t.runtime);
    await new Promise((r) => setTimeout(r, 300));
    await t.runtime.stop();
    await expect(waiting).rejects.toThrow(/waits for the database/);
    expect(t.recordedAlone).toEqual([reading]);
    expect(t.stored().state.n).toBe(1);
  });
});
