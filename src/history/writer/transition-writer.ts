import type { DataSource } from 'typeorm';
import type { MachineOutcome, TableState } from '../../table-core/table-machine';
import type { TableLease } from '../../database/table-lease.repository';
import {
  CommandRecord,
  placeAnswers,
  ProcessedCommandsRepository,
} from './processed-commands.repository';
import type { ReadingRecord } from '../scanner-history.repository';
import {
  ReadingOutcomeRepository,
  readingRow,
  RoundCardsRepository,
} from './round-cards.repository';
import { ChainHead, RoundEventsRepository } from './round-events.repository';
import { ShoesRoundsRepository } from './shoes-rounds.repository';
import { SupervisorActionsRepository } from './supervisor-actions.repository';
import { StoredTableState, TableStateRepository } from './table-state.repository';
import {
  CallResult,
  ChainMovedError,
  TransitionCall,
  TransitionCallRepository,
} from './transition-call.repository';
import { GroupCommitOptions, GroupCommitter } from './group-commit';
import { WagersRepository } from './wagers.repository';

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
}

/** The repositories one transition writes to. */
export interface HistoryRepositories {
  tableState: TableStateRepository;
  shoesRounds: ShoesRoundsRepository;
  cards: RoundCardsRepository;
  wagers: WagersRepository;
  supervisorActions: SupervisorActionsRepository;
  readingOutcomes: ReadingOutcomeRepository;
  events: RoundEventsRepository;
  commands: ProcessedCommandsRepository;
  /** The one-call path (studio_commit_transition). */
  call: TransitionCallRepository;
}

/**
 * Whether one call covers every row of the transition: a card reading's, a timer's, a round
 * start's or end's (up to ONE_CALL_SETTLEMENTS settlements), and a batch of platform commands with
 * their bets, decisions and answers (studio_commit_commands). Supervisor actions and corrections
 * take the statement-by-statement transaction (the consoles' actions), and so does a round end
 * settling many bets.
 */
const ONE_CALL_SETTLEMENTS = 1_000;

function fitsOneCall(outcome: MachineOutcome, ctx: CommitContext): boolean {
  const w = outcome.writes;
  return (
    ctx.expectedVersion > 0 &&
    w.settlements.length <= ONE_CALL_SETTLEMENTS &&
    w.corrections.length === 0 &&
    w.supervisorAction === undefined
  );
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
 * answers to the commands it applied. Nothing is announced before this commits, and a crash
 * before the commit leaves no trace of the transition.
 */
export class TransitionWriter {
  /** Card readings' and timers' transitions of tables ready together share one commit. */
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

  /** The answers to commands that changed nothing, kept for idempotent repeats. */
  recordCommands(tableId: string, commands: readonly CommandRecord[], at: Date): Promise<void> {
    return this.repos.commands.recordAlone(tableId, commands, at);
  }

  /**
   * Commits the transition; returns the table state's new version. A reading's transition (most
   * of them) is one round trip, shared with the other tables' transitions ready at the same time
   * (group commit); the others one transaction of a statement per kind of row.
   */
  async commit(outcome: MachineOutcome, ctx: CommitContext): Promise<number> {
    const tableId = outcome.state.tableId;
    try {
      if (!fitsOneCall(outcome, ctx)) return await this.commitStatements(outcome, ctx);
      try {
        return await this.commitInOneCall(outcome, ctx);
      } catch (error) {
        if (!(error instanceof ChainMovedError)) throw error;
        // The remembered head was stale (nothing was written): chain to the stored one.
        this.repos.events.forget(tableId);
        return await this.commitInOneCall(outcome, ctx);
      }
    } catch (error) {
      this.repos.events.forget(tableId);
      throw error;
    }
  }

  private async commitInOneCall(outcome: MachineOutcome, ctx: CommitContext): Promise<number> {
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
      outbox: r.events.outboxRows(writes.events, ctx.newId),
      answers: withCommands(writes, ctx),
    };
    // A batch of commands goes alone: its answers must come back with its own error codes.
    const { version } = call.answers ? await r.call.commit(call) : await this.group.submit(call);
    if (plan.mode === 'snapshot') r.tableState.snapshotCommitted(tableId, version);
    r.events.remember(tableId, chained.head);
    return version;
  }

  private async commitStatements(outcome: MachineOutcome, ctx: CommitContext): Promise<number> {
    const { state, writes } = outcome;
    const tableId = state.tableId;
    const at = ctx.occurredAt;
    const r = this.repos;
    const answers = placeAnswers(writes, ctx.commands ?? []);
    let head: ChainHead | undefined;
    const version = await this.dataSource.transaction(async (manager) => {
      await r.tableState.assertLease(manager, ctx.lease);
      const version = await r.tableState.write(
        manager,
        state,
        ctx.expectedVersion,
        at,
        ctx.previous,
      );
      const readingId = ctx.reading
        ? await r.readingOutcomes.insert(manager, tableId, ctx.reading, writes)
        : undefined;
      await r.shoesRounds.write(manager, tableId, writes, at);
      await r.cards.write(manager, tableId, writes, at, readingId);
      await r.wagers.write(manager, tableId, writes, at, answers.inRows);
      await r.supervisorActions.write(manager, tableId, writes, at);
      await r.readingOutcomes.write(manager, tableId, writes);
      head = await r.events.append(manager, tableId, writes.events, at, ctx.newId);
      await r.commands.insert(manager, tableId, answers.alone, at);
      return version;
    });
    if (head) r.events.remember(tableId, head);
    return version;
  }
}

/** The writer and its repositories over one data source. */
export function createTransitionWriter(
  dataSource: DataSource,
  tableState: TableStateRepository,
  topicPrefix: string,
  groupCommit?: GroupCommitOptions,
): { writer: TransitionWriter; supervisorActions: SupervisorActionsRepository } {
  const supervisorActions = new SupervisorActionsRepository(dataSource);
  const repos: HistoryRepositories = {
    tableState,
    shoesRounds: new ShoesRoundsRepository(),
    cards: new RoundCardsRepository(),
    wagers: new WagersRepository(),
    supervisorActions,
    readingOutcomes: new ReadingOutcomeRepository(),
    events: new RoundEventsRepository(topicPrefix),
    commands: new ProcessedCommandsRepository(dataSource),
    call: new TransitionCallRepository(dataSource),
  };
  return { writer: new TransitionWriter(dataSource, repos, groupCommit), supervisorActions };
}
