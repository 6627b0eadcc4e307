import type { BetRecord, SettlementRecord } from '../../history/reader/bets.reader';
import { HistoryReader } from '../../history/reader/history-reader';
import type { RoundRecord } from '../../history/reader/rounds.reader';
import { RoundTimeline } from './round-timeline.use-case';

const ROUND_ID = '00000000-0000-4000-8000-000000000001';
const at = (s: number) => `2026-12-01T10:00:0${s}.000Z`;

const round: RoundRecord = {
  id: ROUND_ID,
  tableId: 'lux-fx',
  game: 'blackjack-lux',
  shoeId: null,
  shoeNumber: 1,
  roundNumber: 4,
  status: 'completed',
  phase: 'settled',
  startedAt: at(0),
  endedAt: at(9),
  voidReason: null,
  key: { at: at(0), id: ROUND_ID },
  startedAtValue: new Date(at(0)),
  endedAtValue: new Date(at(9)),
};

const bet = (
  betId: string,
  playerId: string,
  currency: string,
  amount: number,
  spot: string,
): BetRecord => ({
  betId,
  playerId,
  commandId: `c-${betId}`,
  betType: 'main',
  spot,
  amount,
  deducted: amount,
  currency,
  status: 'settled',
  placedAt: at(1),
});

const settlement = (
  betId: string | null,
  playerId: string,
  betType: string,
  net: number,
  currency: string,
): SettlementRecord => ({
  roundId: ROUND_ID,
  betId,
  playerId,
  betType,
  spot: null,
  stake: 1_000,
  returned: 1_000 + net,
  net,
  outcome: net > 0 ? 'win' : 'lose',
  roundedDown: '0',
  settledAt: at(8),
  currency,
});

/** The history reader of one stored Lux round: alice of casino-a in THB, alice of casino-b in EUR. */
function historyOfOneRound(): HistoryReader {
  const none = async () => [];
  return Object.assign(Object.create(HistoryReader.prototype) as HistoryReader, {
    rounds: { byId: async () => round },
    readings: { ofTableBetween: none },
    cards: {
      rowsOfRound: none,
      handsOfRound: async () => [
        { hand: 'dealer', owner: null, cards: ['TS', '7H'], total: '17', result: null },
        {
          hand: 'seat-1/1',
          owner: 'casino-a:alice',
          cards: ['9C', '9D'],
          total: '18',
          result: 'win',
        },
        {
          hand: 'seat-2/1',
          owner: 'casino-b:alice',
          cards: ['6C', 'TD'],
          total: '16',
          result: 'lose',
        },
        { hand: 'seat-3/1', owner: 'bot:3', cards: ['5C', 'QD'], total: '15', result: 'lose' },
      ],
    },
    bets: {
      ofRound: async () => [
        bet('b-1', 'casino-a:alice', 'THB', 100_000, '1'),
        bet('b-2', 'casino-b:alice', 'EUR', 2_500, '2'),
      ],
      decisionsOfRound: async () => [
        {
          playerId: 'casino-b:alice',
          hand: 'seat-2/1',
          action: 'stand',
          automatic: false,
          commandId: 'c-d',
          decidedAt: at(5),
          window: null,
        },
      ],
      settlementsOfRound: async () => [
        settlement('b-1', 'casino-a:alice', 'main', 100_000, 'THB'),
        settlement('b-2', 'casino-b:alice', 'main', -2_500, 'EUR'),
        // An insurance has no bet row: it is in the currency its player bet in.
        settlement(null, 'casino-b:alice', 'insurance', -1_250, 'EUR'),
      ],
    },
    supervisorActions: { ofRound: none },
    events: { ofRound: none },
  });
}

describe('the round timeline of a table of two platforms and two currencies', () => {
  it('names each player as (platform, playerId) and each settlement with its bet’s currency', async () => {
    const view = await new RoundTimeline(historyOfOneRound()).execute({ roundId: ROUND_ID });
    const line = (kind: string) => view.timeline.filter((e) => e.kind === kind);

    expect(line('bet')).toEqual([
      expect.objectContaining({
        playerId: 'casino-a:alice',
        player: { platformId: 'casino-a', playerId: 'alice' },
        currency: 'THB',
        amount: 100_000,
      }),
      expect.objectContaining({
        playerId: 'casino-b:alice',
        player: { platformId: 'casino-b', playerId: 'alice' },
        currency: 'EUR',
        amount: 2_500,
      }),
    ]);
    expect(line('decision')).toEqual([
      expect.objectContaining({ player: { platformId: 'casino-b', playerId: 'alice' } }),
    ]);
    expect(line('settlement').map((s) => [s.player, s.betType, s.currency, s.net])).toEqual([
      [{ platformId: 'casino-a', playerId: 'alice' }, 'main', 'THB', 100_000],
      [{ platformId: 'casino-b', playerId: 'alice' }, 'main', 'EUR', -2_500],
      [{ platformId: 'casino-b', playerId: 'alice' }, 'insurance', 'EUR', -1_250],
    ]);
    // The settlement entries do not repeat their round.
    expect(line('settlement')[0]).not.toHaveProperty('roundId');
  });

  it('names the seated player of each seat hand, and no player for other hands', async () => {
    const view = await new RoundTimeline(historyOfOneRound()).execute({ roundId: ROUND_ID });
    expect(view.hands.map((h) => [h.hand, h.player ?? null])).toEqual([
      ['dealer', null],
      ['seat-1/1', { platformId: 'casino-a', playerId: 'alice' }],
      ['seat-2/1', { platformId: 'casino-b', playerId: 'alice' }],
      // The practice bots' reserved `bot:` keys split the same way; the consoles show "bot 3".
      ['seat-3/1', { platformId: 'bot', playerId: '3' }],
    ]);
  });
});
