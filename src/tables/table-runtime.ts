import { Logger } from '@nestjs/common';
import type { CardCode } from '@studio/cards';
import { cryptoRandomSource, fisherYates } from '@studio/games/blackjack';
import { Clock, IdGenerator } from '../clock/clock';
import {
  isDatabaseUnavailable,
  isLeftByOutage,
  mayHaveCommitted,
} from '../common/database-unavailable';
import { oneLine } from '../common/one-line';
import {
  hasWrites,
  initialTableState,
  MachineOutcome,
  TableInput,
  TableMachine,
  TableState,
} from '../table-core/table-machine';
import type {
  BatchItem,
  CommandMeta,
  CommandResult,
  DrivenTable,
  ReadingRecord,
} from '../use-cases/common/tables.port';
import { AnswerPrefetch } from './answer-prefetch';
import { planBatch, TABLE_STOPPING, withoutAnswered } from './batch-plan';
import { CommandQueue } from './command-queue';
import { commandRecord, replayRepeat, replayStored } from './command-replay';
import {
  answeredBefore,
  CommandRecord,
  ReadingStore,
  TableLeaseFence,
  TransitionStore,
} from './ports';
import { emptyWrites, UNSTORED_READING } from '../table-core/table-writes';
import { currenciesOf } from '../table-core/table-state';
import { DatabaseWait, HeldReadings } from './held-readings';
import { logBatchRejections, logRejection } from './rejection-log';
import { GroupStep, StepAhead } from './step-ahead';
import type { WindowCatchUp } from './command-catch-up';
import { TableTimers } from './table-timers';
import { UncertainCommits } from './uncertain-commits';
import type { TakeoverGuard } from './takeover-check';

/** A reading as the machine takes it: not stored yet (its transition stores it). */
const readingInput = (record: ReadingRecord): TableInput => ({
  type: 'reading',
  readingId: UNSTORED_READING,
  reading: record.reading,
});

/** Where a committed transition is announced (WebSocket consoles, the outbox relay...). */
export interface TransitionListener {
  (tableId: string, outcome: MachineOutcome): void;
}

/** What a table runtime works with besides its machine. */
export interface TableRuntimeDeps {
  store: TransitionStore;
  /** Where the readings no transition stores go. */
  readings: ReadingStore;
  lease: TableLeaseFence;
  clock: Clock;
  ids: IdGenerator;
  listeners: readonly TransitionListener[];
  /** Told when the card readings waiting for the database change (the consoles show them). */
  waitListeners?: ReadonlyArray<(tableId: string) => void>;
  deckCount: number;
  /** Until when (epoch ms) command windows stay open past their deadline (CommandWindowHold). */
  windowsHeldUntil?: () => number;
  /** After a join, what a command window waits for before it closes (CommandCatchUp). */
  windowCatchUp?: WindowCatchUp;
  /** Judges a takeover mid-round by the reader's frame numbers (absent: such a takeover pauses). */
  takeover?: TakeoverGuard;
}

/**
 * The I/O shell of one table: a queue so that no two transitions of the table interleave, the pure
 * TableMachine to compute each transition, the transition store to commit it (fenced by this
 * instance's lease) and only then the timers and the listeners. Readings, supervisor actions and
 * timers enter through submit() and submitReading(); platform commands through submitCommands(),
 * the table's one intake (CommandQueue), which applies them in batches (submitBatch).
 */
export class TableRuntime implements DrivenTable {
  private readonly logger: Logger;
  private queue: Promise<unknown> = Promise.resolve();
  private version = 0;
  private state!: TableState;
  private stopped = false;
  /** Stopping: nothing new is queued, what is queued still runs. */
  private closing = false;
  private readonly timers: TableTimers;
  private readonly prefetched: AnswerPrefetch;
  private readonly uncertain = new UncertainCommits();
  private readonly ahead: StepAhead;
  private readonly commands: CommandQueue;
  private readonly held: HeldReadings;

