import type { CardCode } from '@studio/cards';
import type { GameKind } from '@studio/contracts';
import type { BetCommand } from '../games/game-adapter';
import { createGameAdapter } from '../games/game-registry';
import { tableRunSettings } from '../tables/table-settings';
import {
  initialTableState,
  MachineOutcome,
  roundOf,
  TableInput,
  TableMachine,
  TableState,
} from './table-machine';

/**
 * Tables of several currencies, for each of the four games: limits are checked in the bet's
 * currency, a currency the table does not take is refused, a player bets in one currency per
 * round, and each bet and settlement row and each settlement event entry names its bet's currency.
 */

/** Cards cycled through whenever the table expects one (any card will do for these checks). */
const DECK: CardCode[] = ['5D', '9C', 'KH', '7S', '2C', 'QD', '4H', 'AS', '8D', '3S', 'JC', '6H'];

interface GameCase {
  game: GameKind;
  betType: string;
  /** The spot of the first bet, then the second's (a seat, a hand), when the game has spots. */
  spots: [string | undefined, string | undefined];
}

const CASES: GameCase[] = [
  { game: 'infinite-blackjack', betType: 'main', spots: [undefined, undefined] },
  { game: 'blackjack-lux', betType: 'main', spots: ['1', '2'] },
  { game: 'pok-deng', betType: 'player', spots: ['1', '2'] },
  { game: 'european-blackjack-practice', betType: 'main', spots: ['3', '4'] },
];

class Driver {
  state: TableState;
  now = Date.UTC(2026, 11, 2, 12, 0, 0);
  readonly outcomes: MachineOutcome[] = [];
  private ids = 0;
  private seq = 0;
  private card = 0;

  constructor(readonly machine: TableMachine) {
    this.state = initialTableState(machine.settings, 8);
  }

  step(input: TableInput): MachineOutcome {
    const outcome = this.machine.step(this.state, input, {
      now: this.now,
      newId: () => `00000000-0000-4000-8000-${String(++this.ids).padStart(12, '0')}`,
      shuffle: (cards) => [...cards],
    });
    this.state = JSON.parse(JSON.stringify(outcome.state)) as TableState;
    this.outcomes.push(outcome);
    return outcome;
  }

  /** Feeds the expected card, else fires the next timer; false when there is nothing to do. */
  advance(): boolean {
    if (this.machine.expected(this.state) && !this.machine.adapter.dealsOwnCards) {
      this.now += 500;
      const code = DECK[this.card++ % DECK.length];
      this.step({
        type: 'reading',
        readingId: String(++this.seq),
        reading: {
          kind: 'card',
          card: { rank: code[0], suit: code[1] } as never,
          code,
          raw: new Uint8Array(),
          receivedAt: this.now,
          sequence: this.seq,
        },
      });
      return true;
    }
    const next = [...this.state.timers].sort((a, b) => a.dueAt - b.dueAt)[0];
    if (!next) return false;
    this.now = Math.max(this.now, next.dueAt);
    this.step({ type: 'timer', name: next.name, token: next.token });
    return true;
  }

  untilBetting(): void {
    this.step({ type: 'start' });
    for (let i = 0; i < 200 && !this.bettingOpen(); i += 1) this.advance();
    if (!this.bettingOpen()) throw new Error('betting never opened');
  }

  untilRoundEnds(): void {
    const roundId = roundOf(this.state)!.id;
    for (let i = 0; i < 500 && roundOf(this.state)?.id === roundId; i += 1) {
      if (!this.advance()) break;
    }
    if (roundOf(this.state)?.id === roundId) throw new Error('the round never ended');
  }

  bettingOpen(): boolean {
    const round = roundOf(this.state);
    return !!round && this.machine.adapter.isBettingOpen(round.engine);
  }

  bet(c: GameCase, bet: Partial<BetCommand> & { playerId: string; amount: number }, spot = 0) {
    return this.step({
      type: 'bet',
      bet: { betId: `bet-${++this.ids}`, betType: c.betType, spot: c.spots[spot], ...bet },
    });
  }
}

function table(c: GameCase): Driver {
  const limits = (min: number, max: number) => ({ [c.betType]: { min, max } });
  const settings = tableRunSettings({
    id: `multi-${c.game}`,
    game: c.game,
    currencies: { EUR: limits(100, 1_000), THB: limits(3_000, 40_000) },
  });
  return new Driver(new TableMachine(settings, createGameAdapter(settings)));
}

