import fc from 'fast-check';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { signIn, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(240_000);

/**
 * Every HTTP route, for every caller (no token, a garbage token, dealer, supervisor, auditor, the
 * platform key), with arbitrary JSON bodies, path and query parameters (NUL, lone surrogates,
 * 10,000 characters, `__proto__`, numbers as strings...): never a 5xx, and a refused request
 * writes nothing (bets, player decisions, supervisor actions).
 */
const PLATFORM_KEY = 'k-properties';
const TABLE_IDS = ['pd-prop', 'lux-prop', 'ibj-prop'];
/** Bounded and seeded for CI; HTTP_PROPERTIES_RUNS / _SEED explore further. */
const RUNS_PER_GROUP = Number(process.env.HTTP_PROPERTIES_RUNS ?? 60);

const SEED = Number(process.env.HTTP_PROPERTIES_SEED ?? 20261130);

const virtualShoe = (seed: number) => ({
  wireFormat: 'line',
  virtualShoe: { seed, intervalMs: 3_600_000, misreadRate: 0, heartbeatIntervalMs: 60_000 },
});
const TABLES = [
  ['pd-prop', 'pok-deng', 'THB'],
  ['lux-prop', 'blackjack-lux', 'EUR'],
  ['ibj-prop', 'infinite-blackjack', 'EUR'],
].map(
  ([id, game, currency], i) =>
    ({
      id,
      name: id,
      game,
      currency,
      bettingWindowMs: 600_000,
      scanner: virtualShoe(11 + i),
    }) as unknown as TableDefinition,
);

type Caller = 'none' | 'garbage' | 'dealer' | 'supervisor' | 'auditor' | 'platform';
const CALLERS: Caller[] = ['none', 'garbage', 'dealer', 'supervisor', 'auditor', 'platform'];

interface Route {
  method: string;
  path: string;
}

/** The Nest router's routes (Swagger UI's and the request logger's `/{*path}` excluded). */
function routerRoutes(studio: RunningStudio): Route[] {
  const express = studio.app.getHttpAdapter().getInstance() as {
    router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
  };
  const routes: Route[] = [];
  for (const { route } of express.router.stack) {
    if (!route || route.path.startsWith('/docs') || route.path === '/{*path}') continue;
    for (const [method, on] of Object.entries(route.methods)) {
      if (on && method !== '_all') routes.push({ method: method.toUpperCase(), path: route.path });
    }
  }
  return routes;
}

/** Percent-encodes like a client that sends the raw UTF-8 bytes, lone surrogates included. */
function encode(text: string): string {
  let out = '';
  for (const char of text) {
    const unit = char.charCodeAt(0);
    out +=
      char.length === 1 && unit >= 0xd800 && unit <= 0xdfff
        ? [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(char);
  }
  return out;
}

/** What broke the HTTP API before: each is likely, so 60 runs meet them all. */
const hostileText = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  'x'.repeat(10_000),
  '__proto__',
  'constructor',
  'toString',
  '1e0',
  '0x1',
  ' 1',
  '',
  '../../etc',
);
const plausibleText = fc.constantFrom(
  '1',
  '2',
  '7',
  '-1',
  '10.5',
  'main',
  'player',
  'pair',
  'pairs',
  'hit',
  'stand',
  'insurance',
  'follow-double',
  'AS',
  'ZZ',
  'player-1/1',
  'banker/1',
  'a reason',
  '2026-11-29T00:00:00Z',
  '1969-12-31',
  'csv',
  'dealer',
  'completed',
  '00000000-0000-0000-0000-000000000000',
  ...TABLE_IDS,
);
const nastyText = fc.oneof(
  { arbitrary: hostileText, weight: 4 },
  { arbitrary: plausibleText, weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 24 }), weight: 1 },
);

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: nastyText, weight: 6 },
  {
    arbitrary: fc.constantFrom(1000, 100, 10.5, 0, -5, 1e13, 1e308, Number.MAX_SAFE_INTEGER + 2),
    weight: 2,
  },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.oneof(fc.boolean(), fc.constant(null)), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
  { arbitrary: fc.dictionary(nastyText, fc.integer(), { maxKeys: 3 }), weight: 1 },
);

const FIELDS = [
  'commandId',
  'roundId',
  'playerId',
  'betType',
  'spot',
  'amount',
  'sideBets',
  'currency',
  'action',
  'seat',
  'reason',
  'slot',
  'card',
  'username',
  'password',
  'tableId',
  'type',
  '__proto__',
  'constructor',
];

/** A JSON text: any JSON, an object of known fields with any values, or not JSON at all. */
const bodyText: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc
    .array(fc.tuple(fc.constantFrom(...FIELDS), anyValue), { maxLength: 8 })
    .map(
      (entries) =>
        `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v ?? null)}`).join(',')}}`,
    ),
  // Written by hand so that a `__proto__` key really is in the text.
  fc
    .array(fc.tuple(fc.constantFrom(...FIELDS), anyValue), { maxLength: 8 })
    .map(
      (entries) =>
        `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v ?? null)}`).join(',')}}`,
    ),
  fc
    .record({
      playerId: fc.oneof(fc.constantFrom('p1', 'p2'), nastyText),
      betType: fc.oneof(fc.constantFrom('player', 'main', 'pair'), nastyText),
      spot: fc.oneof(fc.constantFrom('1', '2'), nastyText),
      amount: fc.oneof(fc.constantFrom(1000, 500), anyValue),
    })
    .map((bet) => JSON.stringify(bet)),
  fc.constantFrom('', 'not json', '{"a":', '[]', '"text"', 'null', '12', '{"reason":"\\u0000"}'),
);

