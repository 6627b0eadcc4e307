import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
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
export type RegistrationOutcome = 'registered' | 'reconfigured' | 'unchanged';

/** Where table registrations are kept (the history's table registry). */
export interface TableRegistryStore {
  /** Writes the table's row and its TableRegistered event in one transaction, when changed. */
  register(
    table: TableDefinition,
    configurationHash: string,
    now: Date,
    eventId: string,
  ): Promise<RegistrationOutcome>;
  /**
   * Rounds still in progress at tables not among `configured` that no instance holds the lease
   * of: left open when a table was taken out of the tables file mid-round.
   */
  roundsLeftOpen?(configured: readonly string[]): Promise<OpenRoundElsewhere[]>;
}

export interface OpenRoundElsewhere {
  tableId: string;
  roundId: string;
  bets: number;
}

export class RegisterConfiguredTables {
  private readonly logger = new Logger('RegisterConfiguredTables');

  constructor(
    private readonly registry: TableRegistryStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(tables: readonly TableDefinition[]): Promise<TableRegistration[]> {
    const results: TableRegistration[] = [];
    for (const table of tables) {
      results.push(await this.registerOne(table));
    }
    await this.warnOfRoundsLeftOpen(tables.map((t) => t.id));
    return results;
  }

  /**
   * A table taken out of the tables file mid-round keeps its round open in the database, its
   * players' bets neither settled nor refunded, and no console shows it (the table is unknown to
   * every route, so nobody can void the round). Nothing said so: it is said at every start now.
   */
  private async warnOfRoundsLeftOpen(configured: readonly string[]): Promise<void> {
    const open = (await this.registry.roundsLeftOpen?.(configured)) ?? [];
    for (const round of open) {
      this.logger.warn(
        `Table ${round.tableId} is not in TABLES_FILE, yet its round ${round.roundId} is still in ` +
          `progress (${round.bets} bet${round.bets === 1 ? '' : 's'}) and no instance drives it: ` +
          `its bets stay open until the table is configured again, to finish or void the round`,
      );
    }
  }

  /**
   * When this instance starts driving a table: if the registered configuration is no longer this
   * instance's (another instance registered its own since), the instances' table files disagree.
   * Said loudly, and this instance's settings, the ones now in force, are registered, so the
   * table's row and the TableRegistered event platforms read match the table as it is played.
   */
  async confirmDriven(table: TableDefinition): Promise<TableRegistration> {
    const result = await this.registerOne(table);
    if (result.outcome === 'reconfigured') {
      this.logger.error(
        `Table ${table.id} was registered with a different configuration by another instance: ` +
          `the instances' table files (TABLES_FILE) disagree; this instance drives it with its own ` +
          `settings and registered them. Make every instance's file the same.`,
      );
    }
    return result;
  }

  private async registerOne(table: TableDefinition): Promise<TableRegistration> {
    const outcome = await this.registry.register(
      table,
      hashConfiguration(table),
      this.clock.now(),
      this.ids.newId(),
    );
    if (outcome !== 'unchanged') this.logger.log(`Table ${table.id} ${outcome}`);
    return { tableId: table.id, outcome };
  }
}

/** Canonical JSON (sorted keys) so that key order in the file does not count as a change. */
export function hashConfiguration(table: TableDefinition): string {
  return createHash('sha256').update(canonicalJson(table)).digest('hex');
}
