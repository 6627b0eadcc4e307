import type { ReadingDisposition, ScannerReading } from '@studio/scanner-protocol';
import type { CommandInput, SupervisionInput, TableInput } from '../../table-core/table-machine';

/** A command's answer: accepted with what it produced, or refused with a code. */
export type CommandResult =
  | { accepted: true; reply: Record<string, unknown>; duplicate?: boolean }
  | { accepted: false; code: string; message: string; duplicate?: boolean };

/** A command refused before it reaches its table (invalid input, unknown table...). */
export type CommandRejection = Extract<CommandResult, { accepted: false }>;

/**
 * How a command is recorded, carried with it through the batch path to its answer: its id (the
 * idempotency key, as its platform's command key: `commandKey`, so two platforms' ids never
 * meet), its kind, and what it asks (its fingerprint: a reused id is told apart).
 */
export interface CommandMeta {
  commandId?: string;
  kind: string;
  fingerprint?: string;
}

/** One platform command on its way to its table: what to apply and how it is recorded. */
export interface BatchItem {
  input: CommandInput;
  meta: CommandMeta;
}

/** A scanner reading as its row is stored (by the transition that applies it, or alone). */
export interface ReadingRecord {
  tableId: string;
  port: string;
  wireFormat: string;
  reading: ScannerReading;
  outcome: ReadingDisposition;
  outcomeDetail?: Record<string, unknown> | null;
}

/** A table this instance drives, as the use cases apply commands to it. */
export interface DrivenTable {
  readonly tableId: string;
  /** The table's default currency. */
  readonly currency: string;
  /** Every currency the table accepts, its default first. */
  readonly currencies: readonly string[];
  /** A dealer's, supervisor's or timer's input, alone in the table's queue. */
  submit(input: TableInput, meta?: CommandMeta): Promise<CommandResult>;
  /**
   * Platform commands through the table's one intake: commands that arrive while a transaction
   * is in flight (HTTP requests, Kafka chunks, inbox drains) are applied together in the next.
   * Answers in the order given.
   */
  submitCommands(items: readonly BatchItem[]): Promise<CommandResult[]>;
  /** The next commands' stored answers looked up and their step computed while this one commits. */
  prepareAhead(items: readonly BatchItem[]): void;
}

export type TableLookup =
  | { ok: true; runtime: DrivenTable }
  | { ok: false; code: 'unknown-table' | 'table-not-driven-here'; message: string };

/**
 * Carries a dealer's or supervisor's action to the instance that drives its table (the command
 * inbox), and brings back that instance's answer.
 */
export interface SupervisionRelay {
  relay(tableId: string, input: SupervisionInput): Promise<CommandResult>;
}

/** The tables, as the use cases see them (implemented by src/tables). */
export interface Tables {
  /** The table if this instance drives it, or why not. */
  get(tableId: string): TableLookup;
  /** Where an action on a table driven by another instance goes, if it can be passed on. */
  readonly relay?: SupervisionRelay;
  /**
   * A reading not stored yet, for its table: stored by the transition that applies it (one
   * commit), or on its own when none does (the table is not driven here, nothing changed, the
   * commit failed).
   */
  submitReading(record: ReadingRecord): Promise<CommandResult>;
}

/** Commands for tables driven elsewhere: stored in the table's inbox, answered by its owner. */
export interface CommandForwarding {
  /** Commands wait in the inbox of this table driven here: new ones queue behind them. */
  waiting(tableId: string): boolean;
  /** Stored in the table's inbox, applied by its owner; resolves with the owner's answer. */
  forward(tableId: string, command: ForwardedCommand): Promise<CommandResult>;
}

/** A platform command as the owner's use case needs it again. */
export type ForwardedCommand =
  | { kind: 'bet'; command: PlaceBetFields }
  | { kind: 'decision'; command: DecideFields }
  | { kind: 'cancel-bet'; command: CancelBetFields };

/** What a platform's bet carries (HTTP body or Kafka PlaceBet/TakeSeat). */
export interface PlaceBetFields {
  tableId: string;
  commandId?: string;
  roundId?: string;
  /** The platform that sent it (the HTTP key's, the Kafka topic's): the player is (platform, playerId). */
  platformId: string;
  playerId: string;
  betType: string;
  spot?: string;
  amount: number;
  sideBets?: Record<string, number>;
  /** The bet's currency; absent: the first of the table's currencies its platform uses. */
  currency?: string;
  /**
   * The currencies the platform uses (its record's, given by the edge that authenticated it);
   * absent when the edge does not know them (then only the table's currencies count).
   */
  platformCurrencies?: readonly string[];
}

/** What a platform's decision carries (HTTP body or Kafka Decide/LeaveSeat/BetBehindChoice). */
export interface DecideFields {
  tableId: string;
  commandId?: string;
  roundId?: string;
  /** The platform that sent it: a platform decides only for its own players. */
  platformId: string;
  playerId: string;
  action: string;
  seat?: string;
}

/** What a platform's cancellation carries (HTTP or Kafka CancelBet). */
export interface CancelBetFields {
  tableId: string;
  commandId?: string;
  /** When given, only a bet of this round is found. */
  roundId?: string;
  /** The platform that sends it: it cancels its own players' bets only. */
  platformId: string;
  playerId: string;
  /** The bet as the PlaceBet's answer named it... */
  betId?: string;
  /** ...or the PlaceBet's own command id (its answer never came). */
  betCommandId?: string;
}

/** The records of void requests (second-supervisor approval), kept in the shared database. */
export interface VoidRequests {
  /** A new request's record id, from the shared database (the table may be driven elsewhere). */
  newRequestId(): Promise<string>;
  findVoidRequest(tableId: string, requestId: string): Promise<{ status: string } | undefined>;
}

/** Injection token of the VoidRequests port (the history's supervisor actions). */
export const VOID_REQUESTS = Symbol('VoidRequests');
