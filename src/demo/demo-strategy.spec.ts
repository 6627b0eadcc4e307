import { DemoTableStrategy, handTotal } from './demo-strategy';

/** The same sequence every run (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const settings = { infinitePlayers: 300, silentShare: 0.15 };

describe('DemoTableStrategy', () => {
  it('bets on Pok Deng spots, with pair bets on the same spot, within the table limits', () => {
    const s = new DemoTableStrategy(
      { tableId: 'pd', game: 'pok-deng', currency: 'THB' },
      seeded(1),
    );
    const commands = s.onEvent({
      type: 'BettingOpened',
      roundId: 'r1',
      payload: { spots: ['1', '2', '3', '4', '5'] },
    });
    const bodies = commands.map((c) => c.body);
    expect(commands.every((c) => c.path === 'bets')).toBe(true);
    expect(bodies.filter((b) => b.betType === 'player').length).toBeGreaterThanOrEqual(4);
    for (const pair of bodies.filter((b) => b.betType === 'pair')) {
      const main = bodies.find((b) => b.betType === 'player' && b.playerId === pair.playerId);
      expect(main?.spot).toBe(pair.spot);
    }
    for (const b of bodies) {
      expect(['1', '2', '3', '4', '5']).toContain(b.spot);
      expect(b.amount as number).toBeGreaterThanOrEqual(1_000);
      expect(b).toMatchObject({ roundId: 'r1', currency: 'THB' });
    }
  });

  it('seats hundreds at Infinite Blackjack with offered side bets, and lets some be auto-played', () => {
    const s = new DemoTableStrategy(
      { tableId: 'ibj', game: 'infinite-blackjack', currency: 'EUR' },
      seeded(2),
      settings,
    );
    const bets = s.onEvent({
      type: 'BettingOpened',
      roundId: 'r1',
      payload: { sideBetsOffered: ['pairs', 'bust-bonus'] },
    });
    expect(bets).toHaveLength(300);
    const sides = bets.flatMap((c) => Object.keys((c.body.sideBets as object | undefined) ?? {}));
    expect(sides.length).toBeGreaterThan(20);
    expect(new Set(sides)).toEqual(new Set(['pairs', 'bust-bonus']));
    expect(Math.max(...bets.map((c) => c.delayMs))).toBeLessThan(10_000);

    const decisions = s.onEvent({
      type: 'DecisionWindowOpened',
      roundId: 'r1',
      payload: { window: 2, hands: [{ node: 0, cards: ['TS', '7H'], legal: ['hit', 'stand'] }] },
    });
    expect(decisions.length).toBeGreaterThan(200);
    expect(decisions.length).toBeLessThan(300); // the silent ones are auto-played
    expect(new Set(decisions.map((c) => c.body.action))).toEqual(new Set(['stand']));
    // Later windows: whose hand is whose is not public, so auto-play decides.
    expect(
      s.onEvent({
        type: 'DecisionWindowOpened',
        roundId: 'r1',
        payload: { window: 3, hands: [{ node: 1, cards: ['TS', '7H', '2C'], legal: ['stand'] }] },
      }),
    ).toEqual([]);
  });

  it('takes Lux seats, bets behind only after the seats, and answers its own turns', () => {
    const s = new DemoTableStrategy(
      { tableId: 'lux', game: 'blackjack-lux', currency: 'EUR' },
      seeded(3),
      { ...settings, silentShare: 0 },
    );
    const bets = s.onEvent({ type: 'BettingOpened', roundId: 'r1', payload: {} });
    const seats = bets.filter((c) => c.body.betType === 'main');
    const behind = bets.filter((c) => c.body.betType === 'bet-behind');
    expect(seats.length).toBeGreaterThanOrEqual(3);
    expect(behind.length).toBeGreaterThanOrEqual(2);
    const seated = new Set(seats.map((c) => c.body.spot));
    expect(new Set(seats.map((c) => c.body.spot)).size).toBe(seats.length);
    for (const b of behind) expect(seated).toContain(b.body.spot);
    expect(Math.min(...behind.map((c) => c.delayMs))).toBeGreaterThan(
      Math.max(...seats.map((c) => c.delayMs)),
    );
    const turn = (playerId: string) =>
      s.onEvent({
        type: 'DecisionRequested',
        roundId: 'r1',
        payload: { seat: 2, playerId, cards: ['5S', '6D'], legalActions: ['hit', 'stand'] },
      });
    expect(turn('someone-else')).toEqual([]);
    expect(turn('demo-lux-seat-2').map((c) => c.body)).toEqual([
      { roundId: 'r1', playerId: 'demo-lux-seat-2', seat: '2', action: 'hit' },
    ]);
  });

  it('plays the practice table on a seat the bots left free', () => {
    const s = new DemoTableStrategy(
      { tableId: 'pr', game: 'european-blackjack-practice', currency: 'XPT' },
      seeded(4),
    );
    const bots = [1, 2, 3, 5, 6, 7].map((seat) => ({ seat, level: 'basic' }));
    const [bet] = s.onEvent({ type: 'BettingOpened', roundId: 'r1', payload: { bots } });
    expect(bet.body).toMatchObject({ betType: 'main', spot: '4', playerId: 'demo-practice-1' });
    expect(s.onEvent({ type: 'DecisionRequested', roundId: 'r1', payload: { seat: 3 } })).toEqual(
      [],
    );
    const [decision] = s.onEvent({
      type: 'DecisionRequested',
      roundId: 'r1',
      payload: { seat: 4, legalActions: ['hit', 'stand'] },
    });
    expect(decision.body).toMatchObject({ playerId: 'demo-practice-1', seat: '4' });
  });

  it('acts within the first 60% of the windows the table announces or is configured with', () => {
    const s = new DemoTableStrategy(
      {
        tableId: 'lux',
        game: 'blackjack-lux',
        currency: 'EUR',
        bettingWindowMs: 15_000,
        decisionWindowMs: 4_000,
      },
      seeded(5),
      { ...settings, silentShare: 0 },
    );
    const bets = s.onEvent({
      type: 'BettingOpened',
      roundId: 'r1',
      payload: { bettingWindowMs: 5_000 },
    });
    expect(bets.length).toBeGreaterThan(4);
    for (const bet of bets) {
      expect(bet.windowMs).toBe(5_000);
      expect(bet.delayMs).toBeLessThanOrEqual(3_000);
    }
    const [decision] = s.onEvent({
      type: 'DecisionRequested',
      roundId: 'r1',
      payload: { seat: 1, playerId: 'demo-lux-seat-1', legalActions: ['hit', 'stand'] },
    });
    expect(decision.windowMs).toBe(4_000);
    expect(decision.delayMs).toBeLessThanOrEqual(2_400);
  });

  it('counts blackjack totals with soft aces', () => {
    expect(handTotal(['AS', '6D'])).toBe(17);
    expect(handTotal(['AS', '6D', 'TC'])).toBe(17);
    expect(handTotal(['KH', 'QS'])).toBe(20);
    expect(handTotal(['AS', 'AD'])).toBe(12);
  });
});
