import type { CardRecord } from '../history/reader/round-cards.reader';
import type { ReadingRecord } from '../history/reader/readings.reader';
import type { StoredChainEvent } from '../history/reader/round-events.reader';
import { hiddenUntilRoundEnd, RoundRecords } from './hidden-until-round-end';

const card = (id: string, slot: string, value: string, faceDown: boolean, revealed = false) =>
  ({
    cardRowId: id,
    slot,
    card: value,
    readingId: `r${id}`,
    faceDown,
    dealtAt: '2026-11-29T12:00:00.000Z',
    revealedAt: revealed ? '2026-11-29T12:00:05.000Z' : null,
    correctedByCardRowId: null,
    correctionReason: null,
  }) satisfies CardRecord;

const reading = (id: string, code: string, outcome = 'applied') =>
  ({
    readingId: id,
    port: '/dev/pts/1',
    wireFormat: 'studio-framed-v1',
    readingKind: 'card',
    raw: Buffer.from(`CARD ${code}`),
    decoded: { code },
    deviceSeq: 1,
    receivedAt: '2026-11-29T12:00:00.000Z',
    outcome,
    outcomeDetail: { card: code },
  }) satisfies ReadingRecord;

const event = (no: number, type: string, visibility: string, payload: unknown) =>
  ({
    id: String(no),
    tableId: 'pokdeng-1',
    eventNo: no,
    roundId: 'r',
    type,
    visibility,
    payload,
    actor: null,
    occurredAt: '2026-11-29T12:00:00.000Z',
    prevHash: 'a'.repeat(64),
    hash: 'b'.repeat(64),
    chainVersion: 2,
    salt: 'c'.repeat(32),
  }) satisfies StoredChainEvent;

/** A Pok Deng round while betting is open: a burnt card, a player's face-down card, one face up. */
const records = (): RoundRecords => ({
  cards: [
    card('1', 'burn', 'KH', true),
    card('2', 'player-1/1', '7D', true),
    card('3', 'banker/1', '9S', false),
    card('4', 'player-2/1', '4C', true, true),
  ],
  readings: [
    reading('r1', 'KH'),
    reading('r2', '7D'),
    reading('r3', '9S'),
    reading('r4', '4C'),
    reading('r9', '7D', 'duplicate'),
  ],
  events: [
    event(1, 'HiddenCardRecorded', 'restricted', { slot: 'player-1/1', card: '7D' }),
    event(2, 'CardDealt', 'public', { slot: 'banker/1', card: '9S' }),
  ],
  hands: [{ hand: 'banker', owner: null, cards: ['9S'], total: '9', result: null }],
});

describe('face-down cards reach auditors only after the round has ended', () => {
  it.each(['in-progress', 'paused'])('withholds them while the round is %s', (status) => {
    const shown = hiddenUntilRoundEnd(status, records());
    expect(shown.cards.map((c) => c.card)).toEqual([null, null, '9S', '4C']);
    expect(shown.cards.filter((c) => c.withheld).map((c) => c.slot)).toEqual([
      'burn',
      'player-1/1',
    ]);
    // Only readings of cards now face up keep their bytes; a duplicate of a hidden card does not.
    expect(shown.readings.map((r) => r.raw?.toString() ?? null)).toEqual([
      null,
      null,
      'CARD 9S',
      'CARD 4C',
      null,
    ]);
    expect(shown.readings.filter((r) => r.withheld).map((r) => r.readingId)).toEqual([
      'r1',
      'r2',
      'r9',
    ]);
    expect(shown.readings.find((r) => r.readingId === 'r2')).toMatchObject({
      decoded: null,
      outcomeDetail: null,
      outcome: 'applied',
    });
    expect(shown.events).toEqual([expect.not.objectContaining({ hash: expect.anything() })]);
    expect(shown.events).toEqual([expect.not.objectContaining({ salt: expect.anything() })]);
    expect(shown.events[0]).toMatchObject({ type: 'CardDealt' });
    expect(shown.hands).toEqual([]);
    const text = JSON.stringify(shown);
    for (const hidden of ['KH', '7D']) expect(text).not.toContain(hidden);
  });

  it.each(['completed', 'voided'])('shows everything as stored once the round is %s', (status) => {
    const all = records();
    expect(hiddenUntilRoundEnd(status, all)).toEqual(all);
  });
});
