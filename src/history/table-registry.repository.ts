import {
  TABLE_REGISTERED,
  TABLE_REGISTERED_SCHEMA_VERSION,
  TableRegisteredPayload,
  topicName,
} from '@studio/contracts';
import { StudioTableEntity } from '@studio/persistence';
import { appendTableEvents } from '../outbox/outbox-writer';
import type { DataSource } from 'typeorm';
import type { TableDefinition } from '../config/tables-config';

export type RegistrationOutcome = 'registered' | 'reconfigured' | 'unchanged';

/**
 * The registered tables: a new or changed table's row and its TableRegistered event in the outbox,
 * written in one transaction; an unchanged table writes nothing.
 */
export class TableRegistryRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly topicPrefix: string,
  ) {}

  /** In-progress rounds of tables not configured here whose lease no instance holds. */
  roundsLeftOpen(
    configured: readonly string[],
  ): Promise<Array<{ tableId: string; roundId: string; bets: number }>> {
    return this.dataSource.query(
      `SELECT r.table_id AS "tableId", r.id AS "roundId",
              (SELECT count(*) FROM bets b WHERE b.round_id = r.id)::int AS bets
         FROM rounds r
        WHERE r.status = 'in-progress' AND NOT (r.table_id = ANY($1::text[]))
          AND NOT EXISTS (SELECT 1 FROM table_leases l
                           WHERE l.table_id = r.table_id AND NOT l.released AND l.expires_at > now())
        ORDER BY r.table_id, r.started_at`,
      [configured],
    );
  }

  register(
    table: TableDefinition,
    configurationHash: string,
    now: Date,
    eventId: string,
  ): Promise<RegistrationOutcome> {
    return this.dataSource.transaction(async (manager) => {
      // Serialises two instances registering the same new table (no row to lock yet).
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`table:${table.id}`]);
      const repo = manager.getRepository(StudioTableEntity);
      const existing = await repo.findOne({
        where: { id: table.id },
        lock: { mode: 'pessimistic_write' },
      });
      if (existing && existing.configurationHash === configurationHash) return 'unchanged';
      if (existing && existing.game !== table.game) {
        // A table's game is part of its identity: its history would stop making sense.
        throw new Error(
          `Table "${table.id}" is registered as ${existing.game} and cannot become ${table.game}; use a new table id`,
        );
      }
      const row = existing ?? repo.create({ id: table.id, registeredAt: now, lastEventSeq: 0 });
      row.name = table.name;
      row.game = table.game;
      row.currency = table.currency;
      row.configuration = { ...table };
      row.configurationHash = configurationHash;
      row.updatedAt = now;
      await repo.save(row);
      const payload: TableRegisteredPayload = {
        tableId: table.id,
        name: table.name,
        game: table.game,
        currency: table.currency,
        reason: existing ? 'configuration-changed' : 'new',
        configurationHash,
      };
      await appendTableEvents(manager, [
        {
          eventId,
          topic: topicName('tableEvents', this.topicPrefix),
          tableId: table.id,
          type: TABLE_REGISTERED,
          schemaVersion: TABLE_REGISTERED_SCHEMA_VERSION,
          occurredAt: now,
          payload,
        },
      ]);
      return existing ? 'reconfigured' : 'registered';
    });
  }
}