  constructor(
    readonly machine: TableMachine,
    private readonly deps: TableRuntimeDeps,
  ) {
    this.logger = new Logger(`Table ${machine.settings.tableId}`);
    this.timers = new TableTimers(
      (input) => this.submit(input),
      () => this.state,
      deps.clock,
      this.logger,
      deps.windowsHeldUntil,
      deps.windowCatchUp,
    );
    this.prefetched = new AnswerPrefetch((ids) => deps.store.findCommands(ids));
    this.ahead = new StepAhead((items, group, from) => this.stepGroup(items, group, from));
    this.commands = new CommandQueue((items) => this.submitBatch(items));
    this.held = new HeldReadings({
      tableId: this.tableId,
      inQueue: (work) => this.enqueue(work),
      apply: (record) => this.run(readingInput(record), undefined, record),
      reload: async () => {
        await this.reload();
        return this.state;
      },
      retryable: (error) => this.worthRetrying(error),
      lettingGo: () => this.closing || this.stopped,
      storeAlone: (record) => deps.readings.record(record),
      heldChanged: () => deps.waitListeners?.forEach((notify) => notify(this.tableId)),
      logger: this.logger,
    });
  }

  get tableId(): string {
    return this.machine.settings.tableId;
  }

  /** Card readings waiting for the database (since when, how many); null while none does. */
  get databaseWait(): DatabaseWait | null {
    return this.held.wait;
  }

  get currency(): string {
    return this.machine.settings.currency;
  }

  /** Every currency the table accepts, its default first. */
  get currencies(): readonly string[] {
    return currenciesOf(this.machine.settings);
  }

  /** A read-only snapshot for consoles (callers must not mutate it). */
  get snapshot(): TableState {
    return this.state;
  }

  /**
   * Rebuilds the table from the database. A table taken mid-round without a handover (its last
   * owner died or lost its lease while a card was expected) continues when its reader can prove
   * that no frame was lost (TakeoverGuard: the first frame read continues the stored sequence),
   * and waits paused for a supervisor when it cannot, with what is known as the reason. After a
   * graceful handover every reading received was committed, but a reader that numbers its frames
   * is still watched: frames sent while no instance read it (a restart of the only instance, a
   * handover that took a while) paused nothing before, and the round went on without the cards
   * dealt meanwhile, the next one read filling the wrong place.
   */
  async start(): Promise<void> {
    const stored = await this.deps.store.load(this.tableId);
    if (stored) {
      this.state = stored.state;
      this.version = stored.version;
      const inRound = this.state.phase.kind === 'in-round';
      const inFlight =
        inRound && this.machine.expected(this.state) !== null && !this.deps.lease.handedOver;
      const reason = inFlight ? await this.takeoverPause() : undefined;
      if (reason) await this.submit({ type: 'pause', by: 'system', reason });
      else if (inRound && !this.deps.takeover?.awaitingFirstFrame) {
        await this.watchForLostFrames();
      }
    } else {
      this.state = initialTableState(this.machine.settings, this.deps.deckCount);
      this.version = 0;
    }
    await this.submit({ type: 'start' });
    this.timers.reconcile();
    this.timers.startTicking();
  }

  private async takeoverPause(): Promise<string | undefined> {
    const guard = this.deps.takeover;
    if (!guard) {
      return 'The service restarted while a card was expected: check the table, then resume';
    }
    const reason = await guard.begin();
    if (!reason && guard.awaitingFirstFrame) {
      this.logger.log('Taken over mid-round: the first frame read will show whether one was lost');
    }
    return reason;
  }

  private async watchForLostFrames(): Promise<void> {
    const guard = this.deps.takeover;
    if (!guard) return;
    await guard.watch();
    if (guard.awaitingFirstFrame) {
      this.logger.log('Taken up mid-round: the first frame read will show whether one was lost');
    }
  }

