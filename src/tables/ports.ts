import type { MachineOutcome, TableState } from '../table-core/table-machine';
import type { ReadingRecord } from '../use-cases/common/tables.port';

/** The lease a table runtime holds: every write is fenced by it. */
export interface TableLeaseFence {
  readonly tableId: string;
  readonly epoch: number;
  /** Taken over from an owner that released it gracefully (every reading it received committed). */
  readonly handedOver?: boolean;
}

/** A command's first answer as it is stored for idempotence. */
export interface CommandRecord {
  commandId: string;
  kind: string;
  result: Record<string, unknown>;
}

/** What one transition's commit needs besides the outcome. */
export interface CommitContext {
  lease: TableLeaseFence;
  expectedVersion: number;
  /** The state stored at expectedVersion: given, only what changed since is written. */
  previous?: TableState;
  occurredAt: Date;
  newId(): string;
  /** Idempotency records of the commands this transition answers (none for readings, timers). */
  commands?: CommandRecord[];
  /** The reading this transition applies when it is not stored yet (its id is UNSTORED_READING). */
  reading?: ReadingRecord;
  /**
   * The commands' ids were not looked up before they were stepped (one round trip instead of
   * two): the commit looks them up first and, when any was answered before, writes nothing and
   * rejects with their stored answers (answeredBefore).
   */
  lookUpAnswers?: boolean;
}

type StoredAnswers = ReadonlyMap<string, Record<string, unknown>>;

/**
 * The stored answers a commit or record with `lookUpAnswers` found, when it rejected because some
 * of its commands were answered before (nothing was written); else undefined. Known by the
 * error's name, `CommandsAnsweredBeforeError` (the store's class is the history's).
 */
export function answeredBefore(error: unknown): StoredAnswers | undefined {
  const e = error as { name?: unknown; answers?: unknown } | null | undefined;
  return e?.name === 'CommandsAnsweredBeforeError' && e.answers instanceof Map
    ? (e.answers as StoredAnswers)
    : undefined;
}

/** Where a table's transitions are committed and its state is rebuilt from (the history writer). */
export interface TransitionStore {
  load(tableId: string): Promise<{ version: number; state: TableState } | undefined>;
  /** The stored first answers of these command ids (those answered before). */
  findCommands(commandIds: readonly string[]): Promise<Map<string, Record<string, unknown>>>;
  /**
   * Answers of commands that changed nothing (a refusal must get the same answer again). With
   * `lookUpAnswers`, as a commit with it (CommitContext).
   */
  recordCommands(
    tableId: string,
    commands: readonly CommandRecord[],
    at: Date,
    lookUpAnswers?: boolean,
  ): Promise<void>;
  /** Commits the transition, fenced by the lease; resolves with the table's new version. */
  commit(outcome: MachineOutcome, context: CommitContext): Promise<number>;
}

/**
 * Where a reading that no transition stores goes (nothing to write, the commit failed, the table is
 * stopping or not driven here): stored on its own, in arrival order, retried through an outage.
 */
export interface ReadingStore {
  record(record: ReadingRecord): unknown;
}

/** A table's lease as the lease store hands it out (the epoch fences every write). */
export interface TableLease extends TableLeaseFence {
  readonly owner: string;
  readonly expiresAt: Date;
}

/** The table leases in the shared database: at most one live owner per table. */
export interface LeaseStore {
  tryAcquire(tableId: string, owner: string): Promise<TableLease | undefined>;
  /** The leases still held of these, renewed. */
  renewAll(leases: readonly TableLease[]): Promise<TableLease[]>;
  release(lease: TableLease): Promise<void>;
  /** Says this instance is alive for another `ttlMs`: how many are, and whether it holds its id. */
  announce(
    instanceId: string,
    token: string,
    ttlMs: number,
  ): Promise<{ live: number; mine: boolean }>;
  withdraw(instanceId: string, token: string): Promise<void>;
  /**
   * Liveness by database session (absent or 'off': the TTL alone). 'taken': another live
   * process holds this instance id's session lock.
   */
  openLiveness?(instanceId: string): Promise<'open' | 'taken' | 'off'>;
  /** The liveness session was open and broke (to be opened again). */
  readonly livenessLost?: boolean;
  closeLiveness?(): Promise<void>;
  /** Told of each instance that any instance finds gone (a hint: one may be missed). */
  onInstanceGone?(listener: (instanceId: string) => void): void;
  /** Instances whose session lock is gone: their leases expire now. Returns who, and how many. */
  expireDeadInstances?(instanceId: string): Promise<Array<{ owner: string; tables: number }>>;
  /** Of these tables, those nobody holds now or still held under this owner (worth a claim). */
  claimable?(tableIds: readonly string[], owner: string): Promise<string[]>;
  /** A table's lease row as it is now (why a renewal did not return it). */
  current?(tableId: string): Promise<(TableLease & { released: boolean }) | undefined>;
  /** Tables per live owner. */
  distribution?(): Promise<Record<string, number>>;
  /** The last reading of the table stored (its device sequence number), for a takeover's check. */
  lastFrame?(tableId: string): Promise<{ sequence: number | null } | undefined>;
}

/** Injection tokens of the ports above: the history module binds its classes to them. */
export const TRANSITION_STORE = Symbol('TransitionStore');
export const READING_STORE = Symbol('ReadingStore');
export const LEASE_STORE = Symbol('LeaseStore');
export const TABLE_REGISTRY_STORE = Symbol('TableRegistryStore');
