import { wireFormat } from '@studio/scanner-protocol';
import type { TableDefinition } from '../config/tables-config';

/** Device sequence numbers of the framed format run 00000..99999 and wrap. */
const SEQUENCE_MODULUS = 100_000;

/**
 * Where a table's frames come from, as far as a takeover is concerned:
 * - `in-process`: a virtual shoe or mock reader that lives and dies with the instance; the new
 *   owner deals the expected card again from the stored shoe, so nothing can be lost in transit;
 * - `numbered`: a device whose frames carry sequence numbers (framed formats): the first frame the
 *   new owner reads proves whether any frame was sent while no instance drove the table;
 * - `unnumbered`: a device without numbering (line format): nobody can tell;
 * - `none`: no reader (cards come through the API): nothing proves that none was lost.
 */
export type FrameSource = 'in-process' | 'numbered' | 'unnumbered' | 'none';

export function frameSourceOf(table: TableDefinition): FrameSource {
  const scanner = table.scanner;
  if (!scanner) return 'none';
  if (!scanner.path) return 'in-process';
  return wireFormat(scanner.wireFormat)?.hasHeartbeats ? 'numbered' : 'unnumbered';
}

/** The last reading of a table stored in the database (any kind: cards, heartbeats...). */
export interface LastFrame {
  sequence: number | null;
}

/** Where the new owner learns the last frame the previous owner stored. */
export interface FrameEvidence {
  lastFrame(tableId: string): Promise<LastFrame | undefined>;
}

const CHECK = 'check the table, then resume';
const NO_HANDOVER =
  'The previous owner stopped driving this table without handing it over while a card was expected';

/**
 * Decides whether a table taken over mid-round (its previous owner died or lost its lease while
 * the table waited for a card) may continue by itself. A numbered reader's first frame after the
 * takeover settles it: continuing the last stored frame's sequence (or repeating it) proves no
 * frame went missing; a gap pauses the table with the frames that were missed.
 */
export class TakeoverGuard {
  /** Set while the first numbered frame after a takeover is awaited. */
  private awaiting?: number;

  constructor(
    private readonly tableId: string,
    private readonly source: FrameSource,
    private readonly evidence?: FrameEvidence,
  ) {}

  get awaitingFirstFrame(): boolean {
    return this.awaiting !== undefined;
  }

  /** At takeover: a reason to pause now, or undefined (continue, judged by the first frame). */
  async begin(): Promise<string | undefined> {
    switch (this.source) {
      case 'in-process':
        return undefined;
      case 'unnumbered':
        return `${NO_HANDOVER}, and its reader does not number its frames: nobody can tell whether a card was read and lost; ${CHECK}`;
      case 'none':
        return `${NO_HANDOVER}, and it has no card reader whose frames could prove that none was lost; ${CHECK}`;
    }
    const last = await this.evidence?.lastFrame(this.tableId);
    if (last?.sequence === null || last?.sequence === undefined) {
      return `${NO_HANDOVER}, and no numbered frame of its reader is stored to compare the next one with; ${CHECK}`;
    }
    this.awaiting = last.sequence;
    return undefined;
  }

  /**
   * A table taken mid-round whatever happened before (a graceful handover, a restart, a takeover
   * while no card was expected yet): a numbered reader's first frame still shows whether frames
   * were sent while no instance drove the table; a gap pauses it (observe). Nothing else pauses.
   */
  async watch(): Promise<void> {
    if (this.source !== 'numbered') return;
    const last = await this.evidence?.lastFrame(this.tableId);
    if (last?.sequence !== null && last?.sequence !== undefined) this.awaiting = last.sequence;
  }

  /**
   * A frame read after the takeover (any kind). The first numbered one ends the wait: undefined
   * when it continues the stored sequence, else the reason to pause. Unnumbered bytes (noise) are
   * not judged: a frame they hid shows as a gap in the next numbered one.
   */
  observe(reading: { sequence?: number }): string | undefined {
    const last = this.awaiting;
    if (last === undefined || reading.sequence === undefined) return undefined;
    this.awaiting = undefined;
    return gapReason(last, reading.sequence);
  }
}

/** Undefined when `first` continues (or repeats) `last`; else what is known of the missing frames. */
export function gapReason(last: number, first: number): string | undefined {
  const missed = (first - last - 1 + 2 * SEQUENCE_MODULUS) % SEQUENCE_MODULUS;
  if (missed === 0 || first === last) return undefined;
  if (missed > SEQUENCE_MODULUS / 2) {
    return (
      `The first frame read after the takeover (${first}) is behind the last stored one (${last}): ` +
      `the reader restarted its numbering, so nobody can tell whether a card was lost; ${CHECK}`
    );
  }
  const from = (last + 1) % SEQUENCE_MODULUS;
  const to = (first - 1 + SEQUENCE_MODULUS) % SEQUENCE_MODULUS;
  const frames = missed === 1 ? `Frame ${from} was` : `Frames ${from}–${to} were`;
  return (
    `${frames} sent while no instance drove the table (the last stored frame is ${last}, the first ` +
    `read after the takeover ${first}): a card may have been lost; ${CHECK}`
  );
}
