import { CardCode, parseCardCode } from '@studio/cards';
import type { GameKind } from '@studio/contracts';
import fc from 'fast-check';
import type { BetCommand, DecisionCommand } from '../games/game-adapter';
import { createGameAdapter } from '../games/game-registry';
import {
  CommandInput,
  initialTableState,
  ItemResult,
  MachineContext,
  MachineOutcome,
  TableMachine,
  TableState,
  roundOf,
} from './table-machine';
import { tableRunSettings } from '../tables/table-settings';

/**
 * The Kafka intake applies a window's commands in batches (TableMachine.stepCommands). Whatever
 * the batch, every answer, event, row and the resulting state must be exactly what stepping the
 * same commands one at a time gives.
 */
class Table {
  readonly machine: TableMachine;
  state: TableState;
  now = Date.UTC(2026, 10, 29, 12, 0, 0);
  private seq = 0;

  constructor(game: GameKind) {
    const settings = tableRunSettings({ id: `${game}-1`, game, currency: 'EUR' });
    this.machine = new TableMachine(settings, createGameAdapter(settings)!);
    this.state = initialTableState(settings, 8);
    this.step({ type: 'start' });
  }

  ctx(): MachineContext {
    let ids = 0;
    return { now: this.now, newId: () => `id-${++ids}` };
  }

  step(input: Parameters<TableMachine['step']>[1]): MachineOutcome {
    const outcome = this.machine.step(this.state, input, this.ctx());
    this.state = JSON.parse(JSON.stringify(outcome.state));
    return outcome;
  }

  read(code: string): void {
    this.now += 500;
    const card = parseCardCode(code)!;
    this.seq += 1;
    this.step({
      type: 'reading',
      readingId: String(this.seq),
      reading: {
        kind: 'card',
        card,
        code: `${card.rank}${card.suit}` as CardCode,
        raw: new Uint8Array(),
        receivedAt: this.now,
        sequence: this.seq,
      },
    });
  }

  /** Shows and burns the shoe's first cards, then opens round 1's betting. */
  openBetting(): this {
    const burn = ['2C', '3D', '4H', '5S', '6C', '7D', '8H', '9S', 'TC', 'JD', 'QH'];
    while (this.machine.expected(this.state)?.slot.startsWith('shoe-burn')) {
      this.read(burn.shift()!);
    }
    for (const t of [...this.state.timers]) {
      this.now = Math.max(this.now, t.dueAt);
      this.step({ type: 'timer', name: t.name, token: t.token });
    }
    expect(roundOf(this.state)?.roundNumber).toBe(1);
    return this;
  }

  /** One by one, as the HTTP API submits them. */
  oneByOne(inputs: readonly CommandInput[]): { outcomes: MachineOutcome[]; state: TableState } {
    let state = this.state;
    const outcomes: MachineOutcome[] = [];
    for (const input of inputs) {
      const outcome = this.machine.step(state, input, this.ctx());
      outcomes.push(outcome);
      state = outcome.state;
    }
    return { outcomes, state };
  }

  /** In batches, as the Kafka intake submits them (the rest of a batch is submitted again). */
  batched(inputs: readonly CommandInput[]): {
    results: ItemResult[];
    outcomes: MachineOutcome[];
    state: TableState;
  } {
    let state = this.state;
    const results: ItemResult[] = [];
    const outcomes: MachineOutcome[] = [];
    while (results.length < inputs.length) {
      const step = this.machine.stepCommands(state, inputs.slice(results.length), this.ctx());
      expect(step.results.length).toBeGreaterThan(0);
      results.push(...step.results);
      outcomes.push(step.outcome);
      state = step.outcome.state;
    }
    return { results, outcomes, state };
  }
}

function resultOf(outcome: MachineOutcome): ItemResult {
  return outcome.rejection
    ? { accepted: false, ...outcome.rejection }
    : { accepted: true, reply: outcome.reply ?? {} };
}

/**
 * Events as platforms read them: a batch announces its bets (decisions) as BetsAccepted
 * (DecisionsAccepted) events listing them, one command alone as one BetAccepted (DecisionAccepted).
 */
function perCommandEvents(events: MachineOutcome['writes']['events']): unknown[] {
  return events.flatMap((e) => {
    const p = e.payload as Record<string, unknown>;
    if (e.type === 'BetsAccepted') {
      expect(p.accepted).toBe((p.bets as unknown[]).length);
      return (p.bets as unknown[]).map((bet) => ({ ...e, type: 'BetAccepted', payload: bet }));
    }
    if (e.type === 'DecisionsAccepted') {
      expect(p.accepted).toBe((p.decisions as unknown[]).length);
      return (p.decisions as Array<Record<string, unknown>>).map((d) => ({
        ...e,
        type: 'DecisionAccepted',
        payload: { window: p.window, ...d },
      }));
    }
    return [e];
  });
}

function expectSameAsOneByOne(table: Table, inputs: CommandInput[]): ItemResult[] {
  const single = table.oneByOne(inputs);
  const batch = table.batched(inputs);
  expect(batch.results).toEqual(single.outcomes.map(resultOf));
  expect(perCommandEvents(batch.outcomes.flatMap((o) => o.writes.events))).toEqual(
    perCommandEvents(single.outcomes.flatMap((o) => o.writes.events)),
  );
  for (const key of ['bets', 'decisions', 'settlements', 'cards'] as const) {
    expect(batch.outcomes.flatMap((o) => o.writes[key] as unknown[])).toEqual(
      single.outcomes.flatMap((o) => o.writes[key] as unknown[]),
    );
  }
  // Compared as persisted: the state is stored as JSON.
  expect(JSON.parse(JSON.stringify(batch.state))).toEqual(JSON.parse(JSON.stringify(single.state)));
  return batch.results;
}

