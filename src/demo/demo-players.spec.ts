import type { TableDefinition } from '../config/tables-config';
import { emptyWrites, MachineOutcome } from '../table-core/table-machine';
import { DemoPlayers } from './demo-players';

const TABLES = [{ id: 'pd', name: 'PD', game: 'pok-deng', currency: 'THB' }] as TableDefinition[];

function events(...list: Array<{ type: string; payload?: object }>): MachineOutcome {
  return {
    state: {} as MachineOutcome['state'],
    writes: {
      ...emptyWrites(),
      events: list.map((e) => ({
        type: e.type,
        visibility: 'public' as const,
        payload: { ...e.payload },
        roundId: 'r1',
      })),
    },
  };
}

/** The fake timers' clock (jest fakes Date as well). */
const clock = { now: () => new Date() };

describe('DemoPlayers', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends the bets through the platform API after their pause, and none once betting closed', async () => {
    const sent: Array<{ tableId: string; path: string; body: Record<string, unknown> }> = [];
    // Alternating draws: some bets come quickly, the rest after betting has closed.
    let draw = 0;
    const random = () => (draw++ % 3 === 0 ? 0.05 : 0.95);
    const post = async (tableId: string, path: string, body: Record<string, unknown>) => {
      sent.push({ tableId, path, body });
      return 200;
    };
    const players = new DemoPlayers(TABLES, post, clock, random);
    players.onTransition('pd', events({ type: 'BettingOpened', payload: { spots: ['1', '2'] } }));
    expect(sent).toEqual([]);
    await jest.advanceTimersByTimeAsync(1_000);
    const early = sent.length;
    expect(early).toBeGreaterThan(0);
    players.onTransition('pd', events({ type: 'BettingClosed' }));
    await jest.advanceTimersByTimeAsync(10_000);
    expect(sent.length).toBe(early); // the late ones were dropped, not sent to be refused
    expect(sent.every((s) => s.tableId === 'pd' && s.path === 'bets')).toBe(true);
    expect(players.stats.sent).toBe(early);

    // Without the close, the slower bets would have gone out too.
    draw = 0;
    const all = new DemoPlayers(TABLES, post, clock, random);
    sent.length = 0;
    all.onTransition('pd', events({ type: 'BettingOpened', payload: { spots: ['1', '2'] } }));
    await jest.advanceTimersByTimeAsync(10_000);
    expect(sent.length).toBeGreaterThan(early);
  });

  it('lets only players whose bet was accepted decide', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const tables = [{ id: 'lux', name: 'Lux', game: 'blackjack-lux', currency: 'EUR' }];
    let taken: unknown;
    const players = new DemoPlayers(
      tables as TableDefinition[],
      async (_t, path, body) => {
        sent.push({ path, ...body });
        // The table takes the first seat bet only.
        if (path === 'bets' && taken === undefined && body.betType === 'main') {
          taken = body.spot;
        }
        return path === 'decisions' || body.spot === taken ? 200 : 409;
      },
      clock,
      () => 0.5,
    );
    players.onTransition('lux', events({ type: 'BettingOpened' }));
    await jest.advanceTimersByTimeAsync(15_000);
    const seats = sent.filter((s) => s.betType === 'main').map((s) => Number(s.spot));
    expect(seats.length).toBeGreaterThan(1);
    const refused = seats.find((seat) => String(seat) !== taken)!;
    const turn = (seat: number) =>
      events({
        type: 'DecisionRequested',
        payload: { seat, playerId: `demo-lux-seat-${seat}`, legalActions: ['hit', 'stand'] },
      });
    players.onTransition('lux', turn(refused));
    await jest.advanceTimersByTimeAsync(5_000);
    players.onTransition('lux', turn(Number(taken)));
    await jest.advanceTimersByTimeAsync(5_000);
    expect(sent.filter((s) => s.path === 'decisions').map((s) => s.playerId)).toEqual([
      `demo-lux-seat-${String(taken)}`,
    ]);
  });

  it('sends a bet only while its window stays open long enough for the answer', async () => {
    const sentAt: number[] = [];
    const opened = Date.now();
    // Answers take 600 ms: the margin becomes 1.2 s, more than the 1 s floor.
    const post = async () => {
      sentAt.push(Date.now() - opened);
      await new Promise((r) => setTimeout(r, 600));
      return 200;
    };
    const players = new DemoPlayers(TABLES, post, clock, () => 0.9);
    const window = { type: 'BettingOpened', payload: { spots: ['1'], bettingWindowMs: 3_000 } };
    players.onTransition('pd', events(window));
    await jest.advanceTimersByTimeAsync(10_000);
    const { sent, late, accepted } = players.stats;
    expect(sent).toBeGreaterThan(0);
    expect(late).toBeGreaterThan(0); // queued behind slow answers: not sent to be refused
    expect(accepted).toBe(sent);
    // Each went out at least the margin before betting closed (after the first answer: 1.2 s).
    expect(sentAt[0]).toBeLessThanOrEqual(3_000 - 1_000);
    for (const at of sentAt.slice(4)) expect(at).toBeLessThanOrEqual(3_000 - 1_200);
  });

  it('sends no decision whose answer would come after its window closed', async () => {
    const tables = [
      { id: 'lux', name: 'Lux', game: 'blackjack-lux', currency: 'EUR', decisionWindowMs: 5_000 },
    ] as TableDefinition[];
    let answerMs = 10;
    const sent: Array<Record<string, unknown>> = [];
    const post = async (_t: string, path: string, body: Record<string, unknown>) => {
      sent.push({ path, ...body });
      await new Promise((r) => setTimeout(r, answerMs));
      return 200;
    };
    const players = new DemoPlayers(tables, post, clock, () => 0.5);
    const turn = (seat: string) =>
      events({
        type: 'DecisionRequested',
        payload: { seat, playerId: `demo-lux-seat-${seat}`, legalActions: ['hit', 'stand'] },
      });
    players.onTransition('lux', events({ type: 'BettingOpened' }));
    await jest.advanceTimersByTimeAsync(15_000);
    const seat = String(sent.find((s) => s.betType === 'main')!.spot);
    players.onTransition('lux', turn(seat));
    await jest.advanceTimersByTimeAsync(6_000);
    expect(sent.filter((s) => s.path === 'decisions')).toHaveLength(1);

    // Answers now take 3 s: a decision due within 5 s could only be refused.
    answerMs = 3_000;
    players.onTransition('lux', events({ type: 'BettingOpened' }));
    await jest.advanceTimersByTimeAsync(30_000);
    const before = players.stats.late;
    const decided = sent.filter((s) => s.path === 'decisions').length;
    players.onTransition('lux', turn(seat));
    await jest.advanceTimersByTimeAsync(6_000);
    expect(sent.filter((s) => s.path === 'decisions')).toHaveLength(decided);
    expect(players.stats.late).toBe(before + 1);
  });

  it('sends nothing after stop and ignores tables it does not play', async () => {
    const post = jest.fn(async () => 200);
    const players = new DemoPlayers(TABLES, post, clock);
    players.onTransition('other', events({ type: 'BettingOpened' }));
    players.onTransition('pd', events({ type: 'BettingOpened', payload: { spots: ['1'] } }));
    players.stop();
    await jest.advanceTimersByTimeAsync(20_000);
    expect(post).not.toHaveBeenCalled();
  });
});
