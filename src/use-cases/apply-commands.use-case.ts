import type { BatchItem } from '../tables/table-runtime';
import { TableRuntimeRegistry } from '../tables/table-runtime.registry';
import type { CommandResult } from './table-command';

/**
 * Applies many prepared platform commands (PlaceBet.prepare, Decide.prepare) of one table in
 * the order given, with the answers one-by-one submits would get, in as few transactions as the
 * game allows. The Kafka intake uses it for each batch it reads.
 */
export class ApplyCommands {
  constructor(private readonly tables: TableRuntimeRegistry) {}

  async execute(tableId: string, items: readonly BatchItem[]): Promise<CommandResult[]> {
    if (items.length === 0) return [];
    const lookup = this.tables.get(tableId);
    if (!lookup.ok) {
      return items.map(() => ({ accepted: false, code: lookup.code, message: lookup.message }));
    }
    return lookup.runtime.submitBatch(items);
  }

  /**
   * Looks up the stored answers of commands about to be applied here (see prefetchAnswers) and,
   * given the very items their execute will get, steps them ahead (see stepAhead).
   */
  prefetch(tableId: string, commandIds: readonly string[], items?: readonly BatchItem[]): void {
    const lookup = this.tables.get(tableId);
    if (!lookup.ok) return;
    lookup.runtime.prefetchAnswers(commandIds);
    if (items) lookup.runtime.stepAhead(items);
  }
}
