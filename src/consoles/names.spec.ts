import { formatLocal, formatLocalTime } from './public/format.js';
import {
  currenciesText,
  decisionsText,
  fixArticles,
  gameName,
  handName,
  outcomeText,
  plural,
  reasonText,
  slotText,
  tableTitle,
  totalText,
} from './public/names.js';
import { groupTimeline, inOrder, withCardLines } from './public/timeline.js';
import { groupAlerts } from './public/alerts.js';

describe('console words for the service codes', () => {
  it('names the games properly and a table once', () => {
    expect(gameName('pok-deng')).toBe('Pok Deng');
    expect(gameName('blackjack-lux')).toBe('Blackjack Lux');
    expect(gameName('european-blackjack-practice')).toBe('European Blackjack (practice)');
    expect(tableTitle('Infinite Blackjack 1', 'infinite-blackjack')).toBe('Infinite Blackjack 1');
    expect(tableTitle('Pok Deng Floor', 'pok-deng')).toBe('Pok Deng Floor');
    expect(tableTitle('European Blackjack Practice 1', 'european-blackjack-practice')).toBe(
      'European Blackjack Practice 1',
    );
    expect(tableTitle('Floor 3', 'blackjack-lux')).toBe('Floor 3 · Blackjack Lux');
  });

  it('counts with the plural rules and fixes articles', () => {
    expect(plural(1, 'settlement')).toBe('1 settlement');
    expect(plural(2, 'settlement')).toBe('2 settlements');
    expect(plural(0, 'copy', 'copies')).toBe('0 copies');
    expect(fixArticles('A 9th copy of a card in a 8-deck shoe')).toBe(
      'A 9th copy of a card in an 8-deck shoe',
    );
    expect(fixArticles('a 6-deck shoe')).toBe('a 6-deck shoe');
  });

  it('turns reason codes and outcomes into words', () => {
    expect(reasonText('Card not recognised after 2 attempts (attempts)')).toBe(
      'Card not recognised after 2 attempts: the rescan limit was reached',
    );
    expect(reasonText('Card not recognised after 1 attempts (time)')).toBe(
      'Card not recognised after 1 attempts: rescanning took too long',
    );
    expect(outcomeText('player-wins')).toBe('player wins');
    expect(outcomeText('void-refund')).toBe('refunded: the round was voided');
    expect(outcomeText('cancelled')).toBe(
      'cancelled by its platform while betting was open: stake returned',
    );
    expect(outcomeText('something-new')).toBe('something new');
    expect(totalText('7.2', 'pok-deng')).toBe(
      '7.2: a ten with a picture card, beats 7 points, loses to 8',
    );
    expect(totalText('8', 'pok-deng')).toBe('8 points');
    expect(totalText('17', 'blackjack-lux')).toBe('total 17');
  });

  it('names slots and hands as the games do, not by their codes', () => {
    expect(slotText('seat-1/1/3')).toBe('Seat 1, card 3');
    expect(slotText('seat-4/2/5')).toBe('Seat 4, hand 2, card 5');
    expect(slotText('player-4/1')).toBe('Player 4, card 1');
    expect(slotText('banker/2')).toBe('Banker, card 2');
    expect(slotText('dealer-hole')).toBe('Dealer hole card');
    expect(slotText('dealer/3')).toBe('Dealer card 3');
    expect(slotText('player/2')).toBe('Player hand, card 2');
    expect(slotText('common/4')).toBe('Common draw 4');
    expect(slotText('shoe-burn/shown')).toBe('New shoe: shown card');
    expect(slotText('shoe-burn/7')).toBe('New shoe: burn card 7');
    expect(slotText('something-else')).toBe('something-else');
    // Infinite Blackjack records one hand per group of players who decided alike.
    expect(handName({ hand: 'node-1/1', owner: '200 players: stand' })).toBe(
      'Player hand · 200 players who stood',
    );
    expect(handName({ hand: 'node-7/2', owner: '3 players: split hit stand stand' }, true)).toBe(
      'Player hand, second hand of the split · 3 players who split, hit, stood, then stood',
    );
    expect(handName({ hand: 'node-0/1', owner: '1 players: initial hand' })).toBe(
      'Player hand · 1 player who made no decision',
    );
    expect(decisionsText(['hit', 'double'])).toBe('hit, then doubled');
    expect(handName({ hand: 'seat-3/2', owner: 'alice' }, true)).toBe('Seat 3, hand 2 (alice)');
    expect(handName({ hand: 'seat-3/1', owner: 'bot-3' })).toBe('Seat 3 (bot-3)');
    expect(handName({ hand: 'player-2', owner: null })).toBe('Player 2');
    expect(handName({ hand: 'dealer', owner: null })).toBe('Dealer');
  });

  it('names a seat’s player by the platform’s own playerId, not the glued key', () => {
    const owner = 'casino-a:alice';
    const player = { platformId: 'casino-a', playerId: 'alice' };
    expect(handName({ hand: 'seat-1/1', owner, player })).toBe('Seat 1 (alice)');
    expect(handName({ hand: 'seat-1/2', owner, player }, true)).toBe('Seat 1, hand 2 (alice)');
    expect(
      handName({ hand: 'seat-3/1', owner: 'bot:3', player: { platformId: 'bot', playerId: '3' } }),
    ).toBe('Seat 3 (bot 3)');
  });

  it('names every currency a table takes, its default first', () => {
    expect(currenciesText({ currency: 'THB' })).toBe('THB');
    expect(currenciesText({ currency: 'THB', currencies: ['THB', 'EUR'] })).toBe('THB, EUR');
  });

  it('shows times in the screen zone', () => {
    expect(formatLocal('2026-11-29T15:04:05.000Z', 'Asia/Bangkok')).toBe('2026-11-29 22:04:05');
    expect(formatLocal('2026-11-29T15:04:05.000Z', 'UTC')).toBe('2026-11-29 15:04:05');
    expect(formatLocalTime('2026-11-29T15:04:05.000Z', 'Europe/Malta')).toBe('16:04:05');
    expect(formatLocal(null)).toBe('—');
  });
});