describe.each(CASES)('a table of two currencies: $game', (c) => {
  it('checks each bet against the limits of its own currency', () => {
    const t = table(c);
    t.untilBetting();
    expect(t.bet(c, { playerId: 'a', amount: 2_000 }).rejection?.code).toBe('over-limit');
    expect(t.bet(c, { playerId: 'a', amount: 2_000, currency: 'THB' }).rejection).toEqual({
      code: 'under-limit',
      message: `The minimum ${c.betType} bet is 3000 THB (got 2000)`,
    });
    expect(t.bet(c, { playerId: 'a', amount: 500, currency: 'USD' }).rejection?.code).toBe(
      'wrong-currency',
    );
    // 30,000 is above the EUR maximum and within THB's: accepted in THB only.
    expect(t.bet(c, { playerId: 'a', amount: 30_000 }).rejection?.code).toBe('over-limit');
    expect(t.bet(c, { playerId: 'a', amount: 30_000, currency: 'THB' }).rejection).toBeUndefined();
    expect(t.bet(c, { playerId: 'b', amount: 500, currency: 'EUR' }, 1).rejection).toBeUndefined();
  });

  it('announces a cancelled bet in its own currency, the one its `returned` is credited in', () => {
    const t = table(c);
    t.untilBetting();
    const roundId = roundOf(t.state)!.id;
    expect(t.bet(c, { playerId: 'thb', amount: 30_000, currency: 'THB' }).rejection).toBe(
      undefined,
    );
    expect(t.bet(c, { playerId: 'eur', amount: 500 }, 1).rejection).toBeUndefined();
    const placed = t.outcomes.flatMap((o) => o.writes.bets);
    for (const player of ['thb', 'eur']) {
      const bet = placed.find((b) => b.playerId === player)!;
      const out = t.step({
        type: 'cancel-bet',
        cancel: {
          playerId: player,
          reference: bet.betId,
          bet: {
            betId: bet.betId,
            roundId,
            betType: bet.betType,
            spot: bet.spot ?? null,
            status: 'accepted',
            answeredBetId: bet.betId,
            commandId: null,
          },
        },
      });
      expect(out.rejection).toBeUndefined();
      const announced = out.writes.events.find((e) => e.type === 'BetCancelled');
      expect(announced?.payload).toMatchObject({
        currency: player === 'thb' ? 'THB' : 'EUR',
        // What was taken from the player: Pok Deng's deposit too.
        returned: bet.deducted ?? bet.amount,
      });
    }
  });

  it('keeps a player to one currency per round and settles each bet in its own', () => {
    const t = table(c);
    t.untilBetting();
    expect(t.bet(c, { playerId: 'eur', amount: 500 }).rejection).toBeUndefined();
    expect(t.bet(c, { playerId: 'thb', amount: 30_000, currency: 'THB' }, 1).rejection).toBe(
      undefined,
    );
    const mixed = t.bet(c, { playerId: 'thb', amount: 600, currency: 'EUR' }, 0);
    expect(mixed.rejection?.code).toBe('mixed-currencies');
    const bets = t.outcomes.flatMap((o) => o.writes.bets);
    expect(bets.map((b) => [b.playerId, b.currency])).toEqual(
      expect.arrayContaining([
        ['eur', 'EUR'],
        ['thb', 'THB'],
      ]),
    );
    t.untilRoundEnds();
    const rows = t.outcomes.flatMap((o) => o.writes.settlements);
    const humans = rows.filter((s) => s.playerId === 'eur' || s.playerId === 'thb');
    expect(humans.length).toBeGreaterThanOrEqual(2);
    for (const s of rows) {
      expect(s.currency).toBe(s.playerId === 'thb' ? 'THB' : 'EUR');
    }
    const announced = t.outcomes
      .flatMap((o) => o.writes.events)
      .filter((e) => e.type === 'BetsSettled')
      .flatMap((e) => e.payload.settlements as Array<{ playerId: string; currency: string }>);
    expect(announced.length).toBe(rows.length);
    for (const s of announced) expect(s.currency).toBe(s.playerId === 'thb' ? 'THB' : 'EUR');
    // No round figure adds the two currencies together.
    const events = t.outcomes.flatMap((o) => o.writes.events);
    for (const e of events) expect(e.payload).not.toHaveProperty('totals');
    const settledRound = events.find(
      (e) => e.type === 'RoundSettled' && e.payload.totalsByCurrency,
    );
    if (c.game === 'infinite-blackjack') {
      const totals = settledRound!.payload.totalsByCurrency as Record<
        string,
        Record<string, { stake: number }>
      >;
      expect(totals.EUR.main.stake).toBe(500);
      expect(totals.THB.main.stake).toBe(30_000);
    }
  });
});

describe('a player named like an object member', () => {
  it('is recorded and held to one currency as any other player', () => {
    const c = CASES[2];
    const t = table(c);
    t.untilBetting();
    expect(
      t.bet(c, { playerId: '__proto__', amount: 30_000, currency: 'THB' }).rejection,
    ).toBeUndefined();
    expect(t.bet(c, { playerId: '__proto__', amount: 500 }, 1).rejection?.code).toBe(
      'mixed-currencies',
    );
    expect(t.outcomes.flatMap((o) => o.writes.bets).map((b) => b.currency)).toEqual(['THB']);
  });
});

describe('a table of one currency', () => {
  it('keeps its state and bet rows as before: no currency map, bets in its one currency', () => {
    const settings = tableRunSettings({ id: 'one', game: 'pok-deng', currency: 'THB' });
    const t = new Driver(new TableMachine(settings, createGameAdapter(settings)));
    t.untilBetting();
    const c = CASES[2];
    expect(t.bet(c, { playerId: 'p', amount: 5_000 }).rejection).toBeUndefined();
    expect(t.bet(c, { playerId: 'q', amount: 5_000, currency: 'EUR' }).rejection?.code).toBe(
      'wrong-currency',
    );
    expect(roundOf(t.state)?.currencies).toBeUndefined();
    expect(t.outcomes.flatMap((o) => o.writes.bets).map((b) => b.currency)).toEqual(['THB']);
  });
});

describe('an Infinite Blackjack bet that names a spot', () => {
  it('is refused, not placed without it (the game has no seats)', () => {
    const c = CASES.find((x) => x.game === 'infinite-blackjack')!;
    const t = table(c);
    t.untilBetting();
    expect(t.bet(c, { playerId: 'p', amount: 500, spot: '7' }).rejection).toEqual({
      code: 'unknown-seat',
      message: 'Infinite Blackjack has no seats or spots: send the bet without "spot"',
    });
    expect(t.bet(c, { playerId: 'p', amount: 500 }).rejection).toBeUndefined();
    expect(t.outcomes.flatMap((o) => o.writes.bets)).toHaveLength(1);
  });
});