const QUERY_KEYS = [
  'tableId',
  'limit',
  'from',
  'to',
  'cursor',
  'format',
  'view',
  'playerId',
  'status',
  'game',
  'shoeId',
  'x',
];

interface Call {
  params: string[];
  query: Array<[string, string]>;
  body: string;
}

const callOf = (params: number): fc.Arbitrary<Call> =>
  fc.record({
    params: fc.array(
      fc.oneof(
        { arbitrary: fc.constantFrom(...TABLE_IDS), weight: 3 },
        { arbitrary: nastyText, weight: 2 },
      ),
      {
        minLength: params,
        maxLength: params,
      },
    ),
    query: fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), nastyText), { maxLength: 4 }),
    body: bodyText,
  });

describe('every HTTP route, every caller, arbitrary input', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  const headers: Record<Caller, Record<string, string>> = {
    none: {},
    garbage: { authorization: `Bearer ${'g'.repeat(43)}` },
    dealer: {},
    supervisor: {},
    auditor: {},
    platform: { 'x-platform-key': PLATFORM_KEY },
  };

  beforeAll(async () => {
    db = await createTestDatabase('http_properties');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: TABLES,
      env: { DEMO_USERS: 'true', PLATFORM_API_KEYS: PLATFORM_KEY, VIRTUAL_DEALER_PACE_MS: '20' },
    });
    for (const role of ['dealer', 'supervisor', 'auditor'] as const) {
      headers[role] = { authorization: `Bearer ${await signIn(studio.url, role, `${role}-demo`)}` };
    }
    // Bets and decisions reach the tables' machines, not only the schemas.
    await waitFor(
      'betting to open at every table',
      async () => {
        const views = await Promise.all(
          TABLE_IDS.map(async (id) => {
            const answer = await fetch(`${studio.url}/tables/${id}`, { headers: headers.dealer });
            return ((await answer.json()) as { round?: { bettingOpen?: boolean } }).round;
          }),
        );
        return views.every((round) => round?.bettingOpen);
      },
      90_000,
    );
  });

  afterAll(async () => {
    await studio?.close();
    await db?.drop();
  });

  /** What only an accepted request writes (automatic decisions and refusals logged aside). */
  async function written(): Promise<string> {
    const [row] = (await studio.database.dataSource.query(
      `SELECT (SELECT count(*) FROM bets) AS bets,
              (SELECT count(*) FROM decisions WHERE NOT automatic) AS decisions,
              (SELECT count(*) FROM supervisor_actions WHERE status <> 'refused') AS actions`,
    )) as Array<Record<string, string>>;
    return JSON.stringify(row);
  }

  async function send(
    route: Route,
    call: Call,
    caller: Caller,
  ): Promise<{ status: number; text: string }> {
    const names = route.path.match(/:\w+/g) ?? [];
    let path = route.path;
    names.forEach((name, i) => (path = path.replace(name, encode(call.params[i]))));
    const query = call.query.map(([k, v]) => `${k}=${encode(v)}`).join('&');
    const callerHeaders =
      route.path === '/auth/logout' && !['none', 'garbage', 'platform'].includes(caller)
        ? headers.garbage // a real sign-out would end the other calls' session
        : headers[caller];
    const response = await fetch(`${studio.url}${path}${query ? `?${query}` : ''}`, {
      method: route.method,
      headers: {
        ...callerHeaders,
        ...(route.method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      ...(route.method === 'POST' ? { body: call.body } : {}),
    });
    // A live stream (Server-Sent Events) never ends: its status is all there is to see.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, text: '' };
    }
    return { status: response.status, text: (await response.text()).slice(0, 300) };
  }

  const GROUPS: Array<[string, RegExp]> = [
    ['platform', /^\/platform\//],
    ['table actions', /^\/tables\/:tableId\/./],
    ['tables', /^\/tables(\/:tableId)?$/],
    ['consoles API', /^\/console\/api\//],
    ['console pages and the root', /^\/(console(\/:file)?)?$/],
    ['audit', /^\/audit\//],
    ['auth', /^\/auth\//],
    ['health and metrics', /^\/(health|metrics)/],
  ];

  it('groups every route the router serves', () => {
    const routes = routerRoutes(studio);
    expect(routes.length).toBeGreaterThan(25);
    const ungrouped = routes.filter((r) => !GROUPS.some(([, re]) => re.test(r.path)));
    expect(ungrouped).toEqual([]);
  });

  it.each(GROUPS)('%s: never a 5xx, and a refused request writes nothing', async (_, pattern) => {
    const routes = routerRoutes(studio).filter((r) => pattern.test(r.path));
    expect(routes.length).toBeGreaterThan(0);
    const maxParams = Math.max(...routes.map((r) => (r.path.match(/:\w+/g) ?? []).length));
    const arbitrary = fc.tuple(fc.constantFrom(...routes), callOf(maxParams));
    await fc.assert(
      fc.asyncProperty(arbitrary, async ([route, call]) => {
        // The same request from every caller: the role decides how far it gets.
        for (const caller of CALLERS) {
          const before = await written();
          const answer = await send(route, call, caller);
          const where = `${route.method} ${route.path} as ${caller}`;
          // On failure the diff shows the route, the caller, the status and the answer.
          const server = answer.status >= 500 ? { status: answer.status, text: answer.text } : {};
          expect({ where, ...server }).toEqual({ where });
          if (answer.status >= 400) {
            expect({ where, written: await written() }).toEqual({ where, written: before });
          }
        }
      }),
      { numRuns: RUNS_PER_GROUP, seed: SEED, endOnFailure: true },
    );
  });
});