describe('the auditor timeline order', () => {
  const at = '2026-11-30T16:15:27.123Z';
  it('puts causes before effects at one timestamp and merges an event stored twice', () => {
    const ordered = inOrder([
      { kind: 'settlement', at, playerId: 'alice' },
      { kind: 'event', at, type: 'RoundVoided', eventNo: 50 },
      { kind: 'event', at, type: 'RoundVoided', eventNo: 51 },
      { kind: 'supervisor-action', at, action: 'void' },
      { kind: 'event', at: '2026-11-30T16:15:26.000Z', type: 'RoundPaused', eventNo: 48 },
    ]);
    expect(ordered.map((e) => `${e.kind}:${e.type ?? ''}`)).toEqual([
      'event:RoundPaused',
      'supervisor-action:',
      'event:RoundVoided',
      'settlement:',
    ]);
    expect(ordered[2]).toMatchObject({ eventNo: 50, sameAs: [51] });
  });
});

describe('the auditor timeline grouped', () => {
  const at = (s: number) => `2026-11-30T16:15:${String(s).padStart(2, '0')}.000Z`;
  it('keeps a short round line by line', () => {
    const short = [
      { kind: 'bet', at: at(1), betType: 'player', amount: 100, deducted: 200 },
      { kind: 'card', at: at(2), slot: 'burn' },
      { kind: 'settlement', at: at(3), betType: 'player', outcome: 'tie', stake: 200 },
    ];
    expect(groupTimeline(short)).toEqual(short.map((entry) => ({ entry })));
  });

  it('summarises many bets, decisions per window and settlements per outcome', () => {
    const players = Array.from({ length: 30 }, (_, i) => `p${i}`);
    const timeline = [
      { kind: 'event', at: at(0), type: 'RoundStarted' },
      ...players.map((p) => ({
        kind: 'bet',
        at: at(1),
        playerId: p,
        betType: 'main',
        amount: 100,
        deducted: 100,
        currency: 'EUR',
      })),
      ...players.slice(0, 5).map((p) => ({
        kind: 'bet',
        at: at(1),
        playerId: p,
        betType: 'pairs',
        amount: 10,
        deducted: 10,
        currency: 'EUR',
      })),
      ...players.map((p, i) => ({ kind: 'event', at: at(1), type: 'BetPlaced', eventNo: 10 + i })),
      { kind: 'event', at: at(1), type: 'BettingClosed', eventNo: 40 },
      { kind: 'card', at: at(2), slot: 'player/1' },
      ...players.map((p, i) => ({
        kind: 'decision',
        at: at(3),
        playerId: p,
        window: 2,
        action: i < 20 ? 'stand' : 'hit',
        automatic: i === 0,
      })),
      ...players.slice(20).map((p) => ({
        kind: 'decision',
        at: at(4),
        playerId: p,
        window: 3,
        action: 'stand',
        automatic: false,
      })),
      ...players.map((p, i) => ({
        kind: 'settlement',
        at: at(5),
        playerId: p,
        betType: 'main',
        outcome: i < 12 ? 'win' : 'lose',
        stake: 100,
        returned: i < 12 ? 200 : 0,
        net: i < 12 ? 100 : -100,
        currency: 'EUR',
      })),
    ];
    const items = groupTimeline(timeline);
    const shape = items.map((i) =>
      'entry' in i ? i.entry.kind : `${i.group}[${i.key}]×${i.entries.length}`,
    );
    expect(shape).toEqual([
      'event',
      'bet[]×35',
      'event[BetPlaced]×30',
      'event',
      'card',
      'decision[2|]×30',
      'decision[3|]×10',
      'settlement[]×30',
    ]);
    const group = (n: number) => items[n] as { parts: Array<Record<string, unknown>> };
    expect(group(1).parts).toEqual([
      {
        key: 'main',
        count: 30,
        betType: 'main',
        totals: [{ currency: 'EUR', amount: 3000, deducted: 3000 }],
      },
      {
        key: 'pairs',
        count: 5,
        betType: 'pairs',
        totals: [{ currency: 'EUR', amount: 50, deducted: 50 }],
      },
    ]);
    expect(group(2).parts).toEqual([{ key: 'numbers', count: 30, first: 10, last: 39 }]);
    expect(group(5).parts).toEqual([
      { key: 'stand', count: 20, action: 'stand', automatic: 1 },
      { key: 'hit', count: 10, action: 'hit', automatic: 0 },
    ]);
    expect(group(7).parts).toEqual([
      {
        key: 'main|lose',
        count: 18,
        betType: 'main',
        outcome: 'lose',
        totals: [{ currency: 'EUR', stake: 1800, returned: 0, net: -1800 }],
      },
      {
        key: 'main|win',
        count: 12,
        betType: 'main',
        outcome: 'win',
        totals: [{ currency: 'EUR', stake: 1200, returned: 2400, net: 1200 }],
      },
    ]);
  });
});

