import type { DataSource } from 'typeorm';
import type { MachineOutcome, TableState } from '../../table-core/table-machine';
import type { TableLease } from '../../database/table-lease.repository';
import type { ReadingRecord } from '../scanner-history.repository';
import { GroupCommitOptions, GroupCommitter } from './group-commit';
import {
  CommandRecord,
  CommandsAnsweredBeforeError,
  placeAnswers,
  ProcessedCommandsRepository,
} from './processed-commands.repository';
import { RoundEventsRepository } from './round-events.repository';
import { StoredTableState, TableStateRepository } from './table-state.repository';
import { readingRow, TransitionCall } from './transition-call';
import {
  CallResult,
  ChainMovedError,
  sentAlone,
  TransitionCallRepository,
} from './transition-call.repository';

export interface CommitContext {
  lease: TableLease;
  expectedVersion: number;
  /** The state stored at expectedVersion: given, only what changed since is written. */
  previous?: TableState;
  occurredAt: Date;
  newId(): string;
  /** Idempotency records of the commands this transition answers (none for readings, timers). */
  commands?: CommandRecord[];
  /**
   * The reading this transition applies when it is not stored yet (its id in the state machine's
   * input is UNSTORED_READING): its row is written in the transition's own commit.
   */
  reading?: ReadingRecord;
  /**
   * The commands' ids were not looked up before they were stepped: the commit looks them up and,
   * when any was answered before, writes nothing (CommandsAnsweredBeforeError with their answers).
   */
  lookUpAnswers?: boolean;
}

/** What the writer works with: the state's storage plan, the chain heads, the answers, the call. */
export interface HistoryRepositories {
  tableState: TableStateRepository;
  events: RoundEventsRepository;
  commands: ProcessedCommandsRepository;
  call: TransitionCallRepository;
}

/**
 * Two calls out at once (the database has the machine's two cores), up to 32 transitions each
 * (under PostgreSQL's 64 cached subtransactions per backend).
 */
const GROUP_COMMIT: GroupCommitOptions = { maxInFlight: 2, maxGroup: 32 };

/** Where the answers go, when the transition writes command rows or answers (else undefined). */
function withCommands(writes: MachineOutcome['writes'], ctx: CommitContext) {
  const commands = ctx.commands ?? [];
  if (commands.length === 0 && writes.bets.length === 0 && writes.decisions.length === 0) {
    return undefined;
  }
  return placeAnswers(writes, commands);
}

/**
 * Writes one table transition in one transaction: the lease fence, the new table state, the
 * history rows, the hash-chained round events with the outbox rows for the public ones, and the
 * answers to the commands it applied, all by one call of the transition functions
 * (transition-call.repository.ts). Nothing is announced before this commits, and a crash before
 * the commit leaves no trace of the transition.
 */
export class TransitionWriter {
  /** Transitions of tables ready together share one commit. */
  private readonly group: GroupCommitter<TransitionCall, CallResult>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly repos: HistoryRepositories,
    groupCommit: GroupCommitOptions = GROUP_COMMIT,
  ) {
    this.group = new GroupCommitter(repos.call.sender, (c) => c.lease.tableId, groupCommit);
  }

  /** The table's stored state; what this instance remembered of its event chain is dropped. */
  load(tableId: string): Promise<StoredTableState | undefined> {
    this.repos.events.forget(tableId);
    return this.repos.tableState.load(tableId);
  }

  findCommands(commandIds: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
    return this.repos.commands.find(commandIds);
  }

  /**
   * The answers to commands that changed nothing, kept for idempotent repeats. With
   * `lookUpAnswers`, as for a commit (CommitContext).
   */
  recordCommands(
    tableId: string,
    commands: readonly CommandRecord[],
    at: Date,
    lookUpAnswers = false,
  ): Promise<void> {
    return this.repos.commands.recordAlone(tableId, commands, at, lookUpAnswers);
  }

  /**
   * Commits the transition; returns the table state's new version. One round trip, shared with
   * the other tables' transitions ready at the same time (group commit) unless it goes alone
   * (sentAlone).
   */
  async commit(outcome: MachineOutcome, ctx: CommitContext): Promise<number> {
    const tableId = outcome.state.tableId;
    try {
      try {
        return await this.send(outcome, ctx);
      } catch (error) {
        if (!(error instanceof ChainMovedError)) throw error;
        // The remembered head was stale (nothing was written): chain to the stored one.
        this.repos.events.forget(tableId);
        return await this.send(outcome, ctx);
      }
    } catch (error) {
      // Answered before: nothing was written, the chain is where it was.
      if (!(error instanceof CommandsAnsweredBeforeError)) this.repos.events.forget(tableId);
      throw error;
    }
  }

  private async send(outcome: MachineOutcome, ctx: CommitContext): Promise<number> {
    const { state, writes } = outcome;
    const tableId = state.tableId;
    const r = this.repos;
    const plan = r.tableState.plan(state, ctx.expectedVersion, ctx.previous);
    const prev = await r.events.head(this.dataSource, tableId);
    const chained = r.events.chain(tableId, writes.events, ctx.occurredAt, prev);
    const call: TransitionCall = {
      lease: ctx.lease,
      expectedVersion: ctx.expectedVersion,
      at: ctx.occurredAt,
      state:
        plan.mode === 'snapshot'
          ? { mode: 'snapshot', json: JSON.stringify(state) }
          : { mode: 'delta', json: JSON.stringify(plan.delta) },
      writes,
      reading: ctx.reading ? readingRow(ctx.reading, writes) : undefined,
      prev,
      events: chained.rows,
      outbox: r.events.outboxRecords(chained.rows, ctx.occurredAt, ctx.newId),
      answers: withCommands(writes, ctx),
      lookUpAnswers: ctx.lookUpAnswers,
    };
    const { version } = sentAlone(call) ? await r.call.commit(call) : await this.group.submit(call);
    if (plan.mode === 'snapshot') r.tableState.snapshotCommitted(tableId, version);
    r.events.remember(tableId, chained.head);
    return version;
  }
}

/** The writer and its repositories over one data source. */
export function createTransitionWriter(
  dataSource: DataSource,
  topicPrefix: string,
  groupCommit?: GroupCommitOptions,
): TransitionWriter {
  const repos: HistoryRepositories = {
    tableState: new TableStateRepository(dataSource),
    events: new RoundEventsRepository(topicPrefix),
    commands: new ProcessedCommandsRepository(dataSource),
    call: new TransitionCallRepository(dataSource),
  };
  return new TransitionWriter(dataSource, repos, groupCommit);
}
