import { InfiniteBlackjackAdapter } from '../games/infinite-blackjack/infinite-blackjack.adapter';
import type { BetCommand } from '../games/game-adapter';
import { settings, shoeReady, Table } from './pok-deng-table.testing';
import {
  initialTableState,
  pauseOf,
  roundOf,
  TableMachine,
  TableSettings,
  withRound,
} from './table-machine';

describe('TableMachine with Pok Deng', () => {
  it('plays a shoe start, a round of bets and face-down cards, reveal and settlement', () => {
    const t = shoeReady();
    expect(t.state.timers.map((x) => x.name)).toEqual(['betting']);
    expect(
      t.step({
        type: 'bet',
        bet: { betId: 'b1', playerId: 'p1', betType: 'player', spot: '1', amount: 100 },
      }).rejection,
    ).toBeUndefined();
    expect(
      t.step({
        type: 'bet',
        bet: { betId: 'b2', playerId: 'p2', betType: 'pair', spot: '1', amount: 100 },
      }).rejection,
    ).toBeUndefined();
    // Cards are dealt while betting is open: burn, P1..P5, banker, P1..P5, banker.
    expect(t.machine.expected(t.state)?.slot).toBe('burn');
    // Worked example 7: Player 1 holds TC TH, banker 6S 8S; example 1's banker is used for P2.
    for (const c of [
      '2D',
      'TC',
      '6C',
      '5D',
      '5H',
      '5S',
      '6S',
      'TH',
      '7S',
      '5C',
      '6H',
      '6D',
      '8S',
    ]) {
      const o = t.read(c);
      expect(o.rejection).toBeUndefined();
    }
    expect(t.machine.expected(t.state)).toBeNull();
    // Hidden information: the public events of dealing carry no card.
    const dealing = t.outcomes
      .flatMap((o) => o.writes.events)
      .filter((e) => e.visibility === 'public');
    expect(JSON.stringify(dealing)).not.toMatch(/"TC"|"TH"|"8S"/);
    t.fireDueTimers(); // betting window ends: close, reveal all, settle
    const settled = t.outcomes.flatMap((o) => o.writes.settlements);
    expect(settled).toEqual([
      expect.objectContaining({
        betId: 'b1',
        stake: 200,
        returned: 400,
        net: 200,
        outcome: 'player-wins-special-pattern',
      }),
      expect.objectContaining({
        betId: 'b2',
        stake: 100,
        returned: 1200,
        net: 1100,
        outcome: 'pair-wins',
      }),
    ]);
    expect(t.events()).toEqual(
      expect.arrayContaining([
        'BettingClosed',
        'HandRevealed',
        'RoundResult',
        'BetsSettled',
        'RoundCompleted',
      ]),
    );
    expect(roundOf(t.state)).toBeNull();
    expect(t.state.timers.map((x) => x.name)).toEqual(['next-round']);
  });

  it('rejects a bet after betting closed, over the limit, and an unknown bet type', () => {
    const t = shoeReady();
    expect(
      t.step({
        type: 'bet',
        bet: { betId: 'b1', playerId: 'p1', betType: 'player', spot: '1', amount: 5 },
      }).rejection?.code,
    ).toBe('under-limit');
    expect(
      t.step({
        type: 'bet',
        bet: { betId: 'b1', playerId: 'p1', betType: 'player', spot: '1', amount: 200_000 },
      }).rejection?.code,
    ).toBe('over-limit');
    expect(
      t.step({
        type: 'bet',
        bet: { betId: 'b1', playerId: 'p1', betType: 'banker', spot: '1', amount: 100 },
      }).rejection?.code,
    ).toBe('unknown-bet-type');
    t.step({ type: 'close-betting', by: 'dealer' });
    const late = t.step({
      type: 'bet',
      bet: { betId: 'b9', playerId: 'p1', betType: 'player', spot: '1', amount: 100 },
    });
    expect(late.rejection).toEqual({
      code: 'betting-closed',
      message: 'Betting is closed for this round',
    });
    expect(late.writes.bets).toEqual([]);
  });

  it('keeps the slot open through misreads and escalates to a supervisor after the limit', () => {
    const t = shoeReady();
    t.read('2D'); // burn
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const o = t.misread();
      expect(o.writes.events.find((e) => e.type === 'RescanRequired')?.payload).toMatchObject({
        slot: 'player-1/1',
        attempt,
      });
      expect(pauseOf(t.state)).toBeNull();
      expect(t.machine.expected(t.state)?.slot).toBe('player-1/1');
    }
    const fifth = t.misread();
    expect(fifth.writes.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['RescanRequired', 'SupervisorAlert', 'RoundPaused']),
    );
    expect(pauseOf(t.state)?.kind).toBe('escalation');
    expect(t.state.timers).toEqual([]);
    // A supervisor resumes; the same slot is still expected and the card applies.
    expect(t.step({ type: 'resume', by: 'supervisor' }).rejection).toBeUndefined();
    expect(t.state.timers.map((x) => x.name)).toEqual(['betting']);
    expect(t.read('TC').writes.cards).toEqual([
      expect.objectContaining({ slot: 'player-1/1', card: 'TC', faceDown: true }),
    ]);
  });

  it('voids a round and refunds every bet', () => {
    const t = shoeReady();
    t.step({
      type: 'bet',
      bet: { betId: 'b1', playerId: 'p1', betType: 'player', spot: '2', amount: 100 },
    });
    t.step({
      type: 'bet',
      bet: { betId: 'b2', playerId: 'p2', betType: 'pair', spot: '3', amount: 50 },
    });
    t.step({ type: 'pause', by: 'sup', reason: 'card fell on the floor' });
    const voided = t.step({ type: 'void', by: 'sup', reason: 'card fell on the floor' });
    expect(voided.rejection).toBeUndefined();
    expect(voided.writes.settlements.map((s) => [s.betId, s.stake, s.returned, s.net])).toEqual([
      ['b1', 200, 200, 0],
      ['b2', 50, 50, 0],
    ]);
    expect(voided.writes.roundStatus).toMatchObject({ status: 'voided', ended: true });
    expect(pauseOf(t.state)).toBeNull();
    expect(roundOf(t.state)).toBeNull();
  });

  it('corrects a face-down card before the reveal and refuses one that is face up', () => {
    const t = shoeReady();
    for (const c of ['2D', 'TC', '6C']) t.read(c);
    const fix = t.step({
      type: 'correct-card',
      by: 'sup',
      slot: 'player-2/1',
      card: '7C',
      reason: 'mis-scan',
    });
    expect(fix.rejection).toBeUndefined();
    expect(fix.writes.corrections).toEqual([
      { slot: 'player-2/1', roundId: roundOf(t.state)!.id, card: '7C', reason: 'mis-scan' },
    ]);
    expect(t.state.faceDownCards['player-2/1']).toBe('7C');
    expect(
      t.step({ type: 'correct-card', by: 'sup', slot: 'player-4/1', card: '7C', reason: 'x' })
        .rejection?.code,
    ).toBe('not-correctable');
  });

  it("refuses a slot named like a property every object inherits ('constructor') as not correctable", () => {
    const t = shoeReady();
    for (const c of ['2D', 'TC', '6C']) t.read(c);
    // A slot id the schema admits (lowercase letters): the face-down cards are a plain object, and
    // reading 'constructor' from one found Object itself, which broke the step (a 500).
    for (const slot of ['constructor', 'tostring']) {
      const fix = t.step({ type: 'correct-card', by: 'sup', slot, card: '7C', reason: 'x' });
      expect(fix.rejection?.code).toBe('not-correctable');
      expect(fix.writes.corrections).toEqual([]);
    }
    expect(Object.keys(t.state.faceDownCards)).not.toContain('constructor');
  });

  it('refuses a card when none is expected and a ninth copy of a card', () => {
    const t = new Table();
    t.step({ type: 'start' });
    t.read('9S'); // shown: burn 9
    for (const c of ['AS', 'AS', 'AS', 'AS', 'AS', 'AS', 'AS', 'AS'])
      expect(t.read(c).rejection).toBeUndefined();
    t.read('2C');
    expect(t.machine.expected(t.state)).toBeNull();
    const notExpected = t.read('3C');
    expect(notExpected.rejection?.code).toBe('no-card-expected');
    expect(notExpected.writes.readingOutcome?.outcome).toBe('not-expected');
    t.fireDueTimers();
    const ninth = t.read('AS');
    expect(ninth.rejection?.code).toBe('composition-exceeded');
    expect(ninth.writes.readingOutcome?.outcome).toBe('integrity-error');
    expect(ninth.writes.events.find((e) => e.type === 'SupervisorAlert')?.payload).toEqual({
      kind: 'composition',
      message: 'A 9th copy of a card in a 8-deck shoe',
    });
  });
});

