import { CardCode, parseCardCode } from '@studio/cards';
import { DEFAULT_INGESTION_RULES } from '@studio/scanner-protocol';
import type { Clock } from '../clock/clock';
import type { TableDefinition } from '../config/tables-config';
import { PokDengAdapter } from '../games/pok-deng/pok-deng.adapter';
import type { TableScannerState } from '../scanner/scanner.service';
import {
  initialTableState,
  MachineOutcome,
  TableInput,
  TableMachine,
  TableSettings,
  TableState,
  roundOf,
} from '../table-core/table-machine';
import type { TransitionListener } from '../tables/table-runtime';
import type { StoredCard } from './console-cards';
import { ConsoleStreamHub, MAX_UNREAD_BYTES, SseSink, StreamSettings } from './console-stream.hub';

const table = {
  id: 'pd-1',
  name: 'Pok Deng 1',
  game: 'pok-deng',
  currency: 'THB',
} as TableDefinition;
const settings: TableSettings = {
  tableId: 'pd-1',
  game: 'pok-deng',
  currency: 'THB',
  bettingWindowMs: 15_000,
  roundIntervalMs: 3_000,
  limits: { player: { min: 10, max: 100_000 }, pair: { min: 10, max: 10_000 } },
  ingestion: DEFAULT_INGESTION_RULES,
};

/** A real Pok Deng table machine, stepped by hand; the cards it writes stand in for round_cards. */
class PlayedTable {
  readonly machine = new TableMachine(settings, new PokDengAdapter({ bettingWindowMs: 15_000 }));
  state: TableState = initialTableState(settings, 8);
  now = Date.UTC(2026, 10, 29, 12, 0, 0);
  readonly stored: StoredCard[] = [];
  private ids = 0;

  step(input: TableInput): MachineOutcome {
    const outcome = this.machine.step(this.state, input, {
      now: this.now,
      newId: () => `id-${++this.ids}`,
    });
    this.state = outcome.state;
    if (outcome.writes.newRound) this.stored.length = 0;
    for (const r of outcome.writes.reveals) {
      const row = this.stored.find((c) => c.slot === r.slot);
      if (row) row.revealedAt = new Date(this.now).toISOString();
    }
    for (const c of outcome.writes.cards) {
      this.stored.push({
        slot: c.slot,
        card: c.card,
        faceDown: c.faceDown,
        revealedAt: c.faceDown ? null : new Date(this.now).toISOString(),
      });
    }
    return outcome;
  }

  read(code: string): MachineOutcome {
    this.now += 500;
    const card = parseCardCode(code)!;
    return this.step({
      type: 'reading',
      readingId: null,
      reading: {
        kind: 'card',
        card,
        code: code as CardCode,
        raw: new Uint8Array(),
        receivedAt: this.now,
      },
    });
  }

  fireDueTimers(): void {
    for (const t of [...this.state.timers].sort((a, b) => a.dueAt - b.dueAt)) {
      this.now = Math.max(this.now, t.dueAt);
      this.step({ type: 'timer', name: t.name, token: t.token });
    }
  }
}

class RecordingSink implements SseSink {
  readonly chunks: string[] = [];
  ended = false;
  /** Set to make the sink a client that reads nothing (every byte stays buffered). */
  stalled = false;
  writableLength = 0;
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    if (this.stalled) this.writableLength += Buffer.byteLength(chunk);
    return !this.stalled;
  }
  end(): void {
    this.ended = true;
  }
  events(name: string): Array<Record<string, unknown>> {
    return this.chunks
      .filter((c) => c.startsWith(`event: ${name}\n`))
      .map((c) => JSON.parse(c.split('\n')[1].slice('data: '.length)));
  }
}

/** Closed after each test, so a failed one leaves no heartbeat timer holding jest open. */
const openHubs: ConsoleStreamHub[] = [];
afterEach(() => openHubs.splice(0).forEach((hub) => hub.close()));

