import { emptyWrites } from '../../src/table-core/table-writes';
import { TableRuntime } from '../../src/tables/table-runtime';
import type { BatchItem } from '../../src/use-cases/common/tables.port';

/** What a counting table's writer does with lookups and commits (the test's part). */
export interface CountingTableWriter {
  findCommands(ids: readonly string[]): Promise<Map<string, Record<string, unknown>>>;
  commit(outcome: { state: { n: number } }, ctx: never): Promise<number>;
}

/**
 * A table runtime for unit tests of the batch path: its state is a counter `n` between rounds,
 * each accepted command adds one (its reply is the `n` it was applied at), and the writer's
 * lookups and commits are the test's. `steppedFrom` gets the `n` of every machine step.
 */
export function countingTable(writer: CountingTableWriter, steppedFrom: number[] = []) {
  const store = {
    load: async () => ({
      version: 1,
      state: { tableId: 't1', phase: { kind: 'between-rounds' }, timers: [], ingestion: {}, n: 0 },
    }),
    findCommands: (ids: readonly string[]) => writer.findCommands(ids),
    recordCommands: async () => undefined,
    commit: (outcome: { state: { n: number } }, ctx: never) => writer.commit(outcome, ctx),
  };
  const machine = {
    settings: { tableId: 't1' },
    expected: () => null,
    step: (state: unknown) => ({ state, writes: emptyWrites() }),
    stepCommands: (state: { n: number }, inputs: readonly unknown[]) => {
      steppedFrom.push(state.n);
      return {
        outcome: { state: { ...state, n: state.n + inputs.length }, writes: emptyWrites() },
        results: inputs.map((_, k) => ({ accepted: true, reply: { n: state.n + k } })),
      };
    },
  };
  return new TableRuntime(machine as never, {
    store: store as never,
    readings: { record: () => undefined },
    lease: { tableId: 't1', epoch: 1, handedOver: true },
    clock: { now: () => new Date(0) },
    ids: { newId: () => 'id' },
    listeners: [],
    deckCount: 1,
  });
}

/** Bets with these command ids, as the intake hands them to a table. */
export const bets = (...ids: string[]): BatchItem[] =>
  ids.map((commandId) => ({
    input: { type: 'bet' } as never,
    meta: { commandId, kind: 'place-bet' },
  }));