describe('TableMachine with Infinite Blackjack', () => {
  const ibjSettings: TableSettings = {
    ...settings,
    tableId: 'ibj-1',
    game: 'infinite-blackjack',
    currency: 'EUR',
    limits: { main: { min: 100, max: 100_000 }, pairs: { min: 100, max: 10_000 } },
  };

  function ibjTable(): Table {
    const t = new Table();
    (t as { machine: TableMachine }).machine = new TableMachine(
      ibjSettings,
      new InfiniteBlackjackAdapter({ bettingWindowMs: 15_000, decisionWindowMs: 10_000 }),
    );
    t.state = initialTableState(ibjSettings, 8);
    t.step({ type: 'start' });
    t.read('2C'); // shown: burn 2
    t.read('5D');
    t.read('6D');
    t.fireDueTimers();
    return t;
  }

  it('deals, auto-plays a silent player, keeps the hole card secret and pays 1:1 against 17', () => {
    const t = ibjTable();
    expect(
      t.step({
        type: 'bet',
        bet: { betId: 'x', playerId: 'p1', betType: 'main', amount: 100, sideBets: { pairs: 100 } },
      }).rejection,
    ).toBeUndefined();
    expect(
      t.step({ type: 'bet', bet: { betId: 'y', playerId: 'p2', betType: 'main', amount: 300 } })
        .rejection,
    ).toBeUndefined();
    expect(
      t.step({ type: 'bet', bet: { betId: 'z', playerId: 'p2', betType: 'main', amount: 300 } })
        .rejection?.code,
    ).toBe('duplicate-bet');
    t.fireDueTimers(); // betting closes
    expect(t.machine.expected(t.state)?.slot).toBe('player/1');
    t.read('TS');
    t.read('7C');
    t.read('9H');
    expect(t.machine.expected(t.state)?.slot).toBe('dealer-hole');
    const hole = t.read('TD');
    expect(hole.writes.cards).toEqual([
      expect.objectContaining({ slot: 'dealer-hole', card: 'TD', faceDown: true }),
    ]);
    const publicSoFar = t.outcomes
      .flatMap((o) => o.writes.events)
      .filter((e) => e.visibility === 'public');
    expect(JSON.stringify(publicSoFar)).not.toContain('TD');
    expect(
      t.step({ type: 'decide', decision: { playerId: 'p1', action: 'stand' } }).rejection,
    ).toBeUndefined();
    t.fireDueTimers(); // decision window: p2 auto-plays (19 > 11: stand)
    const settlements = t.outcomes.flatMap((o) => o.writes.settlements);
    expect(settlements.map((s) => [s.playerId, s.betType, s.stake, s.returned])).toEqual([
      ['p1', 'main', 100, 200],
      ['p1', 'pairs', 100, 0],
      ['p2', 'main', 300, 600],
    ]);
    // Platforms hear every settlement, batched.
    const announced = t.outcomes
      .flatMap((o) => o.writes.events)
      .filter((e) => e.type === 'BetsSettled' && e.visibility === 'public');
    expect(announced).toHaveLength(1);
    expect(announced[0].payload).toMatchObject({ batch: 1, batches: 1 });
    expect((announced[0].payload.settlements as unknown[]).length).toBe(3);
    expect(t.outcomes.flatMap((o) => o.writes.reveals)).toEqual([
      expect.objectContaining({ slot: 'dealer-hole' }),
    ]);
    expect(roundOf(t.state)).toBeNull();
  });
});

