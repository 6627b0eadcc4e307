import { CardCode } from '@studio/cards';
import {
  EuropeanState,
  newEuropeanTable,
  playBotTurns,
  seatToAct,
  stepEuropean,
} from '@studio/games/blackjack';
import { DEFAULT_INGESTION_RULES } from '@studio/scanner-protocol';
import { ConfigError } from '../../common/config-error';
import {
  initialTableState,
  MachineContext,
  MachineOutcome,
  TableInput,
  TableMachine,
  TableSettings,
  TableState,
  TableWrites,
  roundOf,
} from '../../table-core/table-machine';
import { defaultLimits } from '../game-registry';
import { EuropeanPracticeAdapter } from './european-practice.adapter';
import { PracticeState } from './european-practice.state';

const settings: TableSettings = {
  tableId: 'practice-t',
  game: 'european-blackjack-practice',
  currency: 'XPT',
  bettingWindowMs: 5_000,
  roundIntervalMs: 1_000,
  limits: { ...defaultLimits('european-blackjack-practice') },
  ingestion: DEFAULT_INGESTION_RULES,
};

/** The shoe with `top` first (one copy each taken out of the rest), the rest in given order. */
function stacked(top: CardCode[], cards: readonly CardCode[]): CardCode[] {
  const rest = [...cards];
  for (const c of top) rest.splice(rest.indexOf(c), 1);
  return [...top, ...rest];
}

class Table {
  readonly adapter: EuropeanPracticeAdapter;
  readonly machine: TableMachine;
  state: TableState = initialTableState(settings, 6);
  now = Date.UTC(2026, 10, 29, 12, 0, 0);
  shoeOrder: CardCode[] = [];
  private ids = 0;
  readonly outcomes: MachineOutcome[] = [];

  constructor(
    private readonly top: CardCode[],
    rules: Record<string, unknown> = {},
  ) {
    this.adapter = new EuropeanPracticeAdapter({
      bettingWindowMs: 5_000,
      decisionWindowMs: 8_000,
      rules,
    });
    this.machine = new TableMachine(settings, this.adapter);
  }

  step(input: TableInput): MachineOutcome {
    const ctx: MachineContext = {
      now: this.now,
      newId: () => `id-${++this.ids}`,
      shuffle: (cards) => (this.shoeOrder = stacked(this.top, cards)),
    };
    const outcome = this.machine.step(this.state, input, ctx);
    this.state = JSON.parse(JSON.stringify(outcome.state));
    expect(this.state).toEqual(outcome.state);
    this.outcomes.push(outcome);
    return outcome;
  }

  fire(name: string): MachineOutcome {
    const t = this.state.timers.find((x) => x.name === name)!;
    expect(t).toBeDefined();
    this.now = Math.max(this.now, t.dueAt);
    return this.step({ type: 'timer', name: t.name, token: t.token });
  }

  decide(playerId: string, action: string): MachineOutcome {
    return this.step({ type: 'decide', decision: { playerId, action } });
  }

  get engine(): PracticeState {
    return roundOf(this.state)!.engine as PracticeState;
  }

  all<K extends 'settlements' | 'bets' | 'decisions' | 'cards'>(key: K): TableWrites[K] {
    return ([] as unknown[]).concat(...this.outcomes.map((o) => o.writes[key])) as TableWrites[K];
  }
}

// Shown card A (burn 1: KC), then the round: seats 1 (easy bot), 2 (hard bot), 4 (hana).
const BURN: CardCode[] = ['AH', 'KC'];
const ROUND: CardCode[] = [
  // First card to seats 1, 2, 4; dealer up; second card (bot 1: 16, bot 2: 11, hana: 8 8).
  ...(['TC', '9S', '8C', '6H', '6D', '2H', '8S'] as const),
  'TH', // hidden card
  '5C', // easy bot hits 16 (below 17): 21
  '9D', // hard bot doubles 11 against a 6: 20
  '3C', // hana splits: first hand 8 + 3
  'KS', // hana doubles the first hand: 21
  '2D', // second hand 8 + 2, hana stands on 10
  '4C', // dealer 6 + 10 + 4 = 20
];

function playedRound(): Table {
  const t = new Table([...BURN, ...ROUND]);
  t.step({ type: 'start' });
  // The service deals its own burn: no scanner, no card waits.
  expect(t.machine.expected(t.state)).toBeNull();
  t.fire('next-round');
  const { reply } = t.step({
    type: 'bet',
    bet: { betId: 'x', playerId: 'hana', betType: 'main', spot: '4', amount: 300 },
  });
  // The answer names the bet as its row (and so its settlement) is stored.
  expect(reply?.betId).toBe(t.all('bets').find((b) => b.playerId === 'hana')?.betId);
  t.fire('betting');
  // Bots played; hana's turn with a decision window.
  expect(seatToAct(t.engine.engine!)).toBe(4);
  expect(t.state.timers.map((x) => x.name)).toEqual(['decision']);
  for (const action of ['split', 'double', 'stand']) {
    expect(t.decide('hana', action).rejection).toBeUndefined();
  }
  return t;
}

