import { emptyWrites } from '../../src/table-core/table-writes';
import { TableRuntime } from '../../src/tables/table-runtime';
import type { BatchItem } from '../../src/use-cases/common/tables.port';

type Answer = Record<string, unknown>;

/** What a counting table's writer does with lookups and commits (the test's part). */
export interface CountingTableWriter {
  findCommands(ids: readonly string[]): Promise<Map<string, Answer>>;
  commit(outcome: { state: { n: number } }, ctx: never): Promise<number>;
  /** Answers of commands that changed nothing (all refused); by default kept nowhere. */
  recordCommands?(
    tableId: string,
    commands: never,
    at: Date,
    lookUpAnswers?: boolean,
  ): Promise<void>;
}

/**
 * A table runtime for unit tests of the batch path: its state is a counter `n` between rounds,
 * each accepted command adds one (its reply is the `n` it was applied at), a command of type
 * `refuse` is refused and changes nothing, and the writer's lookups and commits are the test's.
 * `steppedFrom` gets the `n` of every machine step.
 */
export function countingTable(writer: CountingTableWriter, steppedFrom: number[] = []) {
  const store = {
    load: async () => ({
      version: 1,
      state: { tableId: 't1', phase: { kind: 'between-rounds' }, timers: [], ingestion: {}, n: 0 },
    }),
    findCommands: (ids: readonly string[]) => writer.findCommands(ids),
    recordCommands: (tableId: string, commands: never, at: Date, lookUpAnswers?: boolean) =>
      writer.recordCommands?.(tableId, commands, at, lookUpAnswers) ?? Promise.resolve(),
    commit: (outcome: { state: { n: number } }, ctx: never) => writer.commit(outcome, ctx),
  };
  const machine = {
    settings: { tableId: 't1' },
    expected: () => null,
    step: (state: unknown) => ({ state, writes: emptyWrites() }),
    stepCommands: (state: { n: number }, inputs: ReadonlyArray<{ type: string }>) => {
      steppedFrom.push(state.n);
      let n = state.n;
      const results = inputs.map((input) =>
        input.type === 'refuse'
          ? { accepted: false, code: 'refused', message: 'refused' }
          : { accepted: true, reply: { n: n++ } },
      );
      // Nothing accepted: the same state, no writes (the runtime then only records answers).
      const next = n === state.n ? state : { ...state, n };
      return { outcome: { state: next, writes: emptyWrites() }, results };
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

/** Commands of this type with these command ids, as the intake hands them to a table. */
const commands =
  (type: string) =>
  (...ids: string[]): BatchItem[] =>
    ids.map((commandId) => ({
      input: { type } as never,
      meta: { commandId, kind: type === 'refuse' ? 'refused' : 'place-bet' },
    }));

/** Bets with these command ids, as the intake hands them to a table. */
export const bets = commands('bet');

/** Commands with these ids that the counting table refuses (they change nothing). */
export const refused = commands('refuse');

/**
 * What a store does with a commit or record that looks its commands up itself (lookUpAnswers)
 * when one of them is stored: it writes nothing and rejects with the stored answers.
 */
export function answeredBeforeError(
  stored: ReadonlyMap<string, Answer>,
  ids: readonly string[],
): Error | undefined {
  const answers = new Map(ids.flatMap((id) => (stored.has(id) ? [[id, stored.get(id)!]] : [])));
  if (answers.size === 0) return undefined;
  return Object.assign(new Error('answered before'), {
    name: 'CommandsAnsweredBeforeError',
    answers,
  });
}
