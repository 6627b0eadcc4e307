import { EVENT_SCHEMAS, EVENT_VISIBILITY, visibilityOf } from '@studio/contracts';
import type { OutgoingMessage } from './event-publisher';
import { OutboxRow, toOutgoingMessage } from './outbox-envelope';
import { EventRouting, routeRows } from './outbox-relay-routing';

const routing: EventRouting = {
  tableEventsTopic: 'studio.table-events.v1',
  sharedTopic: 'studio.table-events.v2',
  privateTopic: (id) => `studio.platform.${id}.events.v2`,
  v1Topic: 'studio.table-events.v1',
  defaultPlatformId: 'default',
};

let n = 0;
function row(type: string, payload: unknown, topic = routing.tableEventsTopic): OutboxRow {
  n += 1;
  return {
    id: String(n),
    eventId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    topic,
    tableId: 'ibj-1',
    roundId: 'r-1',
    seq: String(n),
    type,
    schemaVersion: 1,
    occurredAt: '2026-12-02T04:00:00.000Z',
    // jsonb's text output has a space after ',' and ':'.
    payload: JSON.stringify(payload).replace(/([,:])/g, '$1 '),
  };
}

const payloads = (messages: OutgoingMessage[] | undefined) =>
  (messages ?? []).map((m) => (JSON.parse(m.value) as { payload: unknown }).payload);

describe('event visibility (one table for every event type)', () => {
  it('gives every event type of the contract a line', () => {
    const missing = EVENT_SCHEMAS.map((e) => e.type).filter((t) => !(t in EVENT_VISIBILITY));
    expect(missing).toEqual([]);
  });

  it('never makes public an event type whose payload names a player', () => {
    const naming = EVENT_SCHEMAS.filter((e) => JSON.stringify(e.payload).includes('"playerId"'));
    expect(naming.length).toBeGreaterThan(10);
    expect(naming.filter((e) => visibilityOf(e.type).kind === 'public').map((e) => e.type)).toEqual(
      [],
    );
  });

  it('treats a type it does not know as private', () => {
    expect(visibilityOf('SomethingNew')).toEqual({ kind: 'private' });
  });
});