const players = fc.constantFrom('p1', 'p2', 'p3', 'p4', 'p5', 'p6', '');
const amounts = fc.constantFrom(100, 250, 1_000, 500_000, 0, 50, 600_000, 1.5, -100);
const betArb = fc.record(
  {
    playerId: players,
    betType: fc.constantFrom('main', 'main', 'main', 'pairs', 'player'),
    amount: amounts,
    sideBets: fc.dictionary(
      fc.constantFrom('pairs', 'bust-bonus', 'lucky-trio', 'bogus'),
      fc.constantFrom(0, 100, 50, 60_000),
      { maxKeys: 2 },
    ),
    roundId: fc.constantFrom(undefined, undefined, undefined, 'not-this-round'),
    spot: fc.constantFrom(undefined, '1', '2'),
  },
  { requiredKeys: ['playerId', 'betType', 'amount'] },
);

function betInputs(bets: ReadonlyArray<Omit<BetCommand, 'betId'>>): CommandInput[] {
  return bets.map((bet, i) => ({ type: 'bet', bet: { ...bet, betId: `bet-${i}` } }));
}

describe('TableMachine.stepCommands', () => {
  it('Infinite Blackjack: a batch of bets answers, writes and ends exactly as one by one', () => {
    fc.assert(
      fc.property(fc.array(betArb, { maxLength: 40 }), (bets) => {
        expectSameAsOneByOne(new Table('infinite-blackjack').openBetting(), betInputs(bets));
      }),
      { numRuns: 150 },
    );
  });

  it('Infinite Blackjack: a batch of decisions answers, writes and ends exactly as one by one', () => {
    const deciding = new Table('infinite-blackjack').openBetting();
    const placed = deciding.batched(
      betInputs(
        ['p1', 'p2', 'p3', 'p4'].map((p) => ({ playerId: p, betType: 'main', amount: 1_000 })),
      ),
    );
    expect(placed.results.every((r) => r.accepted)).toBe(true);
    deciding.state = placed.state;
    deciding.step({ type: 'close-betting', by: 'test' });
    // Player 9 5 (14), dealer 7 up: no insurance, no peek, the decision window opens.
    const cards: Record<string, string> = {
      'player/1': '9H',
      'dealer-up': '7S',
      'player/2': '5D',
      'dealer-hole': '8C',
    };
    for (let slot = deciding.machine.expected(deciding.state)?.slot; slot && cards[slot];) {
      deciding.read(cards[slot]);
      slot = deciding.machine.expected(deciding.state)?.slot;
    }
    expect(deciding.machine.adapter.phase(roundOf(deciding.state)!.engine)).toBe('deciding');
    const decisionArb = fc.record(
      {
        playerId: fc.constantFrom('p1', 'p2', 'p3', 'p4', 'p9'),
        action: fc.constantFrom('hit', 'stand', 'double', 'split', 'surrender', 'insurance', 'x'),
        roundId: fc.constantFrom(undefined, undefined, 'not-this-round'),
      },
      { requiredKeys: ['playerId', 'action'] },
    );
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(decisionArb, { maxLength: 30 }), (decisions) => {
        const results = expectSameAsOneByOne(
          deciding,
          decisions.map((d: DecisionCommand) => ({ type: 'decide', decision: d })),
        );
        for (const r of results) seen.add(r.accepted ? 'accepted' : r.code);
      }),
      { numRuns: 150 },
    );
    // The runs covered acceptance and each kind of refusal.
    expect([...seen].sort()).toEqual(
      ['accepted', 'illegal-action', 'unknown-player', 'unknown-round'].sort(),
    );
  });

  it('Pok Deng (no batch form in the game): one merged transition, same answers and rows', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            playerId: players,
            betType: fc.constantFrom('player', 'pair', 'main'),
            spot: fc.constantFrom('1', '2', '5', '6'),
            amount: fc.constantFrom(1_000, 5_000, 999, 2_000_000),
          }),
          { maxLength: 25 },
        ),
        (bets) => {
          const table = new Table('pok-deng').openBetting();
          const inputs = betInputs(bets);
          expectSameAsOneByOne(table, inputs);
          if (inputs.length > 0) {
            expect(
              table.machine.stepCommands(table.state, inputs, table.ctx()).results,
            ).toHaveLength(inputs.length);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("a bet's answer names what it took from the player (deducted)", () => {
  const reply = (table: Table, inputs: CommandInput[]) => {
    const [one] = table.oneByOne(inputs).outcomes.map(resultOf);
    const [batched] = table.batched(inputs).results;
    expect(batched).toEqual(one);
    return one.accepted ? one.reply : one;
  };

  it('Infinite Blackjack: the main bet and its side bets together', () => {
    const table = new Table('infinite-blackjack').openBetting();
    const bet = { playerId: 'p1', betType: 'main', amount: 1_000, commandId: 'c-1' };
    const sideBets = { pairs: 200, 'bust-bonus': 300 };
    expect(reply(table, betInputs([{ ...bet, sideBets }]))).toMatchObject({ deducted: 1_500 });
  });

  it('Pok Deng: a Player N bet with its equal deposit, a pair bet alone', () => {
    const table = new Table('pok-deng').openBetting();
    const player = { playerId: 'p1', betType: 'player', spot: '1', amount: 2_000 };
    expect(reply(table, betInputs([{ ...player, commandId: 'c-1' }]))).toMatchObject({
      deducted: 4_000,
    });
    const pair = { ...player, betType: 'pair', commandId: 'c-2' };
    expect(reply(table, betInputs([pair]))).toMatchObject({ deducted: 2_000 });
  });
});
