import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RandomUuidGenerator, SystemClock } from '../../src/clock/clock';
import type { TableDefinition } from '../../src/config/tables-config';
import { TableRegistryRepository } from '../../src/history/table-registry.repository';
import {
  hashConfiguration,
  RegisterConfiguredTables,
} from '../../src/tables/register-configured-tables.use-case';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

/** Two instances whose table files disagree, on a real PostgreSQL. */
describe('table registration across instances', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('registration');
    ds = await db.migrated();
  });

  afterAll(async () => {
    await db.drop();
  });

  it('says so when a table is taken over under another configuration, and registers the one in force', async () => {
    const onA: TableDefinition = {
      id: 'pd-1',
      name: 'Pok Deng 1',
      game: 'pok-deng',
      currency: 'THB',
      maxBet: 10_000,
    };
    const onB: TableDefinition = { ...onA, maxBet: 50_000 };
    const repository = new TableRegistryRepository(ds, 'drift');
    const instance = () =>
      new RegisterConfiguredTables(repository, new SystemClock(), new RandomUuidGenerator());
    const a = instance();
    const b = instance();
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const logs = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    try {
      expect(await a.execute([onA])).toEqual([{ tableId: 'pd-1', outcome: 'registered' }]);
      expect(await b.execute([onB])).toEqual([{ tableId: 'pd-1', outcome: 'reconfigured' }]);
      // A takes the table over (B stopped): the registered settings are B's, not those A plays by.
      expect(await a.confirmDriven(onA)).toEqual({ tableId: 'pd-1', outcome: 'reconfigured' });
      expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringContaining('table files (TABLES_FILE) disagree'),
      ]);
      const stored = await ds.query(
        `SELECT configuration_hash FROM studio_tables WHERE id = 'pd-1'`,
      );
      expect(stored[0].configuration_hash).toBe(hashConfiguration(onA));
      // Platforms were told each time (TableRegistered in the outbox, in order).
      const events = await ds.query(
        `SELECT payload->>'reason' AS reason, payload->>'configurationHash' AS hash
           FROM outbox WHERE type = 'TableRegistered' ORDER BY id`,
      );
      expect(events).toEqual([
        { reason: 'new', hash: hashConfiguration(onA) },
        { reason: 'configuration-changed', hash: hashConfiguration(onB) },
        { reason: 'configuration-changed', hash: hashConfiguration(onA) },
      ]);
      // The same configuration again: nothing written, nothing said.
      expect(await a.confirmDriven(onA)).toEqual({ tableId: 'pd-1', outcome: 'unchanged' });
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      errors.mockRestore();
      logs.mockRestore();
    }
  });
});
