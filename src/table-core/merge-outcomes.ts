import type { MachineOutcome } from './table-input';
import { LIST_WRITES, SINGLE_WRITES, TableWrites } from './table-writes';

/** Whether two transitions' writes can be committed as one (no single write twice). */
export function mergeable(a: TableWrites, b: TableWrites): boolean {
  return SINGLE_WRITES.every((key) => a[key] === undefined || b[key] === undefined);
}

/** `into` (a copy this function made, or undefined for the first) followed by `next`. */
export function mergeOutcomes(
  into: MachineOutcome | undefined,
  next: MachineOutcome,
): MachineOutcome {
  const writes: TableWrites = into ? into.writes : { ...next.writes };
  for (const key of LIST_WRITES) {
    if (!into) (writes[key] as unknown[]) = [...next.writes[key]];
    else (writes[key] as unknown[]).push(...next.writes[key]);
  }
  for (const key of SINGLE_WRITES) {
    if (next.writes[key] !== undefined) Object.assign(writes, { [key]: next.writes[key] });
  }
  return { state: next.state, writes };
}
