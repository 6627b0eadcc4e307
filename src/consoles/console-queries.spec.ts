import type { BetRecord, SettlementRecord } from '../history/reader/bets.reader';
import { HistoryReader } from '../history/reader/history-reader';
import type { ActionLogRecord } from '../history/reader/supervisor-actions.reader';
import { loadActionLog } from './console-queries';

const ROUND_ID = '00000000-0000-4000-8000-000000000002';
const AT = '2026-12-01T10:00:00.000Z';

const action = (id: string, act: string, status: string): ActionLogRecord => ({
  id,
  at: AT,
  tableId: 'pd-fx',
  roundId: ROUND_ID,
  action: act,
  reason: 'Card exposed',
  by: 'supervisor',
  status,
  approvedBy: null,
  details: {},
  roundStatus: 'voided',
});

const bet = (betId: string, playerId: string, currency: string, amount: number): BetRecord => ({
  betId,
  playerId,
  commandId: null,
  betType: 'player',
  spot: betId === 'b-1' ? '1' : '2',
  amount,
  // A Pok Deng Player bet deducts its amount twice (the bet and an equal deposit).
  deducted: amount * 2,
  currency,
  status: 'refunded',
  placedAt: AT,
});

const refund = (b: BetRecord): SettlementRecord => ({
  roundId: ROUND_ID,
  betId: b.betId,
  playerId: b.playerId,
  betType: b.betType,
  spot: b.spot,
  stake: b.deducted,
  returned: b.deducted,
  net: 0,
  outcome: 'void-refund',
  roundedDown: '0',
  settledAt: AT,
  currency: b.currency,
});

/** A voided Pok Deng round: alice of casino-a bet in THB, alice of casino-b in EUR. */
function historyOfOneVoid(
  actions: ActionLogRecord[] = [action('2', 'void', 'applied'), action('1', 'pause', 'applied')],
): HistoryReader {
  const bets = [
    bet('b-1', 'casino-a:alice', 'THB', 123_400),
    bet('b-2', 'casino-b:alice', 'EUR', 5_000),
  ];
  return Object.assign(Object.create(HistoryReader.prototype) as HistoryReader, {
    supervisorActions: {
      log: async () => actions,
    },
    bets: {
      settlementsOfRounds: async (ids: string[]) =>
        ids.includes(ROUND_ID) ? bets.map(refund) : [],
      ofRound: async (id: string) => (id === ROUND_ID ? bets : []),
    },
  });
}

describe('the supervisors’ action log', () => {
  it('lists a void’s refunds with each player as (platform, playerId) in its bet’s currency', async () => {
    const [voided, paused] = await loadActionLog(historyOfOneVoid(), { limit: 50 });
    expect(paused.refunds).toBeUndefined();
    expect(voided.refunds).toEqual([
      {
        playerId: 'casino-a:alice',
        player: { platformId: 'casino-a', playerId: 'alice' },
        betType: 'player',
        spot: '1',
        stake: 246_800,
        parts: { bet: 123_400, deposit: 123_400, added: 0 },
        returned: 246_800,
        currency: 'THB',
      },
      {
        playerId: 'casino-b:alice',
        player: { platformId: 'casino-b', playerId: 'alice' },
        betType: 'player',
        spot: '2',
        stake: 10_000,
        parts: { bet: 5_000, deposit: 5_000, added: 0 },
        returned: 10_000,
        currency: 'EUR',
      },
    ]);
    // The entry itself is the action as recorded, without the round status used to pick voids.
    expect(voided).not.toHaveProperty('roundStatus');
  });

  it('shows the refunds under the void that was applied, not under a request that lapsed', async () => {
    // Two requests for the round (VOID_REQUIRES_APPROVAL): the first lapsed when the second was
    // made, the second was approved. The round was refunded once.
    const [applied, lapsed] = await loadActionLog(
      historyOfOneVoid([action('3', 'void', 'applied'), action('2', 'void', 'lapsed')]),
      { limit: 50 },
    );
    expect(applied.refunds).toHaveLength(2);
    expect(lapsed.refunds).toBeUndefined();
  });
});
