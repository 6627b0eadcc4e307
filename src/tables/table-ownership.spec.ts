import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TableLease, TableLeaseRepository } from '../database/table-lease.repository';
import { TableOwnership } from './table-ownership';

/**
 * Leases held in memory; renewing takes as long as the test says, on a clock of the test's own
 * (performance.now, which the ownership times its renewals with): a loaded machine cannot
 * stretch a renewal the test means to be quick.
 */
function leasesTaking(renewMs: () => number) {
  let now = 0;
  jest.spyOn(performance, 'now').mockImplementation(() => now);
  const lease = (tableId: string): TableLease => ({
    tableId,
    owner: 'me',
    epoch: 1,
    expiresAt: new Date(0),
  });
  return {
    tryAcquire: async (tableId: string) => lease(tableId),
    renewAll: async (held: readonly TableLease[]) => {
      await Promise.resolve();
      now += renewMs();
      return [...held];
    },
  } as unknown as TableLeaseRepository;
}

describe('TableOwnership', () => {
  const listener = { acquired: () => undefined, lost: () => undefined };
  let warnings: string[];

  beforeEach(() => {
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
  });

  afterEach(() => jest.restoreAllMocks());

  it('warns when a renewal takes longer than its interval, since leases then start to lapse', async () => {
    let renewMs = 0;
    const ownership = new TableOwnership(
      leasesTaking(() => renewMs),
      'me',
      ['t1'],
      listener,
      30,
    );
    await ownership.tick();
    await ownership.tick();
    expect(warnings).toEqual([]);

    renewMs = 80;
    await ownership.tick();
    expect(ownership.ownedTables).toEqual(['t1']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Lease renewal took \d+ ms, longer than its 30 ms interval/);
  });
});

describe('TableOwnership when a database outage ends', () => {
  afterEach(() => jest.restoreAllMocks());

  it('says how many tables it kept and how many others took meanwhile', async () => {
    const warnings: string[] = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((m: unknown) => {
      warnings.push(String(m));
    });
    let down = false;
    const leases = {
      tryAcquire: async (tableId: string) => ({
        tableId,
        owner: 'me',
        epoch: 1,
        expiresAt: new Date(0),
      }),
      renewAll: async (held: readonly TableLease[]) => {
        if (down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        return held.filter((l) => l.tableId !== 't2'); // t2 was taken by another instance
      },
      current: async () => null,
    } as unknown as TableLeaseRepository;
    const listener = { acquired: () => undefined, lost: () => undefined };
    const ownership = new TableOwnership(leases, 'me', ['t1', 't2', 't3'], listener, 30);
    await ownership.tick();
    expect(ownership.ownedTables.sort()).toEqual(['t1', 't2', 't3']);
    down = true;
    await ownership.tick();
    down = false;
    await ownership.tick();
    expect(warnings.find((w) => w.startsWith('Database outage'))).toMatch(
      /is over: kept 2 of 3 tables under the same lease epochs; 1 taken by other instances meanwhile$/,
    );
  });
});

describe('TableOwnership after its own liveness session was lost', () => {
  it('takes no other instance’s table until its session is open again and the others had time to renew', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    let lost = false;
    let live = 2;
    const lease = (tableId: string): TableLease => ({
      tableId,
      owner: 'me',
      epoch: 1,
      expiresAt: new Date(0),
    });
    const store = {
      get livenessLost() {
        return lost;
      },
      openLiveness: async () => {
        lost = false;
        return 'open' as const;
      },
      announce: async () => ({ live, mine: true }),
      renewAll: async (held: readonly TableLease[]) => [...held],
      claimable: async (ids: readonly string[]) => [...ids],
      tryAcquire: async (tableId: string) => lease(tableId),
      expireDeadInstances: async () => [],
      release: async () => undefined,
      withdraw: async () => undefined,
      closeLiveness: async () => undefined,
    } as unknown as TableLeaseRepository;
    const ownership = new TableOwnership(
      store,
      'me',
      ['t1', 't2'],
      { acquired: () => undefined, lost: () => undefined },
      60_000,
      { ttlMs: 10_000, canHandOver: () => true, sharedDatabase: true, probeIntervalMs: 60_000 },
    );
    await ownership.start();
    expect(ownership.ownedTables).toEqual(['t1']);

    // An outage: every session is lost, and the other instance's presence looks gone.
    lost = true;
    live = 1;
    await ownership.tick();
    expect(ownership.ownedTables).toEqual(['t1']);
    // Back: this instance's probe opens its session again, then waits for the others to settle.
    await (ownership as unknown as { probe(): Promise<void> }).probe();
    expect(lost).toBe(false);
    await ownership.tick();
    expect(ownership.ownedTables).toEqual(['t1']);
    await sleep(3_100);
    await ownership.tick();
    expect(ownership.ownedTables).toEqual(['t1', 't2']);
    await ownership.stop();
  });
});

describe('TableOwnership when a table cannot start', () => {
  it('gives its lease up instead of holding it with nothing driving the table, and takes it again later', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const released: string[] = [];
    const store = {
      renewAll: async (held: readonly TableLease[]) => [...held],
      tryAcquire: async (tableId: string) => ({
        tableId,
        owner: 'me',
        epoch: 1,
        expiresAt: new Date(0),
      }),
      release: async (lease: TableLease) => void released.push(lease.tableId),
    } as unknown as TableLeaseRepository;
    let failing = true;
    const ownership = new TableOwnership(
      store,
      'me',
      ['t1'],
      {
        acquired: () => {
          if (failing) throw new Error('Connection terminated unexpectedly');
        },
        lost: () => undefined,
      },
      60_000,
    );
    await ownership.tick();
    expect(ownership.ownedTables).toEqual([]);
    expect(released).toEqual(['t1']);
    failing = false;
    await ownership.tick();
    expect(ownership.ownedTables).toEqual(['t1']);
  });
});

describe('TableOwnership on the embedded database', () => {
  it('takes its tables although it opens no liveness session (nobody else can take them)', async () => {
    const store = {
      livenessLost: true, // a session is configured but never opened: there is no one to share with
      announce: async () => ({ live: 1, mine: true }),
      renewAll: async (held: readonly TableLease[]) => [...held],
      tryAcquire: async (tableId: string) => ({
        tableId,
        owner: 'me',
        epoch: 1,
        expiresAt: new Date(0),
      }),
    } as unknown as TableLeaseRepository;
    const ownership = new TableOwnership(
      store,
      'me',
      ['t1', 't2'],
      { acquired: () => undefined, lost: () => undefined },
      60_000,
      { ttlMs: 10_000, canHandOver: () => true, sharedDatabase: false },
    );
    await ownership.tick();
    expect(ownership.ownedTables).toEqual(['t1', 't2']);
  });
});
