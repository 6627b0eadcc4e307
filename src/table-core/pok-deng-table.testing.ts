import { CardCode, parseCardCode } from '@studio/cards';
import { DEFAULT_INGESTION_RULES, ScannerReading } from '@studio/scanner-protocol';
import { PokDengAdapter } from '../games/pok-deng/pok-deng.adapter';
import {
  initialTableState,
  MachineContext,
  MachineOutcome,
  roundOf,
  TableInput,
  TableMachine,
  TableSettings,
  TableState,
} from './table-machine';

/** A Pok Deng table driven step by step for the machine's specs (state round-tripped as JSON). */
export const settings: TableSettings = {
  tableId: 'pokdeng-1',
  game: 'pok-deng',
  currency: 'THB',
  bettingWindowMs: 15_000,
  roundIntervalMs: 3_000,
  limits: { player: { min: 10, max: 100_000 }, pair: { min: 10, max: 10_000 } },
  ingestion: DEFAULT_INGESTION_RULES,
};

export class Table {
  readonly machine = new TableMachine(settings, new PokDengAdapter({ bettingWindowMs: 15_000 }));
  state: TableState = initialTableState(settings, 8);
  now = Date.UTC(2026, 10, 29, 12, 0, 0);
  private ids = 0;
  private seq = 0;
  readonly outcomes: MachineOutcome[] = [];

  step(input: TableInput): MachineOutcome {
    const ctx: MachineContext = { now: this.now, newId: () => `id-${++this.ids}` };
    const outcome = this.machine.step(this.state, input, ctx);
    // State must survive persistence at every step.
    this.state = JSON.parse(JSON.stringify(outcome.state));
    this.outcomes.push(outcome);
    return outcome;
  }

  read(code: string): MachineOutcome {
    this.now += 500;
    const card = parseCardCode(code)!;
    const reading: ScannerReading = {
      kind: 'card',
      card,
      code: `${card.rank}${card.suit}` as CardCode,
      raw: new Uint8Array(),
      receivedAt: this.now,
      sequence: ++this.seq,
    };
    return this.step({ type: 'reading', readingId: String(this.seq), reading });
  }

  misread(): MachineOutcome {
    this.now += 500;
    return this.step({
      type: 'reading',
      readingId: String(++this.seq),
      reading: {
        kind: 'unrecognised',
        code: 'NOREAD',
        reason: 'reader-reported',
        raw: new Uint8Array(),
        receivedAt: this.now,
        sequence: this.seq,
      },
    });
  }

  fireDueTimers(): void {
    for (const t of [...this.state.timers].sort((a, b) => a.dueAt - b.dueAt)) {
      this.now = Math.max(this.now, t.dueAt);
      this.step({ type: 'timer', name: t.name, token: t.token });
    }
  }

  events(): string[] {
    return this.outcomes.flatMap((o) => o.writes.events.map((e) => e.type));
  }
}

/** A new shoe: first card 3 (burn 3 more), then the round starts after the interval. */
export function shoeReady(): Table {
  const t = new Table();
  t.step({ type: 'start' });
  same(t.machine.expected(t.state)?.slot, 'shoe-burn/shown');
  t.read('3C');
  same(t.machine.expected(t.state)?.label, 'Burn card 1 of 3, face down');
  t.read('KD');
  t.read('4H');
  t.read('9S');
  same(t.machine.expected(t.state), null);
  t.fireDueTimers(); // next-round
  same(roundOf(t.state)?.roundNumber, 1);
  return t;
}

/** The helper's own checks (it is built with the service, where jest's expect does not exist). */
function same(actual: unknown, expected: unknown): void {
  if (actual !== expected) {
    throw new Error(`Expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}
