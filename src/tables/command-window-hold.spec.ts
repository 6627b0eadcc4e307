import { Logger } from '@nestjs/common';
import type { Clock } from '../clock/clock';
import type { TableInput, TableState } from '../table-core/table-machine';
import { CommandWindowHold } from './command-window-hold';
import { TableTimers } from './table-timers';

/** A clock that reads jest's fake time. */
const fakeClock: Clock = { now: () => new Date(Date.now()) };

describe('command windows held open while a dead instance’s commands wait', () => {
  beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2026, 11, 3, 1, 0, 0) }));
  afterEach(() => jest.useRealTimers());

  /** Timers for a state holding these deadlines, and what they submitted. */
  function timersFor(
    pending: Array<{ name: string; dueInMs: number }>,
    hold: CommandWindowHold,
  ): { fired: string[]; timers: TableTimers } {
    const fired: string[] = [];
    const state = {
      timers: pending.map((t, i) => ({
        name: t.name,
        token: i + 1,
        dueAt: Date.now() + t.dueInMs,
      })),
    } as unknown as TableState;
    const timers = new TableTimers(
      async (input: TableInput) => {
        if (input.type === 'timer') fired.push(`${input.name}@${Date.now() % 100_000}`);
      },
      () => state,
      fakeClock,
      new Logger('test'),
      () => hold.heldUntil(),
    );
    timers.reconcile();
    return { fired, timers };
  }

  it('closes a window on time when no instance is gone', () => {
    const hold = new CommandWindowHold(fakeClock, 8_000);
    const { fired, timers } = timersFor([{ name: 'betting', dueInMs: 3_000 }], hold);
    jest.advanceTimersByTime(3_000);
    expect(fired).toEqual(['betting@3000']);
    timers.stop();
  });

  it('keeps betting, insurance and decision windows open until the hold ends, and nothing else', () => {
    const hold = new CommandWindowHold(fakeClock, 8_000);
    const { fired, timers } = timersFor(
      [
        { name: 'betting', dueInMs: 3_000 },
        { name: 'decision', dueInMs: 4_000 },
        { name: 'insurance', dueInMs: 12_000 },
        { name: 'next-round', dueInMs: 2_000 },
      ],
      hold,
    );
    jest.advanceTimersByTime(1_000);
    hold.instanceGone();
    jest.advanceTimersByTime(8_000 - 1);
    expect(fired).toEqual(['next-round@2000']);
    jest.advanceTimersByTime(1);
    expect([...fired].sort()).toEqual(['betting@9000', 'decision@9000', 'next-round@2000']);
    // A window due after the hold is not moved.
    jest.advanceTimersByTime(3_000);
    expect(fired.slice(3)).toEqual(['insurance@12000']);
    timers.stop();
  });

  it('never holds without a consumer group to wait for', () => {
    const hold = new CommandWindowHold(fakeClock, 0);
    const { fired, timers } = timersFor([{ name: 'betting', dueInMs: 3_000 }], hold);
    hold.instanceGone();
    jest.advanceTimersByTime(3_000);
    expect(fired).toEqual(['betting@3000']);
    timers.stop();
  });

  it('keeps windows open while the consumer group rebalances, and five seconds after it rejoined', () => {
    const hold = new CommandWindowHold(fakeClock, 8_000);
    const { fired, timers } = timersFor([{ name: 'betting', dueInMs: 3_000 }], hold);
    jest.advanceTimersByTime(2_000);
    hold.intakeRebalancing();
    jest.advanceTimersByTime(2_000);
    expect(fired).toEqual([]);
    hold.intakeRejoined();
    jest.advanceTimersByTime(4_750);
    expect(fired).toEqual([]);
    // Looked at every 250 ms: closed within that of the rejoin's five seconds.
    jest.advanceTimersByTime(500);
    expect(fired).toEqual(['betting@9000']);
    timers.stop();
  });

  it('holds windows after a join it was not told of (a member the group dropped, or a first join)', () => {
    const hold = new CommandWindowHold(fakeClock, 8_000);
    const { fired, timers } = timersFor([{ name: 'betting', dueInMs: 3_000 }], hold);
    jest.advanceTimersByTime(2_000);
    hold.intakeRejoined();
    jest.advanceTimersByTime(4_750);
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(500);
    expect(fired).toEqual(['betting@7000']);
    timers.stop();
  });

  it('holds a join begun after an earlier one that never finished as long as a fresh one', () => {
    const hold = new CommandWindowHold(fakeClock, 8_000);
    // The first join never finished (the brokers went away); its hold ran out long ago.
    hold.intakeRebalancing();
    jest.advanceTimersByTime(20_000);
    const { fired, timers } = timersFor([{ name: 'betting', dueInMs: 3_000 }], hold);
    hold.intakeRebalancing();
    jest.advanceTimersByTime(7_999);
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(250);
    expect(fired).toEqual(['betting@28000']);
    timers.stop();
  });

  it('holds a rebalance that never ends no longer than the session timeout allows', () => {
    const hold = new CommandWindowHold(fakeClock, 8_000);
    const { fired, timers } = timersFor([{ name: 'decision', dueInMs: 1_000 }], hold);
    hold.intakeRebalancing();
    jest.advanceTimersByTime(7_999);
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(250);
    expect(fired).toEqual(['decision@8000']);
    timers.stop();
  });

  it('keeps windows open while the intake waits for the database, and three seconds after it applied', () => {
    const hold = new CommandWindowHold(fakeClock, 8_000);
    const { fired, timers } = timersFor([{ name: 'betting', dueInMs: 3_000 }], hold);
    jest.advanceTimersByTime(1_000);
    // The intake's tries while the database is away: each one keeps the hold going.
    hold.intakeWaitsForDatabase();
    jest.advanceTimersByTime(5_000);
    hold.intakeWaitsForDatabase();
    jest.advanceTimersByTime(5_000);
    expect(fired).toEqual([]);
    hold.intakeApplied();
    jest.advanceTimersByTime(2_750);
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(500);
    expect(fired).toEqual(['betting@14000']);
    timers.stop();
  });

  it('lets a window close once the intake has not tried for as long as the hold lasts', () => {
    const hold = new CommandWindowHold(fakeClock, 8_000);
    const { fired, timers } = timersFor([{ name: 'betting', dueInMs: 3_000 }], hold);
    hold.intakeWaitsForDatabase();
    jest.advanceTimersByTime(7_999);
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(250);
    expect(fired).toEqual(['betting@8000']);
    // An applied batch after that holds nothing it did not wait for.
    hold.intakeApplied();
    expect(hold.heldUntil()).toBeLessThanOrEqual(Date.now() + 3_000);
    timers.stop();
  });

  it('holds nothing for a batch applied without a failure before it', () => {
    const hold = new CommandWindowHold(fakeClock, 8_000);
    hold.intakeApplied();
    expect(hold.heldUntil()).toBe(0);
  });
});
