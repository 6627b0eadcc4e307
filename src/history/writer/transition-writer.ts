import type { DataSource } from 'typeorm';
import type { MachineOutcome, TableState } from '../../table-core/table-machine';
import type { TableLease } from '../../database/table-lease.repository';
import {
  CommandRecord,
  placeAnswers,
  ProcessedCommandsRepository,
} from './processed-commands.repository';
import { ReadingOutcomeRepository, RoundCardsRepository } from './round-cards.repository';
import { RoundEventsRepository } from './round-events.repository';
import { ShoesRoundsRepository } from './shoes-rounds.repository';
import { SupervisorActionsRepository } from './supervisor-actions.repository';
import { StoredTableState, TableStateRepository } from './table-state.repository';
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
}

/**
 * Writes one table transition in one transaction: the lease fence, the new table state, the
 * history rows, the hash-chained round events with the outbox rows for the public ones, and the
 * answers to the commands it applied. Nothing is announced before this commits, and a crash
 * before the commit leaves no trace of the transition.
 */
export class TransitionWriter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repos: HistoryRepositories,
  ) {}

  load(tableId: string): Promise<StoredTableState | undefined> {
    return this.repos.tableState.load(tableId);
  }

  findCommands(commandIds: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
    return this.repos.commands.find(commandIds);
  }

  /** The answers to commands that changed nothing, kept for idempotent repeats. */
  recordCommands(tableId: string, commands: readonly CommandRecord[], at: Date): Promise<void> {
    return this.repos.commands.recordAlone(tableId, commands, at);
  }

  /** Commits the transition; returns the table state's new version. */
  commit(outcome: MachineOutcome, ctx: CommitContext): Promise<number> {
    const { state, writes } = outcome;
    const tableId = state.tableId;
    const at = ctx.occurredAt;
    const r = this.repos;
    const answers = placeAnswers(writes, ctx.commands ?? []);
    return this.dataSource.transaction(async (manager) => {
      await r.tableState.assertLease(manager, ctx.lease);
      const version = await r.tableState.write(
        manager,
        state,
        ctx.expectedVersion,
        at,
        ctx.previous,
      );
      await r.shoesRounds.write(manager, tableId, writes, at);
      await r.cards.write(manager, tableId, writes, at);
      await r.wagers.write(manager, tableId, writes, at, answers.inRows);
      await r.supervisorActions.write(manager, tableId, writes, at);
      await r.readingOutcomes.write(manager, tableId, writes);
      await r.events.append(manager, tableId, writes.events, at, ctx.newId);
      await r.commands.insert(manager, tableId, answers.alone, at);
      return version;
    });
  }
}

/** The writer and its repositories over one data source. */
export function createTransitionWriter(
  dataSource: DataSource,
  tableState: TableStateRepository,
  topicPrefix: string,
): { writer: TransitionWriter; supervisorActions: SupervisorActionsRepository } {
  const supervisorActions = new SupervisorActionsRepository(dataSource);
  const writer = new TransitionWriter(dataSource, {
    tableState,
    shoesRounds: new ShoesRoundsRepository(),
    cards: new RoundCardsRepository(),
    wagers: new WagersRepository(),
    supervisorActions,
    readingOutcomes: new ReadingOutcomeRepository(),
    events: new RoundEventsRepository(topicPrefix),
    commands: new ProcessedCommandsRepository(dataSource),
  });
  return { writer, supervisorActions };
}
