import type { SettlementRecord } from '../../history/reader/bets.reader';
import type { CardReading } from '../../history/reader/round-cards.reader';
import type { StoredChainEvent } from '../../history/reader/round-events.reader';
import { chainMismatches } from './chain-agreement';

let eventNo = 0;
function event(type: string, payload: unknown): StoredChainEvent {
  eventNo += 1;
  return {
    id: String(eventNo),
    tableId: 'pd-1',
    eventNo,
    roundId: 'r1',
    type,
    visibility: 'restricted',
    payload,
    actor: null,
    occurredAt: '2026-12-04T19:00:00.000Z',
    chainVersion: 2,
    salt: 'ab'.repeat(16),
    prevHash: '0'.repeat(64),
    hash: '1'.repeat(64),
  };
}

const settlement = (over: Partial<SettlementRecord> = {}): SettlementRecord => ({
  roundId: 'r1',
  betId: 'b1',
  playerId: 'bob',
  betType: 'player',
  spot: '1',
  stake: 2500,
  returned: 5000,
  net: 2500,
  outcome: 'player-wins',
  roundedDown: '0',
  settledAt: '2026-12-04T19:01:00.000Z',
  currency: 'THB',
  ...over,
});

const reading = (over: Partial<CardReading> = {}): CardReading => ({
  slot: 'player/1/1',
  card: 'QC',
  decoded: 'QC',
  rawHex: '02303030343502',
  receivedAt: '2026-12-04T19:00:30.123Z',
  sequence: 45,
  ...over,
});

/** The chain as the table wrote it: what the rows said when they were written. */
const CHAIN = [
  event('ReadingProcessed', {
    kind: 'card',
    code: 'QC',
    sequence: 45,
    receivedAt: '2026-12-04T19:00:30.123Z',
    rawHex: '02303030343502',
  }),
  event('BetsSettled', {
    batch: 1,
    batches: 1,
    settlements: [
      {
        betId: 'b1',
        playerId: 'bob',
        betType: 'player',
        spot: '1',
        stake: 2500,
        returned: 5000,
        net: 2500,
        outcome: 'player-wins',
        currency: 'THB',
      },
    ],
  }),
];

