import type { TableDefinition } from '../config/tables-config';
import { createGameAdapter } from '../games/game-registry';
import { TableMachine, TableState } from '../table-core/table-machine';
import type { TableRuntime } from './table-runtime';
import { tableRunSettings } from './table-settings';

/** A table's rules, built once per configured table (pure: no I/O, no state). */
const machines = new WeakMap<TableDefinition, TableMachine>();

/**
 * A table driven by another instance, as its owner last stored it: enough for the views (the same
 * `tableView` and hidden-information rules as for a table driven here), nothing to drive it with.
 */
export function storedTableRuntime(
  table: TableDefinition,
  state: TableState,
): Pick<TableRuntime, 'snapshot' | 'machine'> {
  let machine = machines.get(table);
  if (!machine) {
    const settings = tableRunSettings(table);
    // Every configured game has an adapter (the game registry is total over the four games).
    machine = new TableMachine(settings, createGameAdapter(settings)!);
    machines.set(table, machine);
  }
  return { snapshot: state, machine };
}

/** What marks a view built from the stored state: `driven` keeps meaning "driven here". */
export const DRIVEN_ELSEWHERE = { driven: false, drivenElsewhere: true } as const;
