import { Logger } from '@nestjs/common';
import type { CardCode } from '@studio/cards';
import type { ScannerReading } from '@studio/scanner-protocol';
import { cryptoRandomSource, fisherYates } from '@studio/games/blackjack';
import { Clock, IdGenerator } from '../clock/clock';
import { oneLine } from '../common/one-line';
import {
  CommandInput,
  hasWrites,
  initialTableState,
  ItemResult,
  MachineOutcome,
  TableInput,
  TableMachine,
  TableState,
} from '../table-core/table-machine';
import type { ReadingRecord } from '../history/scanner-history.repository';
import type { CommandRecord } from '../history/writer/processed-commands.repository';
import { UNSTORED_READING } from '../history/writer/transition-call';
import {
  CommandMeta,
  commandRecord,
  replayRepeat,
  replayStored,
  SubmitResult,
} from './command-replay';
import type { TransitionWriter } from '../history/writer/transition-writer';
import type { TableLease } from '../database/table-lease.repository';

export type { CommandMeta, SubmitResult } from './command-replay';

/** Where a committed transition is announced (WebSocket consoles, the outbox relay...). */
export interface TransitionListener {
  (tableId: string, outcome: MachineOutcome): void;
}

/** One command of a batch: what to apply and how it is recorded. */
export interface BatchItem {
  input: CommandInput;
  meta: CommandMeta;
}

/**
 * A scanner reading handed to its table before it is stored: the transition that applies it
 * writes its row in the same commit (the table sees it as UNSTORED_READING). When no transition
 * commits it (nothing to write, the commit failed, the table is stopping) `storeAlone` stores it
 * on its own, as before the table existed.
 */
export interface UnstoredReading {
  record: ReadingRecord;
  storeAlone(): void;
}

/**
 * The I/O shell of one table: a queue so that no two transitions of the table interleave, the pure
 * TableMachine to compute each transition, the history writer to commit it (fenced by this instance's
 * lease) and only then the timers, the listeners and the relay. Readings, commands, supervisor
 * actions and timers all enter through submit().
 */
export class TableRuntime {
  private readonly logger: Logger;
  private queue: Promise<unknown> = Promise.resolve();
  private version = 0;
  private state!: TableState;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private tickTimer?: NodeJS.Timeout;
  private stopped = false;
  /** Stopping: nothing new is queued, what is queued still runs. */
  private closing = false;
  /** Stored answers looked up ahead of their batch (prefetchAnswers), oldest first. */
  private prefetched: Prefetch[] = [];
  /** The next batch's commands (stepAhead), waiting for this batch's commit to be under way. */
  private nextItems?: readonly BatchItem[];
  /** The state a batch commit in flight leaves, if it commits. */
  private committing?: TableState;
  /** The next batch's step, computed on `committing` while that commit ran (stepAhead). */
  private steppedAhead?: SteppedAhead;

  constructor(
    readonly machine: TableMachine,
    private readonly writer: TransitionWriter,
    private readonly lease: TableLease,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly listeners: TransitionListener[],
    private readonly deckCount: number,
  ) {
    this.logger = new Logger(`Table ${machine.settings.tableId}`);
  }

  get tableId(): string {
    return this.machine.settings.tableId;
  }

  /** A read-only snapshot for consoles (callers must not mutate it). */
  get snapshot(): TableState {
    return this.state;
  }

  /**
   * Rebuilds the table from the database. A table whose last owner died while a card was expected
   * mid-round waits paused for a supervisor: nobody can tell whether a card was scanned and lost.
   * After a graceful handover (the lease released with every received reading committed) nothing
   * is uncertain, and the round continues at once.
   */
  async start(): Promise<void> {
    const stored = await this.writer.load(this.tableId);
    if (stored) {
      this.state = stored.state;
      this.version = stored.version;
      const inFlight =
        this.state.phase.kind === 'in-round' &&
        this.machine.expected(this.state) !== null &&
        !this.lease.handedOver;
      if (inFlight) {
        await this.submit({
          type: 'pause',
          by: 'system',
          reason: 'The service restarted while a card was expected: check the table, then resume',
        });
      }
    } else {
      this.state = initialTableState(this.machine.settings, this.deckCount);
      this.version = 0;
    }
    await this.submit({ type: 'start' });
    this.reconcileTimers();
    this.tickTimer = setInterval(() => {
      if (
        this.state.ingestion.slot?.firstFailureAt != null &&
        !this.state.ingestion.slot.escalated
      ) {
        // A tick that cannot be committed (the database is away) is simply taken again next second.
        this.submit({ type: 'tick' }).catch(() => undefined);
      }
    }, 1000);
  }