describe('European practice table through the table machine', () => {
  it('deals from the recorded shoe, plays the bots and a human to settlement', () => {
    const t = playedRound();
    expect(roundOf(t.state)).toBeNull();
    expect(t.all('cards').map((c) => [c.slot, c.card, c.faceDown])).toEqual([
      ['shoe-burn/shown', 'AH', false],
      ['shoe-burn/1', 'KC', true],
      ['seat-1/1/1', 'TC', false],
      ['seat-2/1/1', '9S', false],
      ['seat-4/1/1', '8C', false],
      ['dealer-up', '6H', false],
      ['seat-1/1/2', '6D', false],
      ['seat-2/1/2', '2H', false],
      ['seat-4/1/2', '8S', false],
      ['dealer-hole', 'TH', true],
      ['seat-1/1/3', '5C', false],
      ['seat-2/1/3', '9D', false],
      ['seat-4/1/3', '3C', false],
      ['seat-4/1/4', 'KS', false],
      ['seat-4/2/5', '2D', false],
      ['dealer/3', '4C', false],
    ]);
    expect(t.all('decisions').map((d) => [d.playerId, d.hand, d.action, d.automatic])).toEqual([
      ['bot:1', '1/1', 'hit', true],
      ['bot:2', '2/1', 'double', true],
      ['hana', '4/1', 'split', false],
      ['hana', '4/1', 'double', false],
      ['hana', '4/2', 'stand', false],
    ]);
    // games.md: win +1, push 0, a split hand with 21 is no blackjack; doubled stakes count twice.
    expect(
      t.all('settlements').map((s) => [s.playerId, s.spot, s.stake, s.returned, s.net, s.outcome]),
    ).toEqual([
      ['bot:1', '1', 100, 200, 100, 'win'],
      ['bot:2', '2', 200, 200, 0, 'push'],
      ['hana', '4', 900, 1_200, 300, 'win,lose'],
    ]);
    const betIds = t.all('bets').map((b) => b.betId);
    expect(new Set(betIds).size).toBe(3);
    // hana's settlement carries the betId her bet's answer named.
    const answered = t.outcomes.map((o) => o.reply?.betId).filter((id) => id !== undefined);
    expect(answered).toEqual([t.all('settlements').find((s) => s.playerId === 'hana')?.betId]);
    expect(t.all('settlements').every((s) => betIds.includes(s.betId!))).toBe(true);
    // The hidden card is never public before the reveal.
    const events = t.outcomes.flatMap((o) => o.writes.events);
    const reveal = events.findIndex((e) => e.type === 'HiddenCardRevealed');
    expect(reveal).toBeGreaterThan(0);
    const early = events.slice(0, reveal).filter((e) => e.visibility === 'public');
    expect(early.map((e) => e.type)).toContain('CardDealtFaceDown');
    expect(early.every((e) => !JSON.stringify(e.payload).includes('TH'))).toBe(true);
    // The shuffled order is on record (restricted), for replay.
    const shuffled = events.find((e) => e.type === 'VirtualShoeShuffled')!;
    expect(shuffled.visibility).toBe('restricted');
    expect(shuffled.payload.order).toEqual(t.shoeOrder);
  });

  it('settles exactly as the engine run over the whole recorded order', () => {
    const t = playedRound();
    // The engine alone: the recorded order minus the burn, as one loaded shoe.
    const order = [...t.shoeOrder.slice(BURN.length), ...t.shoeOrder.slice(0, BURN.length)];
    let engine: EuropeanState = newEuropeanTable();
    const ok = (r: ReturnType<typeof stepEuropean>) => {
      if ('rejected' in r) throw new Error(r.rejected.message);
      return r.state;
    };
    engine = ok(
      stepEuropean(engine, {
        type: 'load-shoe',
        order,
        shuffle: { method: 'fisher-yates', source: 'crypto' },
      }),
    );
    engine = ok(
      stepEuropean(engine, {
        type: 'start-round',
        bets: [
          { seat: 1, occupant: { kind: 'bot', difficulty: 'easy' }, stake: 100 },
          { seat: 2, occupant: { kind: 'bot', difficulty: 'hard' }, stake: 100 },
          { seat: 4, occupant: { kind: 'player', playerId: 'hana' }, stake: 300 },
        ],
      }),
    );
    engine = playBotTurns(engine).state;
    for (const action of ['split', 'double', 'stand'] as const) {
      engine = ok(stepEuropean(engine, { type: 'decide', seat: 4, action }));
    }
    const expected = engine.round!.seats.map((s) => [
      s.seat,
      s.settlements!.reduce((x, h) => x + h.refunded + h.paid, 0),
    ]);
    expect(t.all('settlements').map((s) => [Number(s.spot), s.returned])).toEqual(expected);
    expect(engine.round!.dealer.draws).toEqual(['4C']);
  });

  it('auto-plays a silent human when the decision window ends, and voids with refunds', () => {
    const t = new Table([...BURN, ...ROUND], { bots: [{ seat: 3, level: 'normal' }] });
    t.step({ type: 'start' });
    t.fire('next-round');
    t.step({
      type: 'bet',
      bet: { betId: 'x', playerId: 'hana', betType: 'main', spot: '1', amount: 50 },
    });
    expect(
      t.step({
        type: 'bet',
        bet: { betId: 'y', playerId: 'ivan', betType: 'main', spot: '3', amount: 50 },
      }).rejection,
    ).toEqual(expect.objectContaining({ code: 'seat-taken' }));
    t.fire('betting');
    // Seats 1 and 3: hana TC 6H, the bot 9S 6D, dealer up 8C; hana acts first.
    expect(seatToAct(t.engine.engine!)).toBe(1);
    expect(t.decide('ivan', 'hit').rejection).toEqual(
      expect.objectContaining({ code: 'not-your-turn' }),
    );
    t.fire('decision'); // hana has 16: auto-play (hit while 11 or less) stands
    expect(t.all('decisions').map((d) => [d.playerId, d.action, d.automatic])).toEqual(
      expect.arrayContaining([['hana', 'stand', true]]),
    );
    expect(roundOf(t.state)).toBeNull();
    expect(t.all('settlements').map((s) => s.playerId)).toEqual(['hana', 'bot:3']);

    const v = new Table([...BURN, ...ROUND], { bots: [] });
    v.step({ type: 'start' });
    v.fire('next-round');
    v.step({ type: 'bet', bet: { betId: 'x', playerId: 'hana', betType: 'main', amount: 70 } });
    v.fire('betting');
    // hana alone: TC 8C (18) against 9S; she doubles anyway, draws 6D and busts.
    expect(v.decide('hana', 'double').rejection).toBeUndefined();
    expect(roundOf(v.state)).toBeNull();
    expect(v.all('settlements').map((s) => [s.stake, s.returned, s.outcome])).toEqual([
      [140, 0, 'bust'],
    ]);
    const w = new Table([...BURN, ...ROUND], { bots: [] });
    w.step({ type: 'start' });
    w.fire('next-round');
    w.step({ type: 'bet', bet: { betId: 'x', playerId: 'hana', betType: 'main', amount: 70 } });
    w.fire('betting');
    const voided = w.step({ type: 'void', by: 'sup', reason: 'test' });
    expect(voided.writes.settlements.map((s) => [s.stake, s.returned, s.outcome])).toEqual([
      [70, 70, 'void-refund'],
    ]);
  });

  it('bots decide from their view only: a different hidden card changes no bot decision', () => {
    const other = [...ROUND];
    other[7] = '5S'; // hidden card 5 instead of T
    const decisions = (round: CardCode[]) => {
      const t = new Table([...BURN, ...round], {
        bots: [
          { seat: 1, level: 'easy' },
          { seat: 2, level: 'hard' },
          { seat: 3, level: 'normal' },
        ],
      });
      t.step({ type: 'start' });
      t.fire('next-round');
      t.fire('betting');
      return t.all('decisions').map((d) => [d.playerId, d.action]);
    };
    const a = decisions(ROUND);
    expect(a.length).toBeGreaterThan(2);
    expect(decisions(other)).toEqual(a);
  });

  it('reads bots from the table rules and refuses a bad list', () => {
    expect(new EuropeanPracticeAdapter({ bettingWindowMs: 1, decisionWindowMs: 1 }).bots).toEqual([
      { seat: 1, level: 'easy' },
      { seat: 2, level: 'hard' },
    ]);
    expect(
      () =>
        new EuropeanPracticeAdapter({
          bettingWindowMs: 1,
          decisionWindowMs: 1,
          rules: { bots: [{ seat: 1, level: 'genius' }] },
        }),
    ).toThrow(ConfigError);
    expect(
      () =>
        new EuropeanPracticeAdapter({
          bettingWindowMs: 1,
          decisionWindowMs: 1,
          rules: { bots: [{ seat: 8, level: 'easy' }] },
        }),
    ).toThrow(/outside 1-7/);
  });
});
