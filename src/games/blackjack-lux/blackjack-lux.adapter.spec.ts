import { CardCode, parseCardCode } from '@studio/cards';
import type { LuxState } from '@studio/games/blackjack';
import { DEFAULT_INGESTION_RULES, ScannerReading } from '@studio/scanner-protocol';
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
import { BetCommand, SettlementRecord } from '../game-adapter';
import { BlackjackLuxAdapter } from './blackjack-lux.adapter';

const settings: TableSettings = {
  tableId: 'lux-t',
  game: 'blackjack-lux',
  currency: 'EUR',
  bettingWindowMs: 15_000,
  roundIntervalMs: 3_000,
  limits: { ...defaultLimits('blackjack-lux') },
  ingestion: DEFAULT_INGESTION_RULES,
};

class Table {
  readonly adapter: BlackjackLuxAdapter;
  readonly machine: TableMachine;

  constructor(rules: Record<string, unknown> = {}) {
    this.adapter = new BlackjackLuxAdapter({
      bettingWindowMs: 15_000,
      decisionWindowMs: 10_000,
      limits: settings.limits,
      rules,
    });
    this.machine = new TableMachine(settings, this.adapter);
  }

  state: TableState = initialTableState(settings, 8);
  now = Date.UTC(2026, 10, 29, 12, 0, 0);
  private ids = 0;
  private seq = 0;
  readonly outcomes: MachineOutcome[] = [];

  step(input: TableInput): MachineOutcome {
    const ctx: MachineContext = { now: this.now, newId: () => `id-${++this.ids}` };
    const outcome = this.machine.step(this.state, input, ctx);
    // The state must survive persistence (JSON) at every step.
    this.state = JSON.parse(JSON.stringify(outcome.state));
    expect(this.state).toEqual(outcome.state);
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
    const outcome = this.step({ type: 'reading', readingId: String(this.seq), reading });
    expect(outcome.rejection).toBeUndefined();
    return outcome;
  }

  bet(bet: Omit<BetCommand, 'betId'>): MachineOutcome {
    return this.step({ type: 'bet', bet: { betId: `cmd-${this.seq++}`, ...bet } });
  }

  decide(playerId: string, action: string, seat?: string): MachineOutcome {
    return this.step({ type: 'decide', decision: { playerId, action, seat } });
  }

  fire(name: string): MachineOutcome {
    const t = this.state.timers.find((x) => x.name === name)!;
    expect(t).toBeDefined();
    this.now = Math.max(this.now, t.dueAt);
    return this.step({ type: 'timer', name: t.name, token: t.token });
  }

  all<K extends 'settlements' | 'bets' | 'decisions' | 'cards'>(key: K): TableWrites[K] {
    return ([] as unknown[]).concat(...this.outcomes.map((o) => o.writes[key])) as TableWrites[K];
  }

  events() {
    return this.outcomes.flatMap((o) => o.writes.events);
  }
}

/** A fresh shoe (first card 2: burn 2 more), then round 1 opens for bets. */
function roundOpen(rules: Record<string, unknown> = {}): Table {
  const t = new Table(rules);
  t.step({ type: 'start' });
  for (const c of ['2C', 'KD', '4H']) t.read(c);
  t.fire('next-round');
  expect(roundOf(t.state)?.roundNumber).toBe(1);
  expect(t.adapter.isBettingOpen(roundOf(t.state)!.engine as never)).toBe(true);
  return t;
}

const byBet = (rows: SettlementRecord[]) =>
  Object.fromEntries(
    rows.map((s) => [
      `${s.playerId}/${s.spot}/${s.betType}`,
      [s.stake, s.returned, s.net, s.outcome, s.roundedDown],
    ]),
  );