  /**
   * Lets go of the table: nothing new is taken, but what is queued (a last card reading, a batch
   * of commands) still runs, so everything received before the stop is committed.
   */
  async stop(): Promise<void> {
    this.closing = true;
    if (this.tickTimer) clearInterval(this.tickTimer);
    for (const handle of this.timers.values()) clearTimeout(handle);
    this.timers.clear();
    await this.queue.catch(() => undefined);
    this.stopped = true;
  }

  submit(input: TableInput, meta?: CommandMeta): Promise<SubmitResult> {
    if (this.closing) return Promise.resolve({ ...TABLE_STOPPING });
    const run = this.queue.then(() => this.run(input, meta));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A reading not stored yet: stored by the transition that applies it (one commit). */
  submitReading(reading: ScannerReading, unstored: UnstoredReading): Promise<SubmitResult> {
    const input: TableInput = { type: 'reading', readingId: UNSTORED_READING, reading };
    const run = this.queue.then(() => this.run(input, undefined, unstored));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(
    input: TableInput,
    meta?: CommandMeta,
    unstored?: UnstoredReading,
  ): Promise<SubmitResult> {
    if (this.stopped) {
      unstored?.storeAlone();
      return { ...TABLE_STOPPING };
    }
    if (meta?.commandId) {
      const previous = (await this.writer.findCommands([meta.commandId])).get(meta.commandId);
      if (previous) return replayStored(previous, meta);
    }
    const now = this.clock.now();
    let outcome: MachineOutcome;
    try {
      outcome = this.machine.step(this.state, input, this.context(now));
    } catch (error) {
      unstored?.storeAlone();
      throw error;
    }
    const result: SubmitResult = outcome.rejection
      ? { accepted: false, ...outcome.rejection }
      : { accepted: true, reply: outcome.reply ?? {} };
    const records: CommandRecord[] = meta?.commandId
      ? [commandRecord(meta.commandId, meta, result)]
      : [];
    await this.persist(outcome, now, records, input.type, unstored);
    if (outcome.rejection) this.logRejection(input, outcome.rejection);
    return result;
  }

  /**
   * Commits a transition with the answers it gives (then timers and listeners follow), or stores
   * only the answers when nothing changed (a refused command must get the same answer again).
   */
  private async persist(
    outcome: MachineOutcome,
    now: Date,
    records: CommandRecord[],
    what: string,
    unstored?: UnstoredReading,
  ): Promise<void> {
    if (outcome.state === this.state && !hasWrites(outcome.writes)) {
      unstored?.storeAlone();
      await this.writer.recordCommands(this.tableId, records, now).catch((error: unknown) => {
        this.prefetched = [];
        throw error;
      });
      this.answered(records);
      return;
    }
    try {
      this.version = await this.writer.commit(outcome, {
        lease: this.lease,
        expectedVersion: this.version,
        previous: this.version > 0 ? this.state : undefined,
        occurredAt: now,
        newId: () => this.ids.newId(),
        commands: records,
        reading: unstored?.record,
      });
    } catch (error) {
      unstored?.storeAlone();
      // It may have committed all the same (a connection lost at COMMIT): a lookup made before
      // cannot tell, so none is used.
      this.prefetched = [];
      this.logger.error(`Could not commit ${what}: ${oneLine(error)}`);
      throw error;
    }
    this.answered(records);
    this.committed(outcome);
  }

  /**
   * Platform commands in bulk (the Kafka intake reads them in batches): the answers are the
   * ones submitting them one by one in this order would give, but a window's bets or decisions
   * cost one transaction instead of one each. A command id already answered, or repeated within
   * the batch, gets the first answer with `duplicate: true`.
   */
  submitBatch(items: readonly BatchItem[]): Promise<SubmitResult[]> {
    if (this.closing) return Promise.resolve(items.map(() => ({ ...TABLE_STOPPING })));
    const run = this.queue.then(() => this.runBatch(items));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async runBatch(items: readonly BatchItem[]): Promise<SubmitResult[]> {
    if (this.stopped) return items.map(() => ({ ...TABLE_STOPPING }));
    const ids = items.flatMap((item) => (item.meta.commandId ? [item.meta.commandId] : []));
    const lookup =
      ids.length > 0 ? (this.takePrefetched(ids) ?? this.writer.findCommands(ids)) : undefined;
    // While the stored answers are looked up: the first step, as if no command id had been
    // answered before (the usual case); taken again below if some had. Computed already while
    // the previous batch committed, when that commit left the state it was computed on.
    let plan = planBatch(items, new Map());
    let ahead = this.takeSteppedAhead(items);
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
    const { results, firstOf, fresh } = plan;
    for (let done = 0; done < fresh.length;) {
      const { step, now } = ahead ?? this.stepGroup(items, fresh.slice(done));
      ahead = undefined;
      const consumed = fresh.slice(done, done + step.results.length);
      const records: CommandRecord[] = [];
      consumed.forEach((i, k) => {
        results[i] = step.results[k];
        const { meta } = items[i];
        if (meta.commandId) {
          records.push(commandRecord(meta.commandId, meta, step.results[k]));
        }
      });
      const last = done + consumed.length === fresh.length;
      await this.persistAndStepAhead(step.outcome, now, records, consumed.length, last);
      this.logBatchRejections(step.results);
      done += consumed.length;
    }
    items.forEach((item, i) => {
      if (results[i]) return;
      const first = firstOf.get(item.meta.commandId!)!;
      results[i] = replayRepeat(results[first]!, items[first].meta, item.meta);
    });
    return results as SubmitResult[];
  }

  /**
   * A batch's commit, during which the next batch (stepAhead) is stepped on the state this commit
   * leaves: the machine's work overlaps the database's. That step is only a proposal: its batch
   * takes it only if this commit left exactly that state (takeSteppedAhead), so nothing computed
   * on a commit that failed is ever written, answered or announced.
   */
  private async persistAndStepAhead(
    outcome: MachineOutcome,
    now: Date,
    records: CommandRecord[],
    count: number,
    last: boolean,
  ): Promise<void> {
    const persisting = this.persist(outcome, now, records, `${count} commands`);
    if (!last) return persisting;
    const base = outcome.state;
    this.committing = base;
    this.steppedAhead = undefined;
    // A macrotask: the commit's statement is on its way first.
    if (this.nextItems) setImmediate(() => this.stepOn(base));
    try {
      await persisting;
    } finally {
      if (this.committing === base) this.committing = undefined;
    }
  }

  /**
   * The commands of the batch about to be submitted (the intake's next chunk, prepared while this
   * one commits): stepped on the state the commit in flight leaves, so their batch need not wait
   * for the machine once that commit is done. Changes nothing here.
   */
  stepAhead(items: readonly BatchItem[]): void {
    if (this.closing || items.length === 0) return;
    this.nextItems = items;
    if (this.committing) this.stepOn(this.committing);
  }

  private stepOn(base: TableState): void {
    const items = this.nextItems;
    if (!items || this.committing !== base || this.closing) return;
    this.nextItems = undefined;
    const { fresh } = planBatch(items, new Map());
    if (fresh.length === 0) return;
    try {
      this.steppedAhead = { base, items, ahead: this.stepGroup(items, fresh, base) };
    } catch {
      // Stepped by its batch, which sees the error itself.
    }
  }

  /** The step computed ahead for exactly these items on exactly the current state, if any. */
  private takeSteppedAhead(items: readonly BatchItem[]) {
    const taken = this.steppedAhead;
    this.steppedAhead = undefined;
    if (this.nextItems?.[0] === items[0]) this.nextItems = undefined;
    if (!taken || taken.base !== this.state || taken.items.length !== items.length) return;
    return taken.items.every((item, i) => item === items[i]) ? taken.ahead : undefined;
  }

  /**
   * Starts looking up the stored answers of commands about to be submitted (the intake's next
   * chunk, while this one commits), so their batch need not wait for it. The batch that uses it
   * adds the answers this table committed after the lookup began; none is used after a failed
   * commit.
   */
  prefetchAnswers(commandIds: readonly string[]): void {
    if (commandIds.length === 0 || this.closing) return;
    const lookup = this.writer.findCommands(commandIds);
    lookup.catch(() => undefined); // the batch that takes it sees the failure
    this.prefetched.push({ ids: new Set(commandIds), lookup, since: new Map() });
    if (this.prefetched.length > MAX_PREFETCHED) this.prefetched.shift();
  }

  /** A prefetched lookup covering these ids (older ones are dropped), with what committed since. */
  private takePrefetched(ids: readonly string[]) {
    const at = this.prefetched.findIndex((p) => ids.every((id) => p.ids.has(id)));
    if (at < 0) return undefined;
    const [taken] = this.prefetched.splice(0, at + 1).slice(-1);
    return taken.lookup.then((found) => {
      // Only this batch's ids: any other answer would make its step be taken again for nothing.
      for (const id of ids) {
        const result = taken.since.get(id);
        if (result && !found.has(id)) found.set(id, result);
      }
      return found;
    });
  }

  /** Committed answers, for the lookups made before they were committed. */
  private answered(records: readonly CommandRecord[]): void {
    for (const p of this.prefetched) {
      for (const r of records) if (!p.since.has(r.commandId)) p.since.set(r.commandId, r.result);
    }
  }

  /** The machine's step over the commands at these indexes, from the current state (or `from`). */
  private stepGroup(items: readonly BatchItem[], group: readonly number[], from = this.state) {
    const now = this.clock.now();
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
      newId: () => this.ids.newId(),
      shuffle: (cards: readonly CardCode[]) => fisherYates(cards, cryptoRandomSource),
    };
  }

  /** After a commit: the new state is the table's, then timers and listeners follow it. */
  private committed(outcome: MachineOutcome): void {
    this.state = outcome.state;
    this.reconcileTimers();
    for (const listener of this.listeners) {
      try {
        listener(this.tableId, outcome);
      } catch (error) {
        this.logger.warn(`A listener failed: ${oneLine(error)}`);
      }
    }
  }

  /** One debug line per batch, counted by code (each command's platform has its answer). */
  private logBatchRejections(results: readonly ItemResult[]): void {
    const byCode = new Map<string, number>();
    let refused = 0;
    for (const r of results) {
      if (r.accepted) continue;
      refused += 1;
      byCode.set(r.code, (byCode.get(r.code) ?? 0) + 1);
    }
    if (refused === 0) return;
    const counts = [...byCode].map(([code, n]) => `${code} x${n}`).join(', ');
    this.logger.debug(`${refused} of ${results.length} commands refused: ${counts}`);
  }

  /**
   * Refusals are logged with their code; the message only where it cannot name a card (a reading
   * or a correction may concern a face-down card, which must never reach a log line). A platform's
   * bet or decision refused is its caller's answer (HTTP 409, the answers topic): debug.
   */
  private logRejection(input: TableInput, rejection: { code: string; message: string }): void {
    const mayNameACard = input.type === 'reading' || input.type === 'correct-card';
    this.logger[input.type === 'bet' || input.type === 'decide' ? 'debug' : 'warn'](
      `${input.type} refused: ${rejection.code}${mayNameACard ? '' : `: ${rejection.message}`}`,
    );
  }

  /** Makes the scheduled callbacks match the deadlines in the committed state. */
  /**
   * A timer whose transition cannot be committed (the database is away) is tried again a second
   * later while the state still holds it: a betting window must close once the database is back.
   */
  private fireTimer(key: string, timer: { name: string; token: number }): void {
    this.timers.delete(key);
    this.submit({ type: 'timer', name: timer.name, token: timer.token }).catch((error) => {
      this.logger.error(`Timer ${timer.name} failed, retrying in 1 s: ${oneLine(error)}`);
      const stillWanted = this.state.timers.some(
        (t) => t.name === timer.name && t.token === timer.token,
      );
      if (this.closing || this.timers.has(key) || !stillWanted) return;
      this.timers.set(
        key,
        setTimeout(() => this.fireTimer(key, timer), 1_000),
      );
    });
  }

  private reconcileTimers(): void {
    if (this.closing) return;
    const wanted = new Map(this.state.timers.map((t) => [`${t.name}:${t.token}`, t]));
    for (const [key, handle] of this.timers) {
      if (!wanted.has(key)) {
        clearTimeout(handle);
        this.timers.delete(key);
      }
    }
    for (const [key, timer] of wanted) {
      if (this.timers.has(key)) continue;
      const delay = Math.max(0, timer.dueAt - this.clock.now().getTime());
      this.timers.set(
        key,
        setTimeout(() => this.fireTimer(key, timer), delay),
      );
    }
  }
}

/**
 * Which commands of a batch are applied: a command id answered before gets its stored answer
 * (`duplicate: true`); one repeated within the batch is answered from its first occurrence.
 */
function planBatch(
  items: readonly BatchItem[],
  previous: ReadonlyMap<string, Record<string, unknown>>,
): { results: Array<SubmitResult | undefined>; firstOf: Map<string, number>; fresh: number[] } {
  const results: Array<SubmitResult | undefined> = new Array(items.length);
  const firstOf = new Map<string, number>();
  const fresh: number[] = [];
  items.forEach((item, i) => {
    const id = item.meta.commandId;
    const stored = id ? previous.get(id) : undefined;
    if (stored) results[i] = replayStored(stored, item.meta);
    else if (id && firstOf.has(id))
      return; // answered from its first occurrence
    else {
      if (id) firstOf.set(id, i);
      fresh.push(i);
    }
  });
  return { results, firstOf, fresh };
}

/** Stored answers looked up ahead of a batch, and the answers committed here since. */
interface Prefetch {
  ids: ReadonlySet<string>;
  lookup: Promise<Map<string, Record<string, unknown>>>;
  since: Map<string, Record<string, unknown>>;
}

/** A batch's first step computed ahead, on the state `base` (see persistAndStepAhead). */
interface SteppedAhead {
  base: TableState;
  items: readonly BatchItem[];
  ahead: ReturnType<TableRuntime['stepGroup']>;
}

/** Lookups kept for batches not submitted yet (the intake prefetches one chunk ahead). */
const MAX_PREFETCHED = 4;

/** The answer to anything submitted while this instance lets go of the table. */
const TABLE_STOPPING: SubmitResult = {
  accepted: false,
  code: 'table-stopping',
  message: 'This instance is releasing the table',
};
