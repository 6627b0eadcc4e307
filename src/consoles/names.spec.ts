import { formatLocal, formatLocalTime } from './public/format.js';
import {
  fixArticles,
  gameName,
  outcomeText,
  plural,
  reasonText,
  tableTitle,
  totalText,
} from './public/names.js';
import { inOrder } from './public/timeline.js';
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
    expect(outcomeText('something-new')).toBe('something new');
    expect(totalText('7.2', 'pok-deng')).toBe(
      '7.2: a ten with a picture card, beats 7 points, loses to 8',
    );
    expect(totalText('8', 'pok-deng')).toBe('8 points');
    expect(totalText('17', 'blackjack-lux')).toBe('total 17');
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