describe('Blackjack Lux through the table machine', () => {
  it('plays seat bets, a bet behind that follows a double and pair bets to settlement', () => {
    const t = roundOpen();
    expect(t.bet({ playerId: 'alice', betType: 'main', spot: '1', amount: 1_000 }).rejection).toBe(
      undefined,
    );
    expect(t.bet({ playerId: 'alice', betType: 'pairs', spot: '1', amount: 100 }).rejection).toBe(
      undefined,
    );
    expect(t.bet({ playerId: 'bob', betType: 'main', spot: '3', amount: 1_001 }).rejection).toBe(
      undefined,
    );
    expect(
      t.bet({ playerId: 'carol', betType: 'bet-behind', spot: '1', amount: 500 }).rejection,
    ).toBeUndefined();
    expect(t.bet({ playerId: 'dan', betType: 'pairs', spot: '3', amount: 100 }).rejection).toBe(
      undefined,
    );
    // Refusals with reasons: a taken seat, a second seat bet, a bet behind an empty seat.
    expect(
      t.bet({ playerId: 'erin', betType: 'main', spot: '1', amount: 1_000 }).rejection,
    ).toEqual(expect.objectContaining({ code: 'seat-taken' }));
    expect(t.bet({ playerId: 'bob', betType: 'main', spot: '3', amount: 1_000 }).rejection).toEqual(
      expect.objectContaining({ code: 'duplicate-bet' }),
    );
    expect(
      t.bet({ playerId: 'erin', betType: 'bet-behind', spot: '5', amount: 500 }).rejection,
    ).toEqual(expect.objectContaining({ code: 'unknown-seat' }));
    expect(t.bet({ playerId: 'erin', betType: 'main', spot: '2', amount: 400 }).rejection).toEqual(
      expect.objectContaining({ code: 'under-limit' }),
    );
    expect(t.decide('carol', 'follow-double').rejection).toBeUndefined();
    expect(
      t.bet({ playerId: 'alice', betType: 'main', spot: '9', amount: 1_000 }).rejection,
    ).toEqual(expect.objectContaining({ code: 'unknown-seat' }));

    t.fire('betting');
    // Deal: seat 1, seat 3, dealer up, seat 1, seat 3, hole card (face down).
    const slots: string[] = [];
    for (const c of ['8H', 'AS', '9C', '8D', 'KH', '7D']) {
      slots.push(t.machine.expected(t.state)!.slot);
      t.read(c);
    }
    expect(slots).toEqual([
      'seat-1/1/1',
      'seat-3/1/1',
      'dealer-up',
      'seat-1/1/2',
      'seat-3/1/2',
      'dealer-hole',
    ]);
    expect(t.state.faceDownCards).toEqual({ 'dealer-hole': '7D' });
    // Alice (16) doubles; carol follows; bob holds a blackjack and is never asked.
    expect(t.decide('bob', 'hit', '3').rejection).toEqual(
      expect.objectContaining({ code: 'not-your-turn' }),
    );
    expect(t.decide('alice', 'double').rejection).toBeUndefined();
    expect(t.machine.expected(t.state)?.slot).toBe('seat-1/1/3');
    t.read('3S'); // alice 19
    expect(t.machine.expected(t.state)?.slot).toBe('dealer/3');
    t.read('TC'); // dealer 9 + 7 + 10 = 26: bust
    expect(roundOf(t.state)).toBeNull();

    // games.md: win 1:1, BJ 3:2 (rounded down: 1001 x 3/2 = 1501.5), coloured pair 10:1.
    expect(byBet(t.all('settlements'))).toEqual({
      'alice/1/main': [2_000, 4_000, 2_000, 'win', '0'],
      'alice/1/pairs': [100, 1_100, 1_000, 'coloured-pair', '0'],
      'bob/3/main': [1_001, 2_502, 1_501, 'blackjack', '1/2'],
      'carol/1/bet-behind': [1_000, 2_000, 1_000, 'win', '0'],
      'dan/3/pairs': [100, 0, -100, 'lose', '0'],
    });
    // Every settlement settles a bet row of the round.
    const betIds = new Set(t.all('bets').map((b) => b.betId));
    expect(betIds.size).toBe(5);
    expect(t.all('settlements').every((s) => betIds.has(s.betId!))).toBe(true);
    expect(t.all('decisions').map((d) => [d.playerId, d.hand, d.action, d.automatic])).toEqual([
      ['carol', '1', 'follow-double', false],
      ['alice', '1/1', 'double', false],
    ]);
    // The hole card is absent from every public event until the reveal.
    const events = t.events();
    const reveal = events.findIndex((e) => e.type === 'HoleCardRevealed');
    expect(reveal).toBeGreaterThan(0);
    const before = events.slice(0, reveal).filter((e) => e.visibility === 'public');
    expect(before.map((e) => e.type)).toContain('CardDealtFaceDown');
    expect(before.every((e) => !JSON.stringify(e.payload).includes('7D'))).toBe(true);
    expect(
      events.find((e) => e.type === 'CardDealt' && e.visibility === 'restricted')?.payload,
    ).toEqual({ slot: 'dealer-hole', card: '7D' });
    expect(t.outcomes.flatMap((o) => o.writes.reveals).map((r) => r.slot)).toEqual(['dealer-hole']);
  });

  it('sells insurance to the seat and a bettor behind, and ends at once on a dealer blackjack', () => {
    const t = roundOpen();
    t.bet({ playerId: 'alice', betType: 'main', spot: '2', amount: 1_000 });
    t.bet({
      playerId: 'bob',
      betType: 'bet-behind',
      spot: '2',
      amount: 401,
      sideBets: { pairs: 100 },
    });
    t.fire('betting');
    for (const c of ['9H', 'AS', '9D', 'KD']) t.read(c);
    expect(t.adapter.phase(roundOf(t.state)!.engine as never)).toBe('insurance');
    // Before the check the hole card may still be corrected (a mis-scan).
    expect(
      t.step({
        type: 'correct-card',
        by: 'sup',
        slot: 'dealer-hole',
        card: 'QD',
        reason: 'misread',
      }).rejection,
    ).toBeUndefined();
    expect(t.decide('alice', 'insurance').rejection).toBeUndefined();
    expect(t.decide('bob', 'insurance', '2').rejection).toBeUndefined();
    t.fire('insurance');
    expect(roundOf(t.state)).toBeNull();
    // Insurance costs half the main stake (401 / 2 rounds down to 200) and pays 2:1.
    expect(byBet(t.all('settlements'))).toEqual({
      'alice/2/main': [1_000, 0, -1_000, 'lose', '0'],
      'alice/2/insurance': [500, 1_500, 1_000, 'win', '0'],
      'bob/2/bet-behind': [401, 0, -401, 'lose', '0'],
      'bob/2/pairs': [100, 1_100, 1_000, 'coloured-pair', '0'],
      'bob/2/insurance': [200, 600, 400, 'win', '0'],
    });
    expect(
      t
        .all('bets')
        .filter((b) => b.betType === 'insurance')
        .map((b) => b.amount),
    ).toEqual([500, 200]);
    const betIds = new Set(t.all('bets').map((b) => b.betId));
    expect(t.all('settlements').every((s) => betIds.has(s.betId!))).toBe(true);
  });

  it('auto-plays a missed decision, applies a pre-decision, ignores stale timers, voids with refunds', () => {
    const t = roundOpen();
    t.bet({ playerId: 'alice', betType: 'main', spot: '1', amount: 1_000 });
    t.bet({ playerId: 'bob', betType: 'main', spot: '4', amount: 2_000 });
    expect(t.decide('bob', 'pre:stand').rejection).toBeUndefined();
    expect(t.decide('bob', 'pre:fly').rejection).toEqual(
      expect.objectContaining({ code: 'illegal-action' }),
    );
    t.fire('betting');
    for (const c of ['5H', 'TD', '6C', '4S', '8D', '9S']) t.read(c);
    // A timer of a window that is already closed changes nothing.
    const engine = roundOf(t.state)!.engine as Parameters<typeof t.adapter.phase>[0];
    expect(t.adapter.timerFired(engine, 'betting', 1)).toEqual({ state: engine, events: [] });
    expect(t.adapter.timerFired(engine, 'decision', engine.window - 1)).toEqual({
      state: engine,
      events: [],
    });
    // The hole card under a 6 is never checked: it may be corrected until it is revealed.
    expect(
      t.step({ type: 'correct-card', by: 'sup', slot: 'dealer-hole', card: '9H', reason: 'x' })
        .rejection,
    ).toBeUndefined();
    // Alice (9) misses her decision: auto-play hits while 11 or less.
    t.fire('decision');
    t.read('2D'); // alice 11: still hits automatically next time
    t.fire('decision');
    t.read('KC'); // alice 21: closed; bob's pre-decision (stand on 18) is applied
    expect(t.all('decisions').map((d) => [d.playerId, d.hand, d.action, d.automatic])).toEqual([
      ['bob', '4', 'pre:stand', false],
      ['alice', '1/1', 'hit', true],
      ['alice', '1/1', 'hit', true],
    ]);
    expect(t.events().map((e) => e.type)).toContain('PreDecisionApplied');
    expect(t.machine.expected(t.state)?.slot).toBe('dealer/3');
    const voided = t.step({ type: 'void', by: 'sup', reason: 'table closed' });
    expect(voided.rejection).toBeUndefined();
    expect(
      voided.writes.settlements.map((s) => [s.playerId, s.stake, s.returned, s.outcome]),
    ).toEqual([
      ['alice', 1_000, 1_000, 'void-refund'],
      ['bob', 2_000, 2_000, 'void-refund'],
    ]);
  });

  it('gives split hands their own slots; a bet behind follows the split but not the double', () => {
    const t = roundOpen({ doubleAfterSplit: true }); // a table that allows double after split
    t.bet({ playerId: 'alice', betType: 'main', spot: '1', amount: 1_000 });
    t.bet({ playerId: 'carol', betType: 'bet-behind', spot: '1', amount: 500 });
    expect(t.decide('carol', 'follow-split', '1').rejection).toBeUndefined();
    expect(t.decide('alice', 'follow-split', '1').rejection).toEqual(
      expect.objectContaining({ code: 'unknown-player' }),
    );
    t.fire('betting');
    for (const c of ['8H', '6C', '8S', '9D']) t.read(c);
    expect(t.decide('alice', 'split').rejection).toBeUndefined();
    const slots: string[] = [];
    const play = (card: string, action?: string) => {
      slots.push(t.machine.expected(t.state)!.slot);
      t.read(card);
      if (action) expect(t.decide('alice', action).rejection).toBeUndefined();
    };
    play('3D', 'double'); // first hand 8 + 3, doubled
    play('TC'); // 21
    play('2C', 'stand'); // second hand 8 + 2
    play('7H'); // dealer 6 + 9 + 7 = 22
    expect(slots).toEqual(['seat-1/1/3', 'seat-1/1/4', 'seat-1/2/5', 'dealer/3']);
    expect(new Set(t.all('cards').map((c) => c.slot)).size).toBe(t.all('cards').length);
    expect(byBet(t.all('settlements'))).toEqual({
      'alice/1/main': [3_000, 6_000, 3_000, 'win,win', '0'],
      'carol/1/bet-behind': [1_000, 2_000, 1_000, 'win,win', '0'],
    });
  });

  it('refuses to correct the hole card once the dealer has checked it', () => {
    const t = roundOpen();
    t.bet({ playerId: 'alice', betType: 'main', spot: '1', amount: 1_000 });
    t.fire('betting');
    for (const c of ['5H', 'TD', '6C', '4S']) t.read(c);
    expect(
      t.step({ type: 'correct-card', by: 'sup', slot: 'dealer-hole', card: '9H', reason: 'x' })
        .rejection,
    ).toEqual(expect.objectContaining({ code: 'not-correctable' }));
  });
});

