import type { ChainCheckpointPayload } from '@studio/contracts';
import type { Clock, IdGenerator } from '../clock/clock';
import type { ChainCheckpointRepository, ChainHead } from './chain-checkpoint.repository';
import { emptyWrites } from '../table-core/table-writes';
import { CheckpointSchedule, mayEndRound } from './chain-checkpoint-schedule';
import { ChainCheckpointer } from './chain-checkpointer';

const H = (c: string) => c.repeat(64);
const withWrites = (writes: Partial<ReturnType<typeof emptyWrites>>) => ({
  writes: { ...emptyWrites(), ...writes },
});
const ROUND_END = withWrites({ roundStatus: { ended: true } } as never);
const MID_ROUND = withWrites({ roundStatus: { ended: false } } as never);
/** A transition outside any round (a shoe change, a pause): it writes events, no round status. */
const NO_ROUND = withWrites({ events: [{}] } as never);
/** The stored state taken up after a lost commit: announced without writes. */
const TAKEN_UP = withWrites({});

/** An in-memory stand-in for the repository: a settable head, the appended checkpoints. */
class FakeRepository {
  heads = new Map<string, ChainHead>();
  appended: ChainCheckpointPayload[] = [];
  failing = false;
  open = true;
  head(tableId: string): Promise<ChainHead | undefined> {
    if (this.failing) return Promise.reject(new Error('connection refused'));
    return Promise.resolve(this.heads.get(tableId));
  }
  append(_eventId: string, payload: ChainCheckpointPayload): Promise<void> {
    if (this.failing) return Promise.reject(new Error('connection refused'));
    this.appended.push(payload);
    return Promise.resolve();
  }
}

const clock: Clock = { now: () => new Date('2026-11-30T12:00:00.000Z') };
let n = 0;
const ids: IdGenerator = { newId: () => `id-${(n += 1)}` };

function setUp(intervalMs: number, driven = ['t1']) {
  const repo = new FakeRepository();
  const tables = { all: () => driven.map((tableId) => ({ tableId })) };
  const checkpointer = new ChainCheckpointer(
    repo as unknown as ChainCheckpointRepository,
    tables,
    clock,
    ids,
    intervalMs,
  );
  return { repo, checkpointer };
}

const settle = () => jest.advanceTimersByTimeAsync(0);

describe('CheckpointSchedule', () => {
  it('is due only when the head moved since the last published checkpoint', () => {
    const s = new CheckpointSchedule();
    expect(s.due('t1', undefined)).toBe(false); // an empty chain has nothing to anchor
    expect(s.due('t1', { eventNo: 5, hash: H('a') })).toBe(true);
    s.published('t1', { eventNo: 5, hash: H('a') });
    expect(s.due('t1', { eventNo: 5, hash: H('a') })).toBe(false);
    expect(s.due('t1', { eventNo: 6, hash: H('b') })).toBe(true);
    expect(s.due('t1', { eventNo: 5, hash: H('c') })).toBe(true); // same number, other event
    expect(s.due('t2', { eventNo: 5, hash: H('a') })).toBe(true); // tables are separate
    s.forget('t1');
    expect(s.due('t1', { eventNo: 5, hash: H('a') })).toBe(true);
  });

  it('treats a transition that ends a round, or a state taken up after a lost commit, as a round end', () => {
    expect(mayEndRound(ROUND_END)).toBe(true);
    expect(mayEndRound(TAKEN_UP)).toBe(true);
    expect(mayEndRound(MID_ROUND)).toBe(false);
    expect(mayEndRound(NO_ROUND)).toBe(false);
  });
});

describe('ChainCheckpointer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('checkpoints the chain head after a transition that ends a round, not after others', async () => {
    const { repo, checkpointer } = setUp(0);
    repo.heads.set('t1', { eventNo: 9, hash: H('a') });
    checkpointer.onTransition('t1', MID_ROUND);
    checkpointer.onTransition('t1', NO_ROUND);
    await settle();
    expect(repo.appended).toEqual([]);
    checkpointer.onTransition('t1', ROUND_END);
    await settle();
    expect(repo.appended).toEqual([
      { tableId: 't1', eventNo: 9, hash: H('a'), checkpointAt: '2026-11-30T12:00:00.000Z' },
    ]);
  });

  it('checkpoints after a state taken up from a lost commit when the chain grew, once', async () => {
    const { repo, checkpointer } = setUp(0);
    repo.heads.set('t1', { eventNo: 9, hash: H('a') });
    checkpointer.onTransition('t1', ROUND_END);
    await settle();
    // The lost commit ended the next round: its events are stored, its announcement never came.
    repo.heads.set('t1', { eventNo: 14, hash: H('b') });
    checkpointer.onTransition('t1', TAKEN_UP);
    await settle();
    // Taken up again with nothing new (a lost commit that changed nothing): no second checkpoint.
    checkpointer.onTransition('t1', TAKEN_UP);
    await settle();
    expect(repo.appended.map((c) => c.eventNo)).toEqual([9, 14]);
  });

  it('checkpoints on the interval only when the chain grew, and never with interval 0', async () => {
    const { repo, checkpointer } = setUp(60_000);
    repo.heads.set('t1', { eventNo: 3, hash: H('a') });
    checkpointer.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(59_000);
    expect(repo.appended).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(repo.appended.map((c) => c.eventNo)).toEqual([3]);
    await jest.advanceTimersByTimeAsync(120_000); // idle table: no new checkpoint
    expect(repo.appended.map((c) => c.eventNo)).toEqual([3]);
    repo.heads.set('t1', { eventNo: 8, hash: H('b') });
    await jest.advanceTimersByTimeAsync(60_000);
    expect(repo.appended.map((c) => c.eventNo)).toEqual([3, 8]);
    await checkpointer.onModuleDestroy();

    const roundEndOnly = setUp(0);
    roundEndOnly.repo.heads.set('t1', { eventNo: 3, hash: H('a') });
    roundEndOnly.checkpointer.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(600_000);
    expect(roundEndOnly.repo.appended).toHaveLength(0);
  });

  it('survives a database outage without throwing and checkpoints at the next occasion', async () => {
    const { repo, checkpointer } = setUp(1_000);
    repo.heads.set('t1', { eventNo: 4, hash: H('a') });
    repo.failing = true;
    expect(() => checkpointer.onTransition('t1', ROUND_END)).not.toThrow();
    await settle();
    expect(repo.appended).toHaveLength(0);
    repo.failing = false;
    checkpointer.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(repo.appended.map((c) => c.eventNo)).toEqual([4]);
    await checkpointer.onModuleDestroy();
  });

  it('anchors only the tables this instance drives, and nothing once stopped', async () => {
    const { repo, checkpointer } = setUp(1_000, ['t1']);
    repo.heads.set('t1', { eventNo: 2, hash: H('a') });
    repo.heads.set('t2', { eventNo: 7, hash: H('b') });
    checkpointer.onTransition('t2', ROUND_END); // driven elsewhere now
    await settle();
    expect(repo.appended).toHaveLength(0);
    await checkpointer.onModuleDestroy();
    checkpointer.onTransition('t1', ROUND_END);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(repo.appended).toHaveLength(0);
  });
});