describe('the rows against the chained events', () => {
  it('agree as written', () => {
    expect(chainMismatches(CHAIN, { settlements: [settlement()], readings: [reading()] })).toEqual(
      [],
    );
  });

  it("read a platform's player and a practice bot as the rows key them, and name one moved", () => {
    const named = (playerId: string, platformId: string) => [
      event('BetsSettled', {
        batch: 1,
        batches: 1,
        settlements: [{ betId: 'b1', playerId, platformId, betType: 'player', stake: 2500 }],
      }),
    ];
    const row = (playerId: string) => ({ settlements: [settlement({ playerId })], readings: [] });
    expect(chainMismatches(named('alice', 'casino-a'), row('casino-a:alice'))).toEqual([]);
    expect(chainMismatches(named('1', 'bot'), row('bot:1'))).toEqual([]);
    expect(chainMismatches(named('alice', 'casino-a'), row('casino-b:alice'))).toEqual([
      {
        field: 'settlement b1.playerId (chain)',
        stored: 'casino-b:alice',
        replayed: 'casino-a:alice',
      },
    ]);
  });

  it('name a stake scaled down with its settlement (both rows edited alike)', () => {
    const edited = settlement({ stake: 250, returned: 500, net: 250 });
    expect(chainMismatches(CHAIN, { settlements: [edited], readings: [] })).toEqual([
      { field: 'settlement b1.stake (chain)', stored: 250, replayed: 2500 },
      { field: 'settlement b1.returned (chain)', stored: 500, replayed: 5000 },
      { field: 'settlement b1.net (chain)', stored: 250, replayed: 2500 },
    ]);
  });

  it('name a settlement moved to another player, platform or spot with its bet', () => {
    const moved = settlement({ playerId: 'casino-b:carol', spot: '3', betType: 'pair' });
    expect(chainMismatches(CHAIN, { settlements: [moved], readings: [] })).toEqual([
      { field: 'settlement b1.playerId (chain)', stored: 'casino-b:carol', replayed: 'bob' },
      { field: 'settlement b1.betType (chain)', stored: 'pair', replayed: 'player' },
      { field: 'settlement b1.spot (chain)', stored: '3', replayed: '1' },
    ]);
  });

  it("name a card's raw bytes rewritten, and a reading the chain never recorded", () => {
    const rewritten = reading({ rawHex: '024b4302', decoded: 'KC', card: 'KC' });
    const moved = reading({ receivedAt: '2026-12-04T19:00:31.000Z' });
    expect(chainMismatches(CHAIN, { settlements: [settlement()], readings: [rewritten] })).toEqual([
      {
        field: 'card player/1/1 raw bytes (chain)',
        stored: '024b4302',
        replayed: '02303030343502',
      },
    ]);
    expect(chainMismatches(CHAIN, { settlements: [settlement()], readings: [moved] })).toEqual([
      { field: 'card player/1/1 reading in the chain', stored: moved.rawHex, replayed: 'none' },
    ]);
  });

  it('name a settlement row added or removed', () => {
    expect(chainMismatches(CHAIN, { settlements: [], readings: [] })).toEqual([
      { field: 'settlement b1 in the chain', stored: 'none', replayed: 'announced' },
    ]);
    const extra = settlement({ betId: 'b9' });
    expect(chainMismatches(CHAIN, { settlements: [settlement(), extra], readings: [] })).toEqual([
      { field: 'settlement b9 in the chain', stored: 'a row', replayed: 'none' },
    ]);
  });

  it("name a void's reason rewritten, and leave cancelled bets to their own event", () => {
    const voided = [...CHAIN, event('RoundVoided', { reason: 'shoe dropped' })];
    const cancelled = settlement({ betId: 'b2', outcome: 'cancelled' });
    expect(
      chainMismatches(voided, {
        settlements: [settlement(), cancelled],
        readings: [],
        voidReason: 'camera fault',
      }),
    ).toEqual([{ field: 'void reason (chain)', stored: 'camera fault', replayed: 'shoe dropped' }]);
  });

  it("name a round's start or end moved, and a void attributed to someone else", () => {
    const started = { ...event('RoundStarted', {}), occurredAt: '2026-12-04T18:59:00.000Z' };
    const voided = { ...event('RoundVoided', { reason: 'shoe dropped' }), actor: 'sup-a' };
    const ended = {
      ...event('RoundEnded', { status: 'voided' }),
      occurredAt: '2026-12-04T19:02:00.000Z',
    };
    expect(
      chainMismatches([started, ...CHAIN, voided, ended], {
        settlements: [settlement()],
        readings: [],
        voidReason: 'shoe dropped',
        round: { startedAt: '2026-12-04T17:59:00.000Z', endedAt: '2026-12-04T19:02:00.000Z' },
        voidActions: [
          { action: 'void', reason: 'camera fault', actor: 'sup-b', status: 'applied' },
        ],
      }),
    ).toEqual([
      { field: 'void action reason (chain)', stored: 'camera fault', replayed: 'shoe dropped' },
      { field: 'void action by (chain)', stored: 'sup-b', replayed: 'sup-a' },
      {
        field: 'round started (chain)',
        stored: '2026-12-04T17:59:00.000Z',
        replayed: started.occurredAt,
      },
    ]);
  });

  it('take the void request that was approved, not an earlier one that lapsed', () => {
    const lapsed = { ...event('VoidRequested', { requestId: 1, reason: 'misdeal' }), actor: 'a' };
    const approved = { ...event('VoidRequested', { requestId: 2, reason: 'shoe' }), actor: 'b' };
    const voided = { ...event('RoundVoided', { reason: 'shoe' }), actor: 'c' };
    const rows = (actor: string) => ({
      settlements: [settlement()],
      readings: [],
      voidReason: 'shoe',
      voidActions: [
        { action: 'void', reason: 'misdeal', actor: 'a', status: 'lapsed' },
        { action: 'void', reason: 'shoe', actor, status: 'applied' },
      ],
    });
    const chain = [...CHAIN, lapsed, approved, voided];
    expect(chainMismatches(chain, rows('b'))).toEqual([]);
    expect(chainMismatches(chain, rows('x'))).toEqual([
      { field: 'void action by (chain)', stored: 'x', replayed: 'b' },
    ]);
  });
});