describe('TableMachine rejections, one per reason code', () => {
  const ibjSettings: TableSettings = {
    ...settings,
    tableId: 'ibj-r',
    game: 'infinite-blackjack',
    currency: 'EUR',
    limits: { main: { min: 100, max: 1_000 }, pairs: { min: 100, max: 500 } },
  };
  function ibj(): Table {
    const t = new Table();
    (t as { machine: TableMachine }).machine = new TableMachine(
      ibjSettings,
      new InfiniteBlackjackAdapter({ bettingWindowMs: 15_000, decisionWindowMs: 10_000 }),
    );
    t.state = initialTableState(ibjSettings, 8);
    t.step({ type: 'start' });
    t.read('AC'); // shown: burn 1
    t.read('5D');
    t.fireDueTimers();
    return t;
  }
  const bet = (t: Table, extra: Partial<BetCommand> = {}) =>
    t.step({
      type: 'bet',
      bet: { betId: 'b', playerId: 'p1', betType: 'main', amount: 200, ...extra },
    });

  it('betting-closed', () => {
    const t = ibj();
    t.step({ type: 'close-betting', by: 'dealer' });
    expect(bet(t).rejection?.code).toBe('betting-closed');
  });

  it('over-limit and under-limit, for main and side bets', () => {
    const t = ibj();
    expect(bet(t, { amount: 1_001 }).rejection).toEqual({
      code: 'over-limit',
      message: 'The maximum main bet is 1000 (got 1001)',
    });
    expect(bet(t, { amount: 99 }).rejection?.code).toBe('under-limit');
    expect(bet(t, { sideBets: { pairs: 501 } }).rejection?.code).toBe('over-limit');
  });

  it('a bet of exactly the minimum or the maximum is within the limits (main and side bets)', () => {
    const t = ibj();
    const amounts: Array<Partial<BetCommand>> = [
      { betId: 'b1', playerId: 'p1', amount: 100 },
      { betId: 'b2', playerId: 'p2', amount: 1_000 },
      { betId: 'b3', playerId: 'p3', amount: 100, sideBets: { pairs: 100 } },
      { betId: 'b4', playerId: 'p4', amount: 100, sideBets: { pairs: 500 } },
    ];
    for (const extra of amounts) expect(bet(t, extra).rejection).toBeUndefined();
  });

  it('side-bet-not-offered after its round of the shoe (Pairs: 40)', () => {
    const t = ibj();
    t.state = withRound(t.state, (round) => ({ ...round, roundNumber: 41 }));
    expect(bet(t, { sideBets: { pairs: 100 } }).rejection).toEqual({
      code: 'side-bet-not-offered',
      message: 'The pairs bet is not offered after round 40 of the shoe',
    });
    expect(bet(t, { sideBets: { 'lucky-trio': 100 } }).rejection).toBeUndefined();
  });

  it('illegal-action: splitting a hand that is not a pair', () => {
    const t = ibj();
    bet(t);
    t.fireDueTimers();
    for (const c of ['9S', '7C', '5H', 'TD']) t.read(c);
    const r = t.step({ type: 'decide', decision: { playerId: 'p1', action: 'split' } });
    expect(r.rejection?.code).toBe('illegal-action');
  });

  it('unknown-player: a decision from someone with no bet', () => {
    const t = ibj();
    bet(t);
    t.fireDueTimers();
    for (const c of ['9S', '7C', '5H', 'TD']) t.read(c);
    expect(
      t.step({ type: 'decide', decision: { playerId: 'stranger', action: 'hit' } }).rejection?.code,
    ).toBe('unknown-player');
  });

  it('betting-closed for a late bet naming the round that just ended', () => {
    const t = ibj();
    const roundId = roundOf(t.state)!.id;
    t.step({ type: 'void', by: 'sup', reason: 'table closed' });
    expect(roundOf(t.state)).toBeNull();
    expect(bet(t, { roundId }).rejection).toEqual({
      code: 'betting-closed',
      message: `Round ${roundId} has ended; betting is closed`,
    });
  });

  it('unknown-round: a command for a round that is not in progress', () => {
    const t = ibj();
    expect(bet(t, { roundId: 'round-from-yesterday' }).rejection?.code).toBe('unknown-round');
    expect(bet(t, { roundId: roundOf(t.state)!.id }).rejection).toBeUndefined();
  });

  it('table-paused, already-paused, not-paused and reason-required', () => {
    const t = ibj();
    expect(t.step({ type: 'resume', by: 'sup' }).rejection?.code).toBe('not-paused');
    expect(t.step({ type: 'void', by: 'sup', reason: ' ' }).rejection?.code).toBe(
      'reason-required',
    );
    t.step({ type: 'pause', by: 'sup', reason: 'check' });
    expect(t.step({ type: 'pause', by: 'sup', reason: 'again' }).rejection?.code).toBe(
      'already-paused',
    );
    expect(bet(t).rejection?.code).toBe('table-paused');
  });

  it('round-in-progress: the shoe cannot end in the middle of a round', () => {
    const t = ibj();
    expect(t.step({ type: 'end-shoe', by: 'sup', reason: 'damaged card' }).rejection?.code).toBe(
      'round-in-progress',
    );
  });
});
