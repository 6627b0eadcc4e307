import { isDeepStrictEqual } from 'node:util';
import type { MachineOutcome, TableState } from '../table-core/table-machine';

/** Attempts kept per version: only commits whose connection broke in flight, a few at most. */
const KEPT = 4;

/**
 * Transitions whose commit failed without saying whether it landed (the connection dropped with
 * the commit in flight), kept until the table's stored version tells. When the stored state is one
 * version ahead of them, the attempt that landed is the one whose state it holds: it is announced
 * with its writes, so the round log, the round metrics and the consoles learn what it did. With
 * the state alone, a round it ended was neither logged nor counted.
 */
export class UncertainCommits {
  private from?: number;
  private attempts: MachineOutcome[] = [];

  /** A commit on `version` failed; it may have landed. */
  failed(version: number, outcome: MachineOutcome): void {
    if (this.from !== version) {
      this.from = version;
      this.attempts = [];
    }
    this.attempts.push(outcome);
    if (this.attempts.length > KEPT) this.attempts.shift();
  }

  /** A commit was answered, or none of the attempts landed: nothing is uncertain. */
  clear(): void {
    this.from = undefined;
    this.attempts = [];
  }

  /** The attempt whose result is the stored `state` at `version`, if one of them is; then cleared. */
  landed(version: number, state: TableState): MachineOutcome | undefined {
    const attempts = this.from === version - 1 ? this.attempts : [];
    this.clear();
    if (attempts.length === 0) return undefined;
    const stored = asStored(state);
    // The latest first: an attempt after one that landed would have found the version moved on.
    return [...attempts].reverse().find((a) => isDeepStrictEqual(asStored(a.state), stored));
  }
}

/** The state as a JSON column gives it back: no undefined members (key order is not compared). */
function asStored(state: TableState): unknown {
  return JSON.parse(JSON.stringify(state)) as unknown;
}
