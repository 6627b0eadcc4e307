import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TableLease, TableLeaseRepository } from '../database/table-lease.repository';
import { TableOwnership } from './table-ownership';

/** Leases held in memory; renewing takes as long as the test says. */
function leasesTaking(renewMs: () => number) {
  const lease = (tableId: string): TableLease => ({
    tableId,
    owner: 'me',
    epoch: 1,
    expiresAt: new Date(0),
  });
  return {
    tryAcquire: async (tableId: string) => lease(tableId),
    renewAll: async (held: readonly TableLease[]) => {
      await sleep(renewMs());
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
