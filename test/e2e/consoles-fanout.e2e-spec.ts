import { ServiceProcess, spawnService } from '../support/service-process';
import { shoeDealtByTheTest, waitFor, writeTablesFile } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(240_000);

const TABLE_ID = 'fan-pokdeng';

interface ConsoleView {
  tableId: string;
  driven: boolean;
  drivenElsewhere?: boolean;
  shoe: { number: number } | null;
  round: { id: string; number: number; phase: string } | null;
  cards: Array<{ slot: string; hidden: boolean; card: string | null }>;
  paused: unknown;
  faceDownCards?: unknown;
}

/** An open Server-Sent Events stream: every `table` view it delivered, in order. */
interface OpenStream {
  views: ConsoleView[];
  text: () => string;
  ended: () => boolean;
  close: () => Promise<void>;
}

/**
 * Three instances on one database: a console connected to instance A shows live a table driven by
 * instance C (views fan out over PostgreSQL LISTEN/NOTIFY and are rebuilt from the stored state,
 * with the dealer's hidden-card rules), takes a supervisor's actions on it to C and back, and
 * stays live when C is killed and another instance takes the table over.
 */
describe('consoles on any instance see every table live and act on it', () => {
  let db: TestDatabase;
  const running: ServiceProcess[] = [];
  const streams: OpenStream[] = [];
  const tablesFile = writeTablesFile([
    {
      id: TABLE_ID,
      name: 'Fan-out Pok Deng',
      game: 'pok-deng',
      currency: 'THB',
      bettingWindowMs: 1_000,
      roundIntervalMs: 200,
      scanner: {
        wireFormat: 'studio-framed-v1',
        virtualShoe: shoeDealtByTheTest(5),
      },
    },
  ] as never);

  beforeAll(async () => {
    db = await createTestDatabase('fanout');
  });

  afterAll(async () => {
    await Promise.all(streams.map((s) => s.close()));
    for (const s of running) s.killGroup('SIGKILL');
    await db.drop();
  });

  async function start(instanceId: string) {
    const service = spawnService({
      DATABASE_URL: db.url,
      PORT: '0',
      LOG_LEVEL: 'info',
      STUDIO_INSTANCE_ID: instanceId,
      TABLE_LEASE_TTL_MS: '3000',
      DEMO_USERS: 'true',
      VIRTUAL_DEALER_PACE_MS: '20',
      TABLES_FILE: tablesFile,
    });
    running.push(service);
    const url = await service.listening();
    const tokenOf = async (username: string) => {
      const login = await fetch(`${url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: `${username}-demo` }),
      });
      return ((await login.json()) as { token: string }).token;
    };
    const supervisor = await tokenOf('supervisor');
    const dealer = await tokenOf('dealer');
    const tables = async () =>
      (await (
        await fetch(`${url}/tables`, { headers: { authorization: `Bearer ${supervisor}` } })
      ).json()) as ConsoleView[];
    return { service, url, supervisor, dealer, tables };
  }

  async function openStream(url: string, path: string, token: string): Promise<OpenStream> {
    const controller = new AbortController();
    const response = await fetch(`${url}${path}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let pending = '';
    let ended = false;
    const views: ConsoleView[] = [];
    const done = (async () => {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        const chunk = decoder.decode(value, { stream: true });
        text += chunk;
        pending += chunk;
        const blocks = pending.split('\n\n');
        pending = blocks.pop()!;
        for (const block of blocks) {
          const [event, data] = block.split('\n');
          if (event === 'event: table') views.push(JSON.parse(data.slice('data: '.length)));
        }
      }
    })()
      .catch(() => undefined)
      .finally(() => (ended = true));
    const stream: OpenStream = {
      views,
      text: () => text,
      ended: () => ended,
      close: async () => {
        controller.abort();
        await done;
      },
    };
    streams.push(stream);
    return stream;
  }

  /** Rounds the stream has shown card by card: each with at least five different card counts. */
  const roundsDealtLive = (s: OpenStream) => {
    const counts = new Map<string, Set<number>>();
    for (const v of s.views) {
      if (!v.round) continue;
      const seen = counts.get(v.round.id) ?? new Set<number>();
      counts.set(v.round.id, seen.add(v.cards.length));
    }
    return [...counts.values()].filter((seen) => seen.size >= 5).length;
  };
  /** A round's place in the table's history: round numbers start again with each shoe. */
  const order = (v: ConsoleView) => (v.shoe?.number ?? 0) * 10_000 + (v.round?.number ?? 0);

  it('streams views of a table driven by another instance, hides face-down cards from the dealer, and stays live across a takeover', async () => {
    // C starts alone, so it takes the table's lease; A and B start once C drives it.
    const c = await start('fanout-c');
    await waitFor('C to drive the table', async () => (await c.tables())[0].driven, 30_000);
    const a = await start('fanout-a');
    const b = await start('fanout-b');

    // A does not drive the table, yet its table list answers from the stored state.
    const listed = (await a.tables())[0];
    expect(listed).toMatchObject({ tableId: TABLE_ID, driven: false, drivenElsewhere: true });

    const supervisor = await openStream(
      a.url,
      `/console/api/tables/${TABLE_ID}/stream`,
      a.supervisor,
    );
    const dealer = await openStream(a.url, `/console/api/tables/${TABLE_ID}/stream`, a.dealer);
    const overview = await openStream(a.url, '/console/api/tables/stream', a.supervisor);

    // Live while C plays: A's views follow C's rounds card by card.
    await waitFor(
      'A to show three rounds of C’s table dealt card by card',
      async () => roundsDealtLive(supervisor) >= 3 && roundsDealtLive(dealer) >= 3,
      60_000,
    );
    expect(supervisor.views.every((v) => v.drivenElsewhere === true && !v.driven)).toBe(true);
    expect(overview.views.some((v) => v.drivenElsewhere && v.round)).toBe(true);

    // Face-down cards reached the supervisor's stream (so the dealer check below can fail)...
    const faceDown = supervisor.views
      .flatMap((v) => v.cards)
      .filter((c) => c.hidden && c.card !== null)
      .map((c) => c.card!);
    expect(faceDown.length).toBeGreaterThan(0);
    // ...and never the dealer's: every hidden card is a back, no faceDownCards anywhere.
    const dealerCards = dealer.views.flatMap((v) => v.cards);
    expect(dealerCards.some((c) => c.hidden)).toBe(true);
    expect(dealerCards.filter((c) => c.hidden).every((c) => c.card === null)).toBe(true);
    expect(dealer.views.some((v) => 'faceDownCards' in v)).toBe(false);
    for (const card of new Set(faceDown)) {
      expect(dealer.text()).not.toContain(`"hidden":true,"card":"${card}"`);
    }

    // Views of one table never go back: rounds on A's stream only move forward.
    const positions = supervisor.views.filter((v) => v.round).map(order);
    expect(positions).toEqual([...positions].sort((x, y) => x - y));

    // The supervisor on A acts on C's table: C applies the action and A answers with C's answer.
    const act = (action: string, body: Record<string, unknown> = {}) =>
      fetch(`${a.url}/tables/${TABLE_ID}/${action}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.supervisor}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const early = await act('resume');
    expect({ status: early.status, body: await early.json() }).toMatchObject({
      status: 409,
      body: { error: 'not-paused' },
    });
    const pause = await act('pause', { reason: 'camera check' });
    expect({ status: pause.status, body: await pause.json() }).toMatchObject({
      status: 200,
      body: { accepted: true },
    });
    expect((await c.tables())[0]).toMatchObject({ driven: true, paused: expect.anything() });
    await waitFor('A’s stream to show the pause', async () => !!supervisor.views.at(-1)?.paused);
    const resume = await act('resume');
    expect(resume.status).toBe(200);
    expect((await c.tables())[0].paused).toBeFalsy();

    // C is killed; A or B takes the table over and the same stream on A stays live.
    const beforeKill = supervisor.views.length;
    const roundsOfC = new Set(supervisor.views.flatMap((v) => (v.round ? [v.round.id] : [])));
    c.service.killGroup('SIGKILL');
    await c.service.exited(30_000);
    await waitFor(
      'the stream on A to show a new round played by the next owner',
      async () => {
        // A table taken over mid-round waits paused for a supervisor (a card may have been lost);
        // the supervisor on A resumes it wherever it is driven now.
        const [table] = await a.tables();
        if (table.paused) {
          await fetch(`${a.url}/tables/${TABLE_ID}/resume`, {
            method: 'POST',
            headers: { authorization: `Bearer ${a.supervisor}` },
          });
        }
        return supervisor.views
          .slice(beforeKill)
          .some((v) => v.round !== null && !roundsOfC.has(v.round.id));
      },
      60_000,
      250,
    );
    const [viewedFromA] = await a.tables();
    const [viewedFromB] = await b.tables();
    expect([viewedFromA.driven, viewedFromB.driven].filter(Boolean)).toHaveLength(1);
    expect(supervisor.ended()).toBe(false);
    expect(dealer.ended()).toBe(false);
    const dealerAfter = dealer.views.flatMap((v) => v.cards).filter((c) => c.hidden);
    expect(dealerAfter.every((c) => c.card === null)).toBe(true);
    expect(dealer.views.some((v) => 'faceDownCards' in v)).toBe(false);
  });
});
