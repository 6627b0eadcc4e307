import { Logger } from '@nestjs/common';
import {
  TABLE_REGISTERED,
  TABLE_REGISTERED_SCHEMA_VERSION,
  TableRegisteredPayload,
  topicName,
} from '@studio/contracts';
import { appendTableEvents, StudioTableEntity } from '@studio/persistence';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock, IdGenerator } from '../clock/clock';
import { canonicalJson } from '../common/canonical-json';
import type { TableDefinition } from '../config/tables-config';

export interface TableRegistration {
  tableId: string;
  outcome: 'registered' | 'reconfigured' | 'unchanged';
}

/**
 * Makes the database agree with the configured tables. A new table, or one whose configuration
 * changed, gets its row written and a TableRegistered event in the outbox in the same transaction;
 * an unchanged table writes nothing, so restarts do not flood platforms with repeats.
 */
export class RegisterConfiguredTables {
  private readonly logger = new Logger('RegisterConfiguredTables');

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly topicPrefix: string,
  ) {}

  async execute(tables: readonly TableDefinition[]): Promise<TableRegistration[]> {
    const results: TableRegistration[] = [];
    for (const table of tables) {
      results.push(await this.registerOne(table));
    }
    return results;
  }

  private async registerOne(table: TableDefinition): Promise<TableRegistration> {
    const configurationHash = hashConfiguration(table);
    const outcome = await this.dataSource.transaction(async (manager) => {
      // Serialises two instances registering the same new table (no row to lock yet).
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`table:${table.id}`]);
      const repo = manager.getRepository(StudioTableEntity);
      const now = this.clock.now();
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
          eventId: this.ids.newId(),
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
    if (outcome !== 'unchanged') this.logger.log(`Table ${table.id} ${outcome}`);
    return { tableId: table.id, outcome };
  }
}

/** Canonical JSON (sorted keys) so that key order in the file does not count as a change. */
export function hashConfiguration(table: TableDefinition): string {
  return createHash('sha256').update(canonicalJson(table)).digest('hex');
}
