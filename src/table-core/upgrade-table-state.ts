import type { PauseInfo, RoundState, RunningPhase, TablePhase, TableState } from './table-state';

/** The shape the first version stored: the phase implied by nullable fields. */
interface TableStateV1 extends Omit<TableState, 'schema' | 'phase'> {
  round: Omit<RoundState, 'voidRequests'> | null;
  paused: PauseInfo | null;
}

/**
 * A state read from `table_state` as the current shape. States stored by the previous version
 * (no `schema`) declare their phase from what their nullable fields implied; void requests of
 * that version lived outside the state, so their rounds start with none.
 */
export function upgradeTableState(raw: unknown): TableState {
  const stored = raw as Partial<TableState> & Partial<TableStateV1>;
  if (stored.schema === 2) return stored as TableState;
  const { round, paused, ...rest } = stored as TableStateV1;
  const running: RunningPhase = round
    ? { kind: 'in-round', round: { ...round, voidRequests: [] } }
    : rest.shoe
      ? { kind: 'between-rounds' }
      : { kind: 'awaiting-shoe' };
  const phase: TablePhase = paused ? { kind: 'paused', pause: paused, resumes: running } : running;
  return { ...rest, schema: 2, phase };
}
