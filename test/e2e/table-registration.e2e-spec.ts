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

  it('says at start-up which rounds were left open at tables taken out of the tables file', async () => {
    const table = (id: string): TableDefinition => ({
      id,
      name: id,
      game: 'pok-deng',
      currency: 'THB',
    });
    const register = new RegisterConfiguredTables(
      new TableRegistryRepository(ds, 'left-open'),
      new SystemClock(),
      new RandomUuidGenerator(),
    );
    const logs = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      await register.execute([table('kept-1'), table('gone-1'), table('moved-1')]);
      const round = async (tableId: string, id: string) =>
        ds.query(
          `INSERT INTO rounds (id, table_id, shoe_number, round_number, game, status, phase, started_at)
           VALUES ($1, $2, 1, 1, 'pok-deng', 'in-progress', 'betting', now())`,
          [id, tableId],
        );
      await round('gone-1', '00000000-0000-4000-8000-000000000001');
      await round('moved-1', '00000000-0000-4000-8000-000000000002');
      await round('kept-1', '00000000-0000-4000-8000-000000000003');
      for (const [betId, player] of [
        ['left-1', 'p1'],
        ['left-2', 'p2'],
      ]) {
        await ds.query(
          `INSERT INTO bets (id, round_id, table_id, player_id, bet_type, amount, deducted, currency, status, placed_at)
           VALUES ($1, '00000000-0000-4000-8000-000000000001', 'gone-1', $2, 'player', 1000, 2000, 'THB', 'accepted', now())`,
          [betId, player],
        );
      }
      // moved-1 is driven by an instance whose file still lists it (a rolling change of the file).
      await ds.query(
        `INSERT INTO table_leases (table_id, owner, epoch, acquired_at, renewed_at, expires_at, released)
         VALUES ('moved-1', 'other-instance', 1, now(), now(), now() + interval '1 minute', false)`,
      );
      warnings.mockClear();
      // The file now lists kept-1 only; before, nothing was said of gone-1's open round.
      await register.execute([table('kept-1')]);
      expect(warnings.mock.calls.map((c) => String(c[0]))).toEqual([
        'Table gone-1 is not in TABLES_FILE, yet its round 00000000-0000-4000-8000-000000000001 is ' +
          'still in progress (2 bets) and no instance drives it: its bets stay open until the table ' +
          'is configured again, to finish or void the round',
      ]);
    } finally {
      logs.mockRestore();
      warnings.mockRestore();
    }
  });
});