function hubFor(
  played: PlayedTable,
  options: Partial<StreamSettings> = { heartbeatMs: 60_000, outboxLagMs: 60_000 },
  /** Stands in for the round_cards query (a copy of the cards stored at the time of the call). */
  loadCards: () => Promise<StoredCard[]> = async () => played.stored.map((c) => ({ ...c })),
) {
  const listeners: TransitionListener[] = [];
  const requestListeners: Array<(tableId: string) => void> = [];
  const scanner: TableScannerState = {
    tableId: 'pd-1',
    port: '/dev/ttyUSB0',
    wireFormat: 'line',
    virtual: false,
    transport: 'serial',
    status: 'connected',
    since: '2026-11-29T12:00:00.000Z',
    reason: 'port open',
    reconnectAttempts: 0,
  };
  const clock: Clock = { now: () => new Date(played.now) };
  const hub = new ConsoleStreamHub(options);
  openHubs.push(hub);
  hub.start({
    tables: [table],
    registry: {
      get: () => ({
        ok: true,
        runtime: { snapshot: played.state, machine: played.machine } as never,
      }),
      onTransition: (listener) => listeners.push(listener),
    },
    scanners: { states: () => [scanner], onStatus: () => () => undefined },
    voidRequests: { onRequestRecorded: (listener) => requestListeners.push(listener) },
    loadCards,
    outboxLag: async () => ({ pending: 3, oldestPendingAt: null, oldestPendingAgeMs: 1200 }),
    clock,
  });
  const announce = async (outcome: MachineOutcome) => {
    for (const l of listeners) l('pd-1', outcome);
    await new Promise((r) => setTimeout(r, 10));
  };
  const recordVoidRequest = async () => {
    for (const l of requestListeners) l('pd-1');
    await new Promise((r) => setTimeout(r, 10));
  };
  return { hub, announce, recordVoidRequest };
}

/** Shoe burnt (3C shown, KD 4H 9S burnt), round 1: round burn 2D, then P1 TC and P2 6C face down. */
function dealtRound(): { played: PlayedTable; last: MachineOutcome } {
  const played = new PlayedTable();
  played.step({ type: 'start' });
  for (const c of ['3C', 'KD', '4H', '9S']) played.read(c);
  played.fireDueTimers();
  let last = played.read('2D');
  for (const c of ['TC', '6C']) last = played.read(c);
  return { played, last };
}

const FACE_DOWN = ['"TC"', '"6C"', '"2D"'];

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

