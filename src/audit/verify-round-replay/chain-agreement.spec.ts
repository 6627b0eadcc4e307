import type { DecisionRecord, SettlementRecord } from '../../history/reader/bets.reader';
import type { CardReading, CardRecord } from '../../history/reader/round-cards.reader';
import type { StoredChainEvent } from '../../history/reader/round-events.reader';
import { chainedReadingTimes, chainMismatches } from './chain-agreement';

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

describe("Infinite Blackjack's decisions against the chain", () => {
  const decision = (over: Partial<DecisionRecord> = {}): DecisionRecord => ({
    playerId: 'p1',
    hand: null,
    action: 'stand',
    automatic: false,
    commandId: 'c1',
    decidedAt: '2026-12-04T19:00:40.000Z',
    window: 2,
    ...over,
  });
  /** p1 decided alone, casino-a's alice and p1 again in one batch of a later window. */
  const CHAIN_DECISIONS = [
    event('DecisionAccepted', { window: 1, playerId: 'p1', action: 'no-insurance' }),
    event('DecisionsAccepted', {
      window: 2,
      accepted: 2,
      decisions: [
        { playerId: 'alice', platformId: 'casino-a', action: 'hit' },
        { playerId: 'p1', action: 'stand' },
      ],
    }),
  ];
  const ROWS = [
    decision({ window: 1, action: 'no-insurance' }),
    decision({ playerId: 'casino-a:alice', action: 'hit' }),
    decision(),
  ];
  const check = (decisions: DecisionRecord[]) =>
    chainMismatches(CHAIN_DECISIONS, { settlements: [], readings: [], decisions });

  it('agree as taken, a platform player read as the rows key it', () => {
    expect(check(ROWS)).toEqual([]);
  });

  it('name a decision rewritten: another action, a hand, an automatic one', () => {
    expect(check([ROWS[0], ROWS[1], decision({ action: 'double', hand: 'node-3/1' })])).toEqual([
      { field: 'decision p1#2.action (chain)', stored: 'double', replayed: 'stand' },
      { field: 'decision p1#2.hand (chain)', stored: 'node-3/1', replayed: null },
    ]);
    expect(check([ROWS[0], ROWS[1], decision({ automatic: true })])).toEqual([
      { field: 'decision p1#2.automatic (chain)', stored: true, replayed: false },
    ]);
  });

  it('name a decision moved to another player, deleted or added', () => {
    expect(
      check([ROWS[0], decision({ playerId: 'casino-b:alice', action: 'hit' }), ROWS[2]]),
    ).toEqual([
      { field: 'decision casino-b:alice#1 in the chain', stored: 'hit', replayed: 'none' },
      { field: 'decision casino-a:alice#1 in the chain', stored: 'none', replayed: 'hit' },
    ]);
    expect(check([ROWS[0], ROWS[1]])).toEqual([
      { field: 'decision p1#2 in the chain', stored: 'none', replayed: 'stand' },
    ]);
    expect(check([...ROWS, decision({ playerId: 'mallory', action: 'hit' })])).toEqual([
      { field: 'decision mallory#1 in the chain', stored: 'hit', replayed: 'none' },
    ]);
  });
});