  /**
   * A frame read from the table's reader that the table itself does not apply (a heartbeat, a
   * status frame): after a takeover its number alone can prove that no frame was lost.
   */
  observeFrame(reading: { sequence?: number }): void {
    const gap = this.deps.takeover?.observe(reading);
    if (!gap) return;
    this.logger.warn(`Paused after the takeover: ${gap}`);
    void this.submit({ type: 'pause', by: 'system', reason: gap }).catch(() => undefined);
  }

  /**
   * Lets go of the table: nothing new is taken, but what is queued (a last card reading, a batch
   * of commands) still runs, so everything received before the stop is committed.
   */
  async stop(): Promise<void> {
    this.closing = true;
    this.timers.stop();
    this.ahead.stop();
    await this.queue.catch(() => undefined);
    this.stopped = true;
  }

  /**
   * The stored version is ahead of ours: a commit whose answer was lost (the connection dropped
   * during a database outage) did commit. The table kept its lease under the same epoch, so only
   * this instance wrote it: the stored state is ours, taken up as it is.
   */
  private async reload(): Promise<void> {
    const stored = await this.deps.store.load(this.tableId).catch(() => undefined);
    if (!stored) return;
    if (stored.version === this.version) return this.uncertain.clear();
    // The lost commit was never announced. When it is one this runtime tried (UncertainCommits),
    // it is announced now with its writes; otherwise the listeners learn the state taken up, so a
    // virtual dealer deals the card it expects and the consoles show it (without this, a table
    // waiting for a virtual shoe's card waited forever).
    const landed = this.uncertain.landed(stored.version, stored.state);
    this.logger.warn(
      `Took up the stored state (version ${stored.version}): a commit's answer was lost` +
        (landed ? '; announced now with what it wrote' : ''),
    );
    this.version = stored.version;
    this.committed(landed ?? { state: stored.state, writes: emptyWrites() });
  }

  submit(input: TableInput, meta?: CommandMeta): Promise<CommandResult> {
    if (this.closing) return Promise.resolve({ ...TABLE_STOPPING });
    return this.enqueue(() => this.run(input, meta));
  }

  /** A reading not stored yet: stored by the transition that applies it (one commit), or alone. */
  submitReading(record: ReadingRecord): Promise<CommandResult> {
    // A gap since the takeover pauses the table before this reading is applied.
    this.observeFrame(record.reading);
    return this.enqueue(() => this.applyReading(record)).then(({ answer }) => answer);
  }

  /**
   * A reading is applied at once; when its commit fails because the database is out or too slow,
   * it is held (HeldReadings) and the table refuses other input until it is applied. The answer
   * of a held reading comes when it is applied, outside the queue (which the retries use).
   */
  private async applyReading(
    record: ReadingRecord,
  ): Promise<{ answer: CommandResult | Promise<CommandResult> }> {
    if (this.held.waiting) return { answer: this.held.hold(record) };
    try {
      return { answer: await this.run(readingInput(record), undefined, record) };
    } catch (error) {
      if (!this.worthRetrying(error)) {
        this.deps.readings.record(record);
        throw error;
      }
      return { answer: this.held.hold(record, error) };
    }
  }

  /**
   * A commit that may succeed if tried again: the database was out or slow, or the lease lapsed
   * during the outage (kept again under the same epoch when nobody took the table; when somebody
   * did, this table is let go, which ends the retries).
   */
  private worthRetrying(error: unknown): boolean {
    if (this.closing || this.stopped) return false;
    return isLeftByOutage(error) || isDatabaseUnavailable(error);
  }

  submitCommands(items: readonly BatchItem[]): Promise<CommandResult[]> {
    return this.commands.submit(items);
  }