describe('a dealt card as one line', () => {
  it('joins a card with the reading it came from and the events that only record it', () => {
    const at = '2026-11-30T16:15:27.123Z';
    const entries = [
      { kind: 'reading', at, readingId: '7', outcome: 'rescan-requested' },
      { kind: 'reading', at, readingId: '8', outcome: 'applied' },
      { kind: 'card', at, readingId: '8', slot: 'player/1' },
      { kind: 'event', at, type: 'CardDealt', eventNo: 3 },
      { kind: 'event', at, type: 'ReadingProcessed', eventNo: 4 },
      { kind: 'event', at, type: 'DecisionWindowOpened', eventNo: 5 },
      { kind: 'event', at, type: 'CardDealtFaceDown', eventNo: 6 },
      { kind: 'card', at, readingId: null, slot: 'dealer-up' },
    ];
    const lines = withCardLines(groupTimeline(entries)) as Array<{
      entry: { kind: string; type?: string };
      reading?: unknown;
      events?: unknown[];
    }>;
    expect(
      lines.map((l) => [l.entry.kind, l.entry.type ?? '', !!l.reading, l.events?.length ?? 0]),
    ).toEqual([
      ['reading', '', false, 0],
      ['card', '', true, 3],
      ['event', 'DecisionWindowOpened', false, 0],
      ['card', '', false, 0],
    ]);
  });
});

describe('the supervisor alert list', () => {
  it('groups identical alerts with a count and the latest time, open ones first', () => {
    const alert = (at: string, text = 'Pok Deng 1: scanner stale', resolved = false) => ({
      tableId: 'pd',
      kind: 'scanner',
      text,
      at,
      resolved,
    });
    const grouped = groupAlerts([
      alert('2026-11-30T10:00:00Z'),
      alert('2026-11-30T10:05:00Z', 'Pok Deng 1: card burn not recognised', true),
      alert('2026-11-30T10:02:00Z'),
      alert('2026-11-30T10:01:00Z'),
    ]);
    expect(grouped.map((g) => [g.text, g.count, g.at])).toEqual([
      ['Pok Deng 1: scanner stale', 3, '2026-11-30T10:02:00Z'],
      ['Pok Deng 1: card burn not recognised', 1, '2026-11-30T10:05:00Z'],
    ]);
  });
});