describe('the cards lying face down or up against the chain', () => {
  const at = (s: number) => `2026-12-04T19:00:${String(s).padStart(2, '0')}.000Z`;
  const timed = (e: StoredChainEvent, s: number): StoredChainEvent => ({ ...e, occurredAt: at(s) });
  const card = (over: Partial<CardRecord> = {}): CardRecord => ({
    cardRowId: '1',
    slot: 'dealer-up',
    card: 'QC',
    readingId: '7',
    faceDown: false,
    dealtAt: at(10),
    revealedAt: at(10),
    correctedByCardRowId: null,
    correctionReason: null,
    ...over,
  });
  /** A blackjack dealer's up card (scanned) and hole card, turned over at 30 s. */
  const BJ = [
    timed(event('ReadingProcessed', { kind: 'card', code: 'QC', outcome: 'applied' }), 10),
    timed(event('CardDealtFaceDown', { slot: 'dealer-hole' }), 12),
    timed(event('ReadingProcessed', { kind: 'card', code: '5H', outcome: 'applied' }), 12),
    timed(event('HoleCardRevealed', { card: '5H', dealerTotal: 15 }), 30),
  ];
  const hole = (over: Partial<CardRecord> = {}) =>
    card({
      slot: 'dealer-hole',
      card: '5H',
      faceDown: true,
      dealtAt: at(12),
      revealedAt: at(30),
      ...over,
    });
  const check = (events: StoredChainEvent[], cards: CardRecord[], voidTurnsOver?: string[]) =>
    chainMismatches(events, { settlements: [], readings: [], cards, voidTurnsOver });

  it('agree as dealt and turned over', () => {
    expect(check(BJ, [card(), hole()])).toEqual([]);
  });

  it('name a face-down card shown as face up, or a face-up one hidden', () => {
    expect(check(BJ, [card(), hole({ faceDown: false, revealedAt: at(12) })])).toEqual([
      { field: 'card dealer-hole face down (chain)', stored: false, replayed: true },
      { field: 'card dealer-hole revealed (chain)', stored: at(12), replayed: at(30) },
    ]);
    expect(check(BJ, [card({ faceDown: true }), hole()])).toEqual([
      { field: 'card dealer-up face down (chain)', stored: true, replayed: false },
    ]);
  });

  it("name a reveal moved, a face-up card's reveal moved or dropped, an unturned card revealed", () => {
    expect(check(BJ, [card({ revealedAt: at(11) }), hole({ revealedAt: at(20) })])).toEqual([
      { field: 'card dealer-up revealed (chain)', stored: at(11), replayed: at(10) },
      { field: 'card dealer-hole revealed (chain)', stored: at(20), replayed: at(30) },
    ]);
    expect(check(BJ, [card({ revealedAt: null }), hole({ revealedAt: null })])).toEqual([
      { field: 'card dealer-up revealed (chain)', stored: null, replayed: at(10) },
      { field: 'card dealer-hole revealed (chain)', stored: null, replayed: at(30) },
    ]);
    expect(check(BJ.slice(0, 3), [card(), hole({ revealedAt: at(12) })])).toEqual([
      { field: 'card dealer-hole revealed (chain)', stored: at(12), replayed: null },
    ]);
  });

  it("read a corrected hole card, a Pok Deng hand's reveal, a practice shoe's card and a void", () => {
    const corrected = [
      hole({ cardRowId: '2', revealedAt: null, correctedByCardRowId: '3' }),
      hole({ cardRowId: '3', card: '6H', readingId: null, correctionReason: 'misread' }),
    ];
    expect(check(BJ, [card(), ...corrected])).toEqual([]);
    const pok = [
      timed(event('CardDealtFaceDown', { slot: 'burn' }), 1),
      timed(event('CardDealtFaceDown', { slot: 'player-1/1' }), 2),
      timed(event('CardDealtFaceDown', { slot: 'player-1/2' }), 3),
      timed(event('HandRevealed', { hand: 'player-1', cards: ['2C', '3C'] }), 40),
    ];
    const down = (slot: string, revealedAt: string | null) =>
      card({ slot, card: '2C', faceDown: true, revealedAt });
    expect(
      check(pok, [down('burn', null), down('player-1/1', at(40)), down('player-1/2', at(40))]),
    ).toEqual([]);
    expect(check(pok, [down('burn', at(40))])).toEqual([
      { field: 'card burn revealed (chain)', stored: at(40), replayed: null },
    ]);
    const practice = [
      timed(event('CardDealt', { to: 'dealer-up', card: 'QC' }), 10),
      timed(event('CardDealtFaceDown', { slot: 'dealer-hole' }), 12),
      timed(event('RoundVoided', { reason: 'bot stuck' }), 20),
    ];
    // A practice void turns the hole card over (the game says so); a void elsewhere leaves it
    // down, so a hole card "revealed" at the void of another game's round is an edit.
    const turned = ['dealer-hole'];
    for (const revealedAt of [at(20), null]) {
      expect(check(practice, [card({ readingId: null }), hole({ revealedAt })], turned)).toEqual(
        [],
      );
    }
    expect(check(practice, [card({ readingId: null }), hole({ revealedAt: at(20) })])).toEqual([
      { field: 'card dealer-hole revealed (chain)', stored: at(20), replayed: null },
    ]);
    expect(check(practice, [card({ revealedAt: at(20) })])).toEqual([
      { field: 'card dealer-up revealed (chain)', stored: at(20), replayed: at(10) },
    ]);
  });
});

describe("the round's readings' outcomes against the chain", () => {
  const CHAINED = [
    event('ReadingProcessed', {
      kind: 'card',
      code: 'QC',
      sequence: 45,
      receivedAt: '2026-12-04T19:00:30.123Z',
      outcome: 'applied',
      detail: { slot: 'player/1', card: 'QC' },
    }),
    event('ReadingProcessed', {
      kind: 'card',
      code: 'QC',
      sequence: null,
      receivedAt: '2026-12-04T19:00:31.000Z',
      outcome: 'duplicate',
      detail: { basis: 'sequence' },
    }),
  ];
  const row = (receivedAt: string, sequence: number | null, outcome: string) => ({
    receivedAt,
    sequence,
    outcome,
  });

  it('names the times to read, agree as recorded, and name an outcome rewritten', () => {
    expect(chainedReadingTimes(CHAINED)).toEqual([
      '2026-12-04T19:00:30.123Z',
      '2026-12-04T19:00:31.000Z',
    ]);
    const honest = [
      row('2026-12-04T19:00:30.123Z', 45, 'applied'),
      row('2026-12-04T19:00:31.000Z', null, 'duplicate'),
    ];
    const check = (readingOutcomes: ReturnType<typeof row>[]) =>
      chainMismatches(CHAINED, { settlements: [], readings: [], readingOutcomes });
    expect(check(honest)).toEqual([]);
    expect(check([honest[0], row('2026-12-04T19:00:31.000Z', null, 'rejected')])).toEqual([
      {
        field: 'reading 2026-12-04T19:00:31.000Z outcome (chain)',
        stored: 'rejected',
        replayed: 'duplicate',
      },
    ]);
    expect(check([row('2026-12-04T19:00:30.123Z', 45, 'not-expected')])).toEqual([
      {
        field: 'reading 2026-12-04T19:00:30.123Z #45 outcome (chain)',
        stored: 'not-expected',
        replayed: 'applied',
      },
    ]);
    // A reading of the same moment the round's chain does not name (another frame) is not its.
    expect(check([row('2026-12-04T19:00:30.123Z', 46, 'recorded')])).toEqual([]);
  });
});