  /**
   * The commands of the batch about to be submitted (the intake's next chunk, prepared while this
   * one commits): their stored answers looked up and their step computed on the state the commit
   * in flight leaves, so their batch need not wait for either. Changes nothing here.
   */
  prepareAhead(items: readonly BatchItem[]): void {
    if (this.closing || items.length === 0) return;
    this.prefetched.start(
      items.flatMap((item) => (item.meta.commandId ? [item.meta.commandId] : [])),
    );
    this.ahead.propose(items);
  }

  /**
   * Platform commands in bulk: the answers are the ones submitting them one by one in this order
   * would give, but a window's bets or decisions cost one transaction instead of one each. A
   * command id already answered, or repeated within the batch, gets the first answer with
   * `duplicate: true` (or `command-id-reused` for a different command under that id).
   */
  submitBatch(items: readonly BatchItem[]): Promise<CommandResult[]> {
    if (this.closing) return Promise.resolve(items.map(() => ({ ...TABLE_STOPPING })));
    return this.enqueue(() => this.runBatch(items));
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(
    input: TableInput,
    meta?: CommandMeta,
    reading?: ReadingRecord,
  ): Promise<CommandResult> {
    if (this.stopped) {
      if (reading) this.deps.readings.record(reading);
      return { ...TABLE_STOPPING };
    }
    // Nothing is applied before a card read earlier that waits for the database.
    if (!reading && this.held.waiting) throw this.held.refusal();
    if (meta?.commandId) {
      const previous = (await this.deps.store.findCommands([meta.commandId])).get(meta.commandId);
      if (previous) return replayStored(previous, meta);
    }
    const now = this.deps.clock.now();
    // A step that throws is not retried: applyReading stores its reading on its own.
    const outcome = this.machine.step(this.state, input, this.context(now));
    const result: CommandResult = outcome.rejection
      ? { accepted: false, ...outcome.rejection }
      : { accepted: true, reply: outcome.reply ?? {} };
    const records: CommandRecord[] = meta?.commandId
      ? [commandRecord(meta.commandId, meta, result)]
      : [];
    await this.persist(outcome, now, records, input.type, { reading });
    if (outcome.rejection) logRejection(this.logger, input, outcome.rejection);
    return result;
  }

  /**
   * Commits a transition with the answers it gives (then timers and listeners follow), or stores
   * only the answers when nothing changed (a refused command must get the same answer again). A
   * reading no transition commits is stored on its own. With `lookUpAnswers` (CommitContext), it
   * rejects, having written nothing, when a command was answered before (answeredBefore).
   */
  private async persist(
    outcome: MachineOutcome,
    now: Date,
    records: CommandRecord[],
    what: string,
    { reading, lookUpAnswers }: { reading?: ReadingRecord; lookUpAnswers?: boolean } = {},
  ): Promise<void> {
    const { store, lease, ids } = this.deps;
    if (outcome.state === this.state && !hasWrites(outcome.writes)) {
      if (reading) this.deps.readings.record(reading);
      await store
        .recordCommands(this.tableId, records, now, lookUpAnswers)
        .catch((error: unknown) => {
          if (!answeredBefore(error)) this.prefetched.clear();
          throw error;
        });
      this.prefetched.answered(records);
      return;
    }
    try {
      this.version = await store.commit(outcome, {
        lease,
        expectedVersion: this.version,
        previous: this.version > 0 ? this.state : undefined,
        occurredAt: now,
        newId: () => ids.newId(),
        commands: records,
        reading,
        lookUpAnswers,
      });
    } catch (error) {
      if (answeredBefore(error)) throw error; // nothing was written
      this.prefetched.clear();
      this.logger.error(`Could not commit ${what}: ${oneLine(error)}`);
      if ((error as Error | undefined)?.name === 'StaleTableStateError') await this.reload();
      else if (mayHaveCommitted(error)) this.uncertain.failed(this.version, outcome);
      throw error;
    }
    this.uncertain.clear();
    this.prefetched.answered(records);
    this.committed(outcome);
  }

  private async runBatch(items: readonly BatchItem[]): Promise<CommandResult[]> {
    if (this.stopped) return items.map(() => ({ ...TABLE_STOPPING }));
    if (this.held.waiting) throw this.held.refusal();
    const ids = items.flatMap((item) => (item.meta.commandId ? [item.meta.commandId] : []));
    // The stored answers of the commands, when the intake looked them up ahead (prepareAhead).
    // Otherwise the commit looks them up itself (lookUpAnswers: one round trip instead of two),
    // and in the rare case that one was answered before it writes nothing and the batch is
    // stepped again without it.
    const lookup = ids.length > 0 ? this.prefetched.take(ids) : undefined;
    const lookUpAnswers = ids.length > 0 && !lookup;
    // While a lookup made ahead is awaited: the first step, as if no command id had been
    // answered before (the usual case); taken again below if some had. Computed already while
    // the previous batch committed, when that commit left the state it was computed on.
    let plan = planBatch(items, new Map());
    let ahead = this.ahead.take(items, this.state);
    try {
      if (!ahead && plan.fresh.length > 0) ahead = this.stepGroup(items, plan.fresh);
    } catch {
      // Taken again once the stored answers are known: an answered command is not stepped.
    }
    const previous = lookup ? await lookup : new Map<string, Record<string, unknown>>();
    if (ids.some((id) => previous.has(id))) {
      plan = planBatch(items, previous);
      ahead = undefined;
    }
    const { results, firstOf } = plan;
    let { fresh } = plan;
    for (let done = 0; done < fresh.length;) {
      const { step, now } = ahead ?? this.stepGroup(items, fresh.slice(done));
      ahead = undefined;
      const consumed = fresh.slice(done, done + step.results.length);
      const records: CommandRecord[] = [];
      consumed.forEach((i, k) => {
        const { meta } = items[i];
        if (meta.commandId) records.push(commandRecord(meta.commandId, meta, step.results[k]));
      });
      const what = `${consumed.length} commands`;
      const persisting = this.persist(step.outcome, now, records, what, { lookUpAnswers });
      // The batch's last commit: the next batch is stepped on the state it leaves meanwhile.
      const last = done + consumed.length === fresh.length;
      try {
        await (last ? this.ahead.during(step.outcome.state, persisting) : persisting);
      } catch (error) {
        const answered = answeredBefore(error);
        if (!answered) throw error;
        fresh = withoutAnswered(items, fresh, done, answered, results);
        continue;
      }
      consumed.forEach((i, k) => (results[i] = step.results[k]));
      logBatchRejections(this.logger, step.results);
      done += consumed.length;
    }
    items.forEach((item, i) => {
      if (results[i]) return;
      const first = firstOf.get(item.meta.commandId!)!;
      results[i] = replayRepeat(results[first]!, items[first].meta, item.meta);
    });
    return results as CommandResult[];
  }

  /** The machine's step over the commands at these indexes, from the current state (or `from`). */
  private stepGroup(
    items: readonly BatchItem[],
    group: readonly number[],
    from = this.state,
  ): GroupStep {
    const now = this.deps.clock.now();
    const step = this.machine.stepCommands(
      from,
      group.map((i) => items[i].input),
      this.context(now),
    );
    return { step, now };
  }

  private context(now: Date) {
    return {
      now: now.getTime(),
      newId: () => this.deps.ids.newId(),
      shuffle: (cards: readonly CardCode[]) => fisherYates(cards, cryptoRandomSource),
    };
  }

  /** After a commit: the new state is the table's, then timers and listeners follow it. */
  private committed(outcome: MachineOutcome): void {
    this.state = outcome.state;
    this.timers.reconcile();
    for (const listener of this.deps.listeners) {
      try {
        listener(this.tableId, outcome);
      } catch (error) {
        this.logger.warn(`A listener failed: ${oneLine(error)}`);
      }
    }
  }
}
