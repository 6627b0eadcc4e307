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
    const players = new DemoPlayers(TABLES, post, random);
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
    const all = new DemoPlayers(TABLES, post, random);
    sent.length = 0;
    all.onTransition('pd', events({ type: 'BettingOpened', payload: { spots: ['1', '2'] } }));
    await jest.advanceTimersByTimeAsync(10_000);
    expect(sent.length).toBeGreaterThan(early);
  });

  it('sends nothing after stop and ignores tables it does not play', async () => {
    const post = jest.fn(async () => 200);
    const players = new DemoPlayers(TABLES, post);
    players.onTransition('other', events({ type: 'BettingOpened' }));
    players.onTransition('pd', events({ type: 'BettingOpened', payload: { spots: ['1'] } }));
    players.stop();
    await jest.advanceTimersByTimeAsync(20_000);
    expect(post).not.toHaveBeenCalled();
  });
});