describe('Lux seats outlive a round', () => {
  /** Seats (from the engine state) as seat number -> player. */
  const seated = (t: Table) =>
    Object.fromEntries(
      (
        roundOf(t.state)?.engine as { seats: Array<{ seat: number; playerId: string | null }> }
      ).seats
        .filter((s) => s.playerId)
        .map((s) => [s.seat, s.playerId]),
    );

  function playOut(t: Table, players: string[]) {
    t.fire('betting');
    // One card per occupied seat, the up card, a second card per seat, the hole card.
    for (let i = 0; i < players.length; i += 1) t.read('TH');
    t.read('7C');
    for (let i = 0; i < players.length; i += 1) t.read('9D');
    t.read('TS');
    for (const p of players) t.decide(p, 'stand');
    expect(roundOf(t.state)).toBeNull(); // settled: 19 against the dealer's 17
    t.fire('next-round');
  }

  it('keeps a seated player seated for the next round and frees the seat in the round after the round of grace', () => {
    // games.md §3: "A player who held a seat in one round and places no seat bet in the next may
    // stay for that round but is removed in the round after."
    const t = roundOpen();
    expect(
      t.bet({ playerId: 'alice', betType: 'main', spot: '1', amount: 1_000 }).rejection,
    ).toBeUndefined();
    playOut(t, ['alice']);
    // Round 2: alice still holds seat 1 without taking it again; she sits this round out.
    expect(seated(t)).toEqual({ 1: 'alice' });
    expect(
      t.bet({ playerId: 'erin', betType: 'main', spot: '1', amount: 1_000 }).rejection?.code,
    ).toBe('seat-taken');
    expect(
      t.bet({ playerId: 'bob', betType: 'main', spot: '3', amount: 1_000 }).rejection,
    ).toBeUndefined();
    playOut(t, ['bob']);
    // Round 3 (rule change): alice is removed as it opens, whether or not she would bet in it.
    expect(seated(t)).toEqual({ 3: 'bob' });
    expect(
      t.bet({ playerId: 'bob', betType: 'main', spot: '3', amount: 1_000 }).rejection,
    ).toBeUndefined();
    t.fire('betting');
    expect(seated(t)).toEqual({ 3: 'bob' });
  });

  it('removes a seated player whose seat bet the table refused when the countdown ends', () => {
    // games.md §3: "If, when the betting countdown ends, a seated player has no valid seat bet
    // (too small, or it failed), the player is removed from the seat, and every bet-behind and
    // pair bet on that seat is returned."
    const t = roundOpen();
    t.bet({ playerId: 'alice', betType: 'main', spot: '1', amount: 1_000 });
    t.bet({ playerId: 'bob', betType: 'main', spot: '3', amount: 1_000 });
    playOut(t, ['alice', 'bob']);
    // Round 2: alice's seat bet is below the table minimum; carol bets behind her seat.
    const tooSmall = { betId: 'x', playerId: 'alice', betType: 'main', spot: '1', amount: 10 };
    expect(t.bet(tooSmall).rejection?.code).toBeDefined();
    expect(
      t.bet({ playerId: 'carol', betType: 'bet-behind', spot: '1', amount: 500 }).rejection,
    ).toBeUndefined();
    t.bet({ playerId: 'bob', betType: 'main', spot: '3', amount: 1_000 });
    // The table refused the bet and handed the refusal to the game (GameAdapter.betRefused).
    const engine = roundOf(t.state)!.engine as LuxState;
    expect(engine.seats[0].playerId).toBe('alice');
    t.fire('betting');
    expect(seated(t)).toEqual({ 3: 'bob' });
    expect(t.events().map((e) => e.type)).toEqual(
      expect.arrayContaining(['SeatBetFailed', 'SeatRemoved', 'BetsReturned']),
    );
    // A player with a valid seat bet, or not holding the seat, loses nothing by a refusal.
    expect(t.adapter.betRefused(engine, { ...tooSmall, playerId: 'bob', spot: '3' })).toBeNull();
    expect(t.adapter.betRefused(engine, { ...tooSmall, playerId: 'erin', spot: '5' })).toBeNull();
  });
});