describe('routing the outbox rows by platform', () => {
  it('sends a public event to the shared topic and to v1, the same bytes, unparsed', () => {
    const r = row('CardDealt', { slot: 1, card: 'AS', seat: 1, hand: 1, to: 'player' });
    const out = routeRows([r], routing);
    expect([...out.keys()]).toEqual(['studio.table-events.v2', 'studio.table-events.v1']);
    expect(out.get('studio.table-events.v2')![0].value).toBe(
      out.get('studio.table-events.v1')![0].value,
    );
  });

  it("sends a player's bet only to that player's platform (v1 only for `default`)", () => {
    const out = routeRows(
      [
        row('BetAccepted', { playerId: 'p-1', platformId: 'casino-a', betId: 'b1', amount: 500 }),
        row('BetAccepted', { playerId: 'p-2', betId: 'b2', amount: 700 }),
      ],
      routing,
    );
    expect([...out.keys()].sort()).toEqual([
      'studio.platform.casino-a.events.v2',
      'studio.platform.default.events.v2',
      'studio.table-events.v1',
    ]);
    expect(payloads(out.get('studio.platform.casino-a.events.v2'))).toEqual([
      { playerId: 'p-1', platformId: 'casino-a', betId: 'b1', amount: 500 },
    ]);
    expect(payloads(out.get('studio.table-events.v1'))).toEqual([
      { playerId: 'p-2', betId: 'b2', amount: 700 },
    ]);
  });

  it("splits a window's bets: each platform its own, recounted; the shared topic only the count", () => {
    const bets = [
      { playerId: '123', platformId: 'casino-a', main: 100 },
      { playerId: '123', platformId: 'casino-b', main: 200 },
      { playerId: '9', platformId: 'casino-a', main: 300 },
    ];
    const out = routeRows([row('BetsAccepted', { accepted: 3, bets })], routing);
    expect(payloads(out.get('studio.platform.casino-a.events.v2'))).toEqual([
      { accepted: 2, bets: [bets[0], bets[2]] },
    ]);
    expect(payloads(out.get('studio.platform.casino-b.events.v2'))).toEqual([
      { accepted: 1, bets: [bets[1]] },
    ]);
    expect(payloads(out.get('studio.table-events.v2'))).toEqual([{ accepted: 3 }]);
    // Neither is the default platform's: v1 gets the shared version (its seq has no gap).
    expect(payloads(out.get('studio.table-events.v1'))).toEqual([{ accepted: 3 }]);
  });

  it('keeps the bytes of a split event whose items are all one platform', () => {
    const r = row('BetsSettled', {
      batch: 1,
      batches: 1,
      settlements: [{ betId: 'b', playerId: 'p', stake: 100, returned: 200, net: 100 }],
    });
    const out = routeRows([r], routing);
    expect(out.get('studio.table-events.v1')![0]).toEqual(
      out.get('studio.platform.default.events.v2')![0],
    );
    expect(out.get('studio.table-events.v1')![0].value).toBe(toOutgoingMessage(r).value);
    // Settlement batches are numbered per platform: the shared topic gets neither number.
    expect(payloads(out.get('studio.table-events.v2'))).toEqual([{}]);
  });

  it("settles a Lux round's records per platform; the shared topic gets the round without them", () => {
    const records = [
      { seat: 2, role: 'seat', staked: 1_000, paid: 0, playerId: 'alice', platformId: 'casino-a' },
      {
        seat: 5,
        role: 'seat',
        staked: 1_000,
        paid: 2_500,
        playerId: 'bob',
        platformId: 'casino-b',
      },
      { seat: 5, role: 'behind', staked: 500, paid: 1_000, playerId: 'carol' },
    ];
    const round = { roundId: 'r-1', earlyEnd: null, dealerCards: ['TS', '7H'] };
    const out = routeRows([row('RoundSettled', { ...round, records })], routing);
    expect(payloads(out.get('studio.table-events.v2'))).toEqual([round]);
    expect(payloads(out.get('studio.platform.casino-a.events.v2'))).toEqual([
      { ...round, records: [records[0]] },
    ]);
    expect(payloads(out.get('studio.platform.casino-b.events.v2'))).toEqual([
      { ...round, records: [records[1]] },
    ]);
    // v1: the default platform's own part only (no player of another platform, ever).
    expect(payloads(out.get('studio.table-events.v1'))).toEqual([
      { ...round, records: [records[2]] },
    ]);
  });

  it('keeps a RoundSettled without records (the other games) public, the same bytes', () => {
    const r = row('RoundSettled', { roundId: 'r-1', dealerCards: ['TS'], totals: { main: 1 } });
    const out = routeRows([r], routing);
    expect([...out.keys()]).toEqual(['studio.table-events.v2', 'studio.table-events.v1']);
    expect(out.get('studio.table-events.v2')![0].value).toBe(toOutgoingMessage(r).value);
  });

  it("gives v1 every event but another platform's player's own, so its seq has no gaps", () => {
    const rows = [
      row('RoundStarted', { roundNumber: 1 }),
      row('SeatTaken', { seat: 2, playerId: 'alice', platformId: 'casino-a' }),
      row('BetAccepted', { playerId: 'alice', platformId: 'casino-a', amount: 100 }),
      row('BetAccepted', { playerId: 'bob', amount: 200 }),
      row('BetsAccepted', { accepted: 1, bets: [{ playerId: 'x', platformId: 'casino-a' }] }),
      row('RoundSettled', { roundId: 'r-1', records: [] }),
      // The practice bots are no platform's: v1 as under 1.x, no `bot` platform topic.
      row('BetsSettled', {
        batch: 1,
        batches: 1,
        settlements: [{ playerId: '1', platformId: 'bot' }],
      }),
      row('DecisionRequested', { seat: 1, playerId: '1', platformId: 'bot' }),
    ];
    const out = routeRows(rows, routing);
    const seqs = (topic: string) =>
      (out.get(topic) ?? []).map((m) => (JSON.parse(m.value) as { seq: number }).seq);
    const first = Number(rows[0].seq);
    expect(seqs('studio.table-events.v1')).toEqual([0, 1, 3, 4, 5, 6, 7].map((i) => first + i));
    expect([...out.keys()].filter((t) => t.includes('.bot.'))).toEqual([]);
    const v1 = out.get('studio.table-events.v1')!.map((m) => JSON.parse(m.value).payload);
    expect(v1[1]).toEqual({ seat: 2 }); // another platform's seat: the shared version
    expect(v1[5]).toEqual({
      batch: 1,
      batches: 1,
      settlements: [{ playerId: '1', platformId: 'bot' }],
    });
    expect(JSON.stringify(payloads(out.get('studio.table-events.v2')))).not.toMatch(/playerId/);
  });

  it("shows a seat taken on the shared topic without its player, whole on the player's platform", () => {
    const out = routeRows(
      [row('SeatTaken', { seat: 3, playerId: 'p-7', platformId: 'casino-b' })],
      routing,
    );
    expect(payloads(out.get('studio.table-events.v2'))).toEqual([{ seat: 3 }]);
    expect(payloads(out.get('studio.platform.casino-b.events.v2'))).toEqual([
      { seat: 3, playerId: 'p-7', platformId: 'casino-b' },
    ]);
  });

  it('keeps each topic in the rows order and leaves rows of other topics as they are', () => {
    const rows = [
      row('BettingOpened', { roundId: 'r-1' }),
      row('ScannerStatusChanged', { status: 'connected' }, 'studio.scanner.v1'),
      row('BetAccepted', { playerId: 'p', platformId: 'casino-a', betId: 'b' }),
      row('BettingClosed', { roundId: 'r-1', players: 1 }),
    ];
    const out = routeRows(rows, routing);
    const types = (topic: string) =>
      (out.get(topic) ?? []).map((m) => (JSON.parse(m.value) as { type: string }).type);
    expect(types('studio.table-events.v2')).toEqual(['BettingOpened', 'BettingClosed']);
    expect(types('studio.scanner.v1')).toEqual(['ScannerStatusChanged']);
    expect(types('studio.platform.casino-a.events.v2')).toEqual(['BetAccepted']);
  });

  it('without routing, every row goes to its own topic as before', () => {
    const out = routeRows([row('BetAccepted', { playerId: 'p' })]);
    expect([...out.keys()]).toEqual(['studio.table-events.v1']);
  });
});