describe('console stream hub, tables driven by another instance', () => {
  /** A hub on an instance that does not drive pd-1: it sees the table's stored state only. */
  function remoteHubFor(played: PlayedTable) {
    const stored = { version: 7, state: played.state };
    const loads: number[] = [];
    const hub = new ConsoleStreamHub({ heartbeatMs: 60_000, outboxLagMs: 60_000 });
    openHubs.push(hub);
    hub.start({
      tables: [table],
      registry: {
        get: () => ({ ok: false, code: 'table-not-driven-here', message: 'elsewhere' }),
        onTransition: () => undefined,
      },
      scanners: { states: () => [], onStatus: () => () => undefined },
      stored: {
        load: async () => {
          loads.push(stored.version);
          return { ...stored };
        },
      },
      loadCards: async () => played.stored.map((c) => ({ ...c })),
      outboxLag: async () => ({ pending: 0, oldestPendingAt: null, oldestPendingAgeMs: 0 }),
      clock: { now: () => new Date(played.now) },
    });
    /** The owner commits: a newer version is stored. */
    const commit = (outcome: MachineOutcome) => {
      stored.state = outcome.state;
      stored.version += 1;
      return stored.version;
    };
    const settle = () => new Promise((r) => setTimeout(r, 10));
    return { hub, commit, settle, loads };
  }

  it('pushes views rebuilt from the stored state, without face-down cards for the dealer', async () => {
    const { played } = dealtRound();
    const { hub, commit, settle } = remoteHubFor(played);
    const dealer = new RecordingSink();
    const supervisor = new RecordingSink();
    await hub.subscribe(dealer, { tableId: 'pd-1', privileged: false });
    await hub.subscribe(supervisor, { tableId: 'pd-1', privileged: true });
    const version = commit(played.read('9C'));
    hub.remoteChanged({ tableId: 'pd-1', version, kind: 'state' });
    await settle();

    const views = dealer.events('table');
    expect(views).toHaveLength(2);
    expect(views[1]).toMatchObject({ driven: false, drivenElsewhere: true });
    expect(views[1].cards).toContainEqual({ slot: 'player-3/1', hidden: true, card: null });
    expect(views[1]).not.toHaveProperty('faceDownCards');
    for (const code of [...FACE_DOWN, '"9C"']) expect(dealer.chunks.join('')).not.toContain(code);
    // The supervisor's view of the same change carries them (so the check above can fail).
    expect(supervisor.events('table')[1].cards).toContainEqual({
      slot: 'player-3/1',
      hidden: true,
      card: '9C',
    });
  });

  it('drops notices that are not newer than the views already pushed', async () => {
    const { played } = dealtRound();
    const { hub, commit, settle, loads } = remoteHubFor(played);
    const supervisor = new RecordingSink();
    await hub.subscribe(supervisor, { tableId: 'pd-1', privileged: true });
    const v8 = commit(played.read('9C'));
    hub.remoteChanged({ tableId: 'pd-1', version: v8, kind: 'state' });
    await settle();
    const loadsBefore = loads.length;
    // The same notice twice, an older one late, and one without a version (nothing newer stored).
    hub.remoteChanged({ tableId: 'pd-1', version: v8, kind: 'state' });
    hub.remoteChanged({ tableId: 'pd-1', version: v8 - 1, kind: 'state' });
    hub.remoteChanged({ tableId: 'pd-1', kind: 'state' });
    await settle();
    expect(supervisor.events('table')).toHaveLength(2);
    expect(loads.length).toBe(loadsBefore + 1); // only the version-less one was worth a read

    const v9 = commit(played.read('4D'));
    hub.remoteChanged({ tableId: 'pd-1', version: v9, kind: 'state-action' });
    await settle();
    expect(supervisor.events('table')).toHaveLength(3);
    expect(supervisor.events('action')).toEqual([{ tableId: 'pd-1' }]);
  });

  it('coalesces a burst of notices into one read of the stored state per table', async () => {
    const { played } = dealtRound();
    const { hub, commit, settle, loads } = remoteHubFor(played);
    await hub.subscribe(new RecordingSink(), { tableId: 'pd-1', privileged: false });
    const supervisor = new RecordingSink();
    await hub.subscribe(supervisor, { tableId: 'pd-1', privileged: true });
    const loadsBefore = loads.length;
    commit(played.read('9C'));
    for (let i = 0; i < 5; i++) hub.remoteChanged({ tableId: 'pd-1', kind: 'state' });
    // A notice of an action log change folded into the queued refresh is not lost.
    hub.remoteChanged({ tableId: 'pd-1', kind: 'state-action' });
    await settle();
    expect(loads.length).toBe(loadsBefore + 1);
    expect(supervisor.events('action')).toEqual([{ tableId: 'pd-1' }]);
  });

  it('ignores notices of a table driven here: its own transitions push its views', async () => {
    const { played } = dealtRound();
    const { hub } = hubFor(played);
    const supervisor = new RecordingSink();
    await hub.subscribe(supervisor, { tableId: 'pd-1', privileged: true });
    hub.remoteChanged({ tableId: 'pd-1', version: 99, kind: 'state' });
    hub.refreshRemote();
    await new Promise((r) => setTimeout(r, 10));
    expect(supervisor.events('table')).toHaveLength(1);
  });
});
