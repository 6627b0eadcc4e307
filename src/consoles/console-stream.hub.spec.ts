import { DEFAULT_INGESTION_RULES } from '@studio/scanner-protocol';
import { MachineOutcome, roundOf } from '../table-core/table-machine';
import { emptyWrites } from '../table-core/table-writes';
import { MAX_UNREAD_BYTES } from './console-stream.hub';
import {
  closeOpenHubs,
  dealtRound,
  FACE_DOWN,
  hubFor,
  RecordingSink,
} from './console-stream.testing';

afterEach(closeOpenHubs);

describe('console stream hub', () => {
  it('never sends a dealer a face-down card, first view or after a transition; supervisors get them', async () => {
    const { played, last } = dealtRound();
    expect(Object.values(played.state.faceDownCards).sort()).toEqual(['2D', '6C', 'TC']);
    const { hub, announce } = hubFor(played);
    const dealer = new RecordingSink();
    const supervisor = new RecordingSink();
    await hub.subscribe(dealer, { tableId: 'pd-1', privileged: false });
    await hub.subscribe(supervisor, { tableId: 'pd-1', privileged: true });
    await announce(last);

    const dealerViews = dealer.events('table');
    expect(dealerViews).toHaveLength(2);
    const dealerText = dealer.chunks.join('');
    for (const code of FACE_DOWN) expect(dealerText).not.toContain(code);
    expect(dealerViews[1]).not.toHaveProperty('faceDownCards');
    expect(dealerViews[1].cards).toEqual([
      { slot: 'burn', hidden: true, card: null },
      { slot: 'player-1/1', hidden: true, card: null },
      { slot: 'player-2/1', hidden: true, card: null },
    ]);
    expect(dealerViews[1].expectedCard).toMatchObject({ slot: 'player-3/1' });

    // The same stream for a supervisor carries them (so the check above can fail).
    const supervisorText = supervisor.chunks.join('');
    for (const code of FACE_DOWN) expect(supervisorText).toContain(code);
    expect(supervisor.events('table')[1].cards).toContainEqual({
      slot: 'player-1/1',
      hidden: true,
      card: 'TC',
    });
    hub.close();
  });

  it('groups the cards by hand and totals only what the viewer may see', async () => {
    const { played } = dealtRound();
    const { hub, announce } = hubFor(played);
    const dealer = new RecordingSink();
    const supervisor = new RecordingSink();
    await hub.subscribe(dealer, { tableId: 'pd-1', privileged: false });
    await hub.subscribe(supervisor, { tableId: 'pd-1', privileged: true });
    // The rest of the deal: P3..P5 and the banker, then every second card (P1 TC+9C is pok 9).
    let last: MachineOutcome | undefined;
    for (const c of ['7D', '8H', '2S', '5C', '9C', '3H', '4S', 'JH', 'AD', 'QS']) {
      last = played.read(c);
    }
    await announce(last!);
    type Hand = { id: string; total: string | null; faceDown: boolean; cards: unknown[] };
    const hands = (sink: RecordingSink) => sink.events('table').at(-1)!.hands as Hand[];
    expect(hands(dealer).map((h) => [h.id, h.cards.length, h.total, h.faceDown])).toEqual([
      ['burn', 1, null, true],
      ['player-1', 2, null, true],
      ['player-2', 2, null, true],
      ['player-3', 2, null, true],
      ['player-4', 2, null, true],
      ['player-5', 2, null, true],
      ['banker', 2, null, true],
    ]);
    // A supervisor sees the face-down cards, and so their totals.
    expect(hands(supervisor).find((h) => h.id === 'player-1')).toMatchObject({
      total: 'pok 9 · 2 deng',
      faceDown: true,
    });

    // Betting closes and the hands are revealed: now the dealer's view totals them too.
    await announce(played.step({ type: 'close-betting', by: 'dealer' }));
    expect(dealer.events('table').at(-1)!.cardsOf).toBe('last-round');
    const revealed = hands(dealer).find((h) => h.id === 'player-1')!;
    expect(revealed).toMatchObject({ total: 'pok 9 · 2 deng', faceDown: false });
    expect(hands(dealer).find((h) => h.id === 'burn')).toMatchObject({ total: null });
    hub.close();
  });

  it('shows a rescan with its attempt count and clears it when the card is read', async () => {
    const { played } = dealtRound();
    const { hub, announce } = hubFor(played);
    const dealer = new RecordingSink();
    await hub.subscribe(dealer, { tableId: 'pd-1', privileged: false });
    played.now += 500;
    const misread = played.step({
      type: 'reading',
      readingId: null,
      reading: {
        kind: 'unrecognised',
        code: 'NOREAD',
        reason: 'reader-reported',
        raw: new Uint8Array(),
        receivedAt: played.now,
      },
    });
    await announce(misread);
    await announce(played.read('KH'));
    const views = dealer.events('table');
    expect(views.map((v) => v.rescan)).toEqual([null, { attempts: 1, escalated: false }, null]);
    expect(views[1].rescanLimit).toBe(DEFAULT_INGESTION_RULES.maxFailedAttempts);
    expect(dealer.events('news').map((n) => n.type)).toEqual(['RescanRequired']);
    expect(JSON.stringify(views[2])).not.toContain('"KH"');
    hub.close();
  });

  it('never lets a slow first view overtake the view of a later transition', async () => {
    const { played } = dealtRound();
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const { hub, announce } = hubFor(played, undefined, async () => {
      const rows = played.stored.map((c) => ({ ...c }));
      calls += 1;
      if (calls === 1) await slow; // the first view's query is slow
      return rows;
    });
    const dealer = new RecordingSink();
    const subscribed = hub.subscribe(dealer, { tableId: 'pd-1', privileged: false });
    const next = played.read('KH'); // player-3/1 is dealt while the first view is being built
    await announce(next);
    release();
    await subscribed;
    await new Promise((r) => setTimeout(r, 10));
    const views = dealer.events('table');
    expect(views.length).toBeGreaterThan(0);
    expect((views[views.length - 1].cards as unknown[]).length).toBe(4);
    hub.close();
  });

  it('reads the cards again when a table takes up a stored state whose writes are not at hand', async () => {
    const { played, last } = dealtRound();
    const { hub, announce } = hubFor(played);
    const dealer = new RecordingSink();
    await hub.subscribe(dealer, { tableId: 'pd-1', privileged: false });
    await announce(last); // the cards are read once and kept for the next views
    // A commit whose answer was lost dealt KH: the runtime takes up the stored state and announces
    // it with no writes (TableRuntime.reload), so only the stored cards know what was dealt.
    const lost = played.read('KH');
    await announce({ state: lost.state, writes: emptyWrites() });
    const views = dealer.events('table');
    expect((views[views.length - 1].cards as unknown[]).length).toBe(4);
    hub.close();
  });

  it('drops a stream whose client is gone at its next heartbeat, even if nobody called its stop', async () => {
    const { played } = dealtRound();
    const { hub } = hubFor(played, { heartbeatMs: 20, outboxLagMs: 60_000 });
    const gone = new RecordingSink();
    const staying = new RecordingSink();
    await hub.subscribe(gone, { tableId: 'pd-1', privileged: false });
    await hub.subscribe(staying, { tableId: 'pd-1', privileged: false });
    // The connection closed before the controller could listen for it (or while the first views
    // were still being built): its stop is never called.
    gone.destroyed = true;
    await new Promise((r) => setTimeout(r, 70));
    expect(hub.connections).toBe(1);
    const beats = gone.chunks.filter((c) => c === ': heartbeat\n\n').length;
    await new Promise((r) => setTimeout(r, 50));
    expect(gone.chunks.filter((c) => c === ': heartbeat\n\n').length).toBe(beats);
    hub.close();
  });

  it('sends heartbeats and the outbox lag, stops when the console leaves, ends streams at shutdown', async () => {
    const { played, last } = dealtRound();
    const { hub, announce } = hubFor(played, { heartbeatMs: 20, outboxLagMs: 20 });
    const overview = new RecordingSink();
    const leaving = new RecordingSink();
    await hub.subscribe(overview, { privileged: true });
    const stop = await hub.subscribe(leaving, { tableId: 'pd-1', privileged: false });
    expect(overview.events('outbox')[0]).toEqual({
      pending: 3,
      oldestPendingAt: null,
      oldestPendingAgeMs: 1200,
    });
    await new Promise((r) => setTimeout(r, 70));
    expect(overview.chunks.filter((c) => c === ': heartbeat\n\n').length).toBeGreaterThan(0);
    expect(overview.events('outbox').length).toBeGreaterThan(1);

    if (stop) stop();
    const before = leaving.chunks.length;
    await announce(last);
    await new Promise((r) => setTimeout(r, 50));
    expect(leaving.chunks).toHaveLength(before);
    expect(hub.connections).toBe(1);

    hub.close();
    expect(overview.ended).toBe(true);
    expect(hub.accepting).toBe(false);
    expect(await hub.subscribe(new RecordingSink(), { privileged: true })).toBe(false);
  });

  it('tells supervisors (not dealers) of a void request waiting for approval, which no transition announces', async () => {
    const { played } = dealtRound();
    const { hub, recordVoidRequest } = hubFor(played);
    const dealer = new RecordingSink();
    const supervisor = new RecordingSink();
    const overview = new RecordingSink();
    await hub.subscribe(dealer, { tableId: 'pd-1', privileged: false });
    await hub.subscribe(supervisor, { tableId: 'pd-1', privileged: true });
    await hub.subscribe(overview, { privileged: true });
    expect(overview.events('action')).toEqual([]);
    await recordVoidRequest();
    expect(supervisor.events('action')).toEqual([{ tableId: 'pd-1' }]);
    expect(overview.events('action')).toEqual([{ tableId: 'pd-1' }]);
    expect(dealer.events('action')).toEqual([]);
  });

  it('shows the dealer the card readings waiting for the database, which no transition announces', async () => {
    const { played } = dealtRound();
    const { hub, waitForDatabase } = hubFor(played);
    const dealer = new RecordingSink();
    await hub.subscribe(dealer, { tableId: 'pd-1', privileged: false });
    expect(dealer.events('table').at(-1)).toMatchObject({ databaseWait: null });
    const wait = { since: '2026-11-29T12:00:05.000Z', readings: 2 };
    await waitForDatabase(wait);
    expect(dealer.events('table').at(-1)).toMatchObject({ databaseWait: wait });
    await waitForDatabase(null);
    expect(dealer.events('table').at(-1)).toMatchObject({ databaseWait: null });
  });

  it('tells supervisors to reload the action log when a round ends (its pending void requests lapse)', async () => {
    const { played, last } = dealtRound();
    const { hub, announce } = hubFor(played);
    const dealer = new RecordingSink();
    const supervisor = new RecordingSink();
    await hub.subscribe(dealer, { tableId: 'pd-1', privileged: false });
    await hub.subscribe(supervisor, { tableId: 'pd-1', privileged: true });
    await announce(last);
    expect(supervisor.events('action')).toEqual([]);
    const roundId = roundOf(played.state)!.id;
    await announce({
      ...last,
      writes: {
        ...last.writes,
        roundStatus: { id: roundId, status: 'completed', phase: 'settled', ended: true },
      },
    });
    expect(supervisor.events('action')).toEqual([{ tableId: 'pd-1' }]);
    expect(dealer.events('action')).toEqual([]);
  });

  it('ends the stream of a console that stops reading once 1 MiB of views is unread', async () => {
    const { played, last } = dealtRound();
    const { hub, announce } = hubFor(played);
    const stalled = new RecordingSink();
    const reading = new RecordingSink();
    stalled.stalled = true;
    await hub.subscribe(stalled, { tableId: 'pd-1', privileged: true });
    await hub.subscribe(reading, { tableId: 'pd-1', privileged: true });
    await announce(last);
    expect(stalled.ended).toBe(false);
    // As if it had left almost a mebibyte of views unread: the next view tips it over.
    stalled.writableLength += MAX_UNREAD_BYTES - stalled.writableLength - 10;
    await announce(last);
    expect(stalled.ended).toBe(true);
    const sent = stalled.chunks.length;
    await announce(last);
    expect(stalled.chunks).toHaveLength(sent);
    // The console that reads keeps its stream.
    expect(reading.ended).toBe(false);
    expect(hub.connections).toBe(1);
  });

  describe('sessions', () => {
    /** A sink whose request carries a session the test can end. */
    function signedIn(userId: string, session = { active: true }) {
      const sink = new RecordingSink() as RecordingSink & { req: object };
      sink.req = { studioSession: { userId, isActive: async () => session.active } };
      return { sink, session };
    }
    const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

    it('ends a stream at the first heartbeat after its session ends, and keeps the others', async () => {
      const { played } = dealtRound();
      const { hub } = hubFor(played, { heartbeatMs: 20, outboxLagMs: 60_000 });
      const ended = signedIn('u-1');
      const other = signedIn('u-2');
      await hub.subscribe(ended.sink, { tableId: 'pd-1', privileged: true });
      await hub.subscribe(other.sink, { tableId: 'pd-1', privileged: true });
      await tick(50);
      expect(ended.sink.ended).toBe(false);
      ended.session.active = false;
      await tick(50);
      expect(ended.sink.ended).toBe(true);
      expect(ended.sink.events('session-ended')).toEqual([{ error: 'session-ended' }]);
      expect(other.sink.ended).toBe(false);
      expect(hub.connections).toBe(1);
    });

    it("refuses a user's stream beyond the cap with a clear event; the open ones keep running", async () => {
      const { played } = dealtRound();
      const { hub } = hubFor(played, { heartbeatMs: 60_000, maxStreamsPerUser: 2 });
      const first = signedIn('u-1');
      const second = signedIn('u-1');
      const third = signedIn('u-1');
      const someoneElse = signedIn('u-2');
      expect(await hub.subscribe(first.sink, { tableId: 'pd-1', privileged: true })).not.toBe(
        false,
      );
      expect(await hub.subscribe(second.sink, { privileged: true })).not.toBe(false);
      expect(await hub.subscribe(third.sink, { tableId: 'pd-1', privileged: true })).toBe(false);
      expect(third.sink.ended).toBe(true);
      expect(third.sink.events('refused')).toEqual([
        expect.objectContaining({ error: 'too-many-streams' }),
      ]);
      expect(third.sink.chunks.join('')).toMatch(/^retry: 60000\n/);
      expect(first.sink.ended || second.sink.ended).toBe(false);
      expect(await hub.subscribe(someoneElse.sink, { tableId: 'pd-1', privileged: true })).not.toBe(
        false,
      );
      expect(hub.connections).toBe(3);
    });
  });
});
