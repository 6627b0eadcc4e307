import { Logger } from '@nestjs/common';
import type { Clock } from '../clock/clock';
import type { TableInput, TableState } from '../table-core/table-machine';
import { CommandBacklog, CommandCatchUp, PartitionEnds } from './command-catch-up';
import { TableTimers } from './table-timers';

/** A clock that reads jest's fake time. */
const fakeClock: Clock = { now: () => new Date(Date.now()) };

/** A group whose committed offset the test moves; its partition's end moves with what is sent. */
class FakeBacklog implements CommandBacklog {
  end = 10n;
  committed = 10n;
  failing = false;
  asked = 0;

  async ends(): Promise<PartitionEnds> {
    if (this.failing) throw new Error('brokers away');
    return new Map([['commands:0', { start: 0n, end: this.end }]]);
  }

  async consumedTo(ends: PartitionEnds): Promise<boolean> {
    this.asked += 1;
    if (this.failing) throw new Error('brokers away');
    return this.committed >= ends.get('commands:0')!.end;
  }
}

describe('command windows after a join wait for the group to catch up', () => {
  beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2026, 11, 3, 1, 0, 0) }));
  afterEach(() => jest.useRealTimers());

  function setUp(holdMs = 10_000) {
    const backlog = new FakeBacklog();
    const catchUp = new CommandCatchUp(fakeClock, holdMs);
    const inbox = new Set<string>();
    catchUp.watch(backlog, { waiting: (tableId) => inbox.has(tableId) });
    const fired: string[] = [];
    const state = {
      timers: [
        { name: 'betting', token: 1, dueAt: Date.now() + 3_000 },
        { name: 'next-round', token: 2, dueAt: Date.now() + 3_000 },
      ],
    } as unknown as { timers: Array<{ name: string; token: number }> };
    const timers = new TableTimers(
      async (input: TableInput) => {
        if (input.type !== 'timer') return;
        fired.push(`${input.name}@${Date.now() % 100_000}`);
        // Committed: the state no longer holds the timer.
        state.timers = state.timers.filter((t) => t.token !== input.token);
      },
      () => state as unknown as TableState,
      fakeClock,
      new Logger('test'),
      () => 0,
      catchUp.forTable('t1'),
    );
    return { backlog, catchUp, fired, timers, state, inbox };
  }

  it('closes on time when no join happened, without asking the brokers', async () => {
    const { backlog, fired, timers } = setUp();
    timers.reconcile();
    await jest.advanceTimersByTimeAsync(3_000);
    expect(fired.sort()).toEqual(['betting@3000', 'next-round@3000']);
    expect(backlog.asked).toBe(0);
    timers.stop();
  });

  it('after a join, closes a command window once the group committed past its deadline’s end', async () => {
    const { backlog, catchUp, fired, timers } = setUp();
    catchUp.joined();
    timers.reconcile();
    // A bet sent before the deadline, not yet applied by the member that reads its partition.
    backlog.end = 11n;
    await jest.advanceTimersByTimeAsync(3_000);
    expect(fired).toEqual(['next-round@3000']);
    // Sent after the deadline: not waited for.
    backlog.end = 12n;
    await jest.advanceTimersByTimeAsync(1_000);
    timers.reconcile(); // a state change meanwhile must not close the window early
    expect(fired).toEqual(['next-round@3000']);
    backlog.committed = 11n;
    await jest.advanceTimersByTimeAsync(250);
    expect(fired).toEqual(['next-round@3000', 'betting@4250']);
    timers.stop();
  });

  it('then waits for the commands forwarded to the table’s inbox to be applied', async () => {
    const { backlog, catchUp, fired, timers, inbox } = setUp();
    catchUp.joined();
    timers.reconcile();
    backlog.end = 11n;
    // Read by another instance: stored in this table's inbox (committed), its drain under way.
    backlog.committed = 11n;
    inbox.add('t1');
    inbox.add('t2');
    await jest.advanceTimersByTimeAsync(3_000 + 500);
    expect(fired).toEqual(['next-round@3000']);
    inbox.delete('t1'); // another table's inbox is not this window's business
    await jest.advanceTimersByTimeAsync(25);
    expect(fired).toEqual(['next-round@3000', 'betting@3525']);
    timers.stop();
  });

  it('waits no longer than the hold, and not at all once the hold after the join is over', async () => {
    const { backlog, catchUp, fired, timers } = setUp(5_000);
    catchUp.joined();
    timers.reconcile();
    backlog.end = 11n; // never applied
    await jest.advanceTimersByTimeAsync(3_000 + 4_999);
    expect(fired).toEqual(['next-round@3000']);
    await jest.advanceTimersByTimeAsync(250);
    expect(fired).toEqual(['next-round@3000', 'betting@8000']);
    // 8 s after the join, a window closes on time.
    expect(catchUp.pending()).toBe(false);
    timers.stop();
  });

  it('closes as it would have when the brokers cannot say', async () => {
    const { backlog, catchUp, fired, timers } = setUp();
    catchUp.joined();
    timers.reconcile();
    backlog.end = 11n;
    backlog.failing = true;
    await jest.advanceTimersByTimeAsync(3_000);
    expect(fired.sort()).toEqual(['betting@3000', 'next-round@3000']);
    timers.stop();
  });

  it('closes when the hold is over although the brokers have not answered yet', async () => {
    const { backlog, catchUp, fired, timers } = setUp(5_000);
    catchUp.joined();
    timers.reconcile();
    // kafkajs retrying a broker that is away: the answer comes long after.
    backlog.ends = () => new Promise((resolve) => setTimeout(() => resolve(new Map()), 60_000));
    await jest.advanceTimersByTimeAsync(3_000 + 4_999);
    expect(fired).toEqual(['next-round@3000']);
    await jest.advanceTimersByTimeAsync(1);
    expect(fired).toEqual(['next-round@3000', 'betting@8000']);
    timers.stop();
  });

  it('does not close a window that ended otherwise meanwhile, nor after the timers stopped', async () => {
    const { backlog, catchUp, fired, timers, state } = setUp();
    catchUp.joined();
    timers.reconcile();
    backlog.end = 11n;
    await jest.advanceTimersByTimeAsync(3_000);
    // Every player decided: the state no longer holds the window's timer.
    state.timers = [];
    timers.reconcile();
    backlog.committed = 11n;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(fired).toEqual(['next-round@3000']);
    timers.stop();
  });

  it('holds nothing without a consumer group (hold 0) or before the intake is watched', () => {
    const none = new CommandCatchUp(fakeClock, 0);
    none.watch(new FakeBacklog());
    none.joined();
    expect(none.pending()).toBe(false);
    const unwatched = new CommandCatchUp(fakeClock, 10_000);
    unwatched.joined();
    expect(unwatched.pending()).toBe(false);
  });
});
