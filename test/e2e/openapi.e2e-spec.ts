import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import type { RunningStudio } from '../../src/bootstrap';
import { PLACE_BET_BODY } from '../../src/http/http-schemas';
import { PlatformsRepository } from '../../src/platforms/platforms.repository';
import { openApiSchema } from '../../src/http/openapi-schema';
import type { TableDefinition } from '../../src/config/tables-config';
import {
  DEMO_TABLES,
  postJson,
  shoeDealtByTheTest,
  signIn,
  startTestStudio,
} from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { REPO_ROOT } from '../support/environment';
import { dereferenced, lintOpenApi, PLATFORM_DOCUMENT_FILE } from '../support/openapi-lint';

jest.setTimeout(120_000);

/** A Pok Deng table with a virtual shoe, so rounds are played (the demo tables have none here). */
const DEALT_TABLE = {
  id: 'pd-openapi',
  name: 'Pok Deng for the OpenAPI test',
  game: 'pok-deng',
  currency: 'THB',
  bettingWindowMs: 4_000,
  roundIntervalMs: 300,
  scanner: { wireFormat: 'studio-framed-v1', virtualShoe: shoeDealtByTheTest(7) },
} as unknown as TableDefinition;

interface Operation {
  summary?: string;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security?: Array<Record<string, unknown>>;
}
type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
};

/** Every route the Nest router serves, as "GET /tables/{tableId}" (Swagger UI's own excluded). */
function routerRoutes(studio: RunningStudio): string[] {
  const express = studio.app.getHttpAdapter().getInstance() as {
    router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
  };
  const routes = new Set<string>();
  for (const layer of express.router.stack) {
    // `/{*path}` is Nest middleware (the request logger) registered for every method, not a route.
    const path0 = layer.route?.path;
    if (!path0 || path0.startsWith('/docs') || path0 === '/{*path}') continue;
    const path = path0.replace(/:(\w+)/g, '{$1}');
    for (const [method, on] of Object.entries(layer.route!.methods)) {
      if (on && method !== '_all') routes.add(`${method.toUpperCase()} ${path}`);
    }
  }
  return [...routes].sort();
}

function documentedRoutes(doc: OpenApi): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

describe('OpenAPI document', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let doc: OpenApi;
  /** The same document with every `$ref` replaced by what it names, for Ajv. */
  let resolved: OpenApi;
  const tokens: Record<'dealer' | 'supervisor' | 'auditor', string> = {
    dealer: '',
    supervisor: '',
    auditor: '',
  };
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));

  beforeAll(async () => {
    db = await createTestDatabase('openapi');
    studio = await startTestStudio({
      databaseUrl: db.url,
      // A dealt table at a test's pace beside the demo ones: a round for the round lookup.
      tables: [...DEMO_TABLES, DEALT_TABLE],
      env: { DEMO_USERS: 'true', PLATFORM_API_KEYS: 'k-openapi', VIRTUAL_DEALER_PACE_MS: '20' },
    });
    for (const role of Object.keys(tokens) as Array<keyof typeof tokens>) {
      tokens[role] = await signIn(studio.url, role, `${role}-demo`);
    }
    const answer = await fetch(`${studio.url}/docs/openapi.json`, {
      headers: { authorization: `Bearer ${tokens.dealer}` },
    });
    expect(answer.status).toBe(200);
    doc = (await answer.json()) as OpenApi;
    resolved = await dereferenced(doc);
  });

  afterAll(async () => {
    await studio?.close();
    await db?.drop();
  });

  it('is served at /docs and /docs/openapi.json to signed-in staff only', async () => {
    for (const path of ['/docs', '/docs/openapi.json']) {
      expect((await fetch(`${studio.url}${path}`)).status).toBe(401);
      const garbage = { authorization: `Bearer ${'x'.repeat(40)}` };
      expect((await fetch(`${studio.url}${path}`, { headers: garbage })).status).toBe(401);
      const platform = { 'x-platform-key': 'k-openapi' };
      expect((await fetch(`${studio.url}${path}`, { headers: platform })).status).toBe(401);
      for (const token of Object.values(tokens)) {
        const ok = await fetch(`${studio.url}${path}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(ok.status).toBe(200);
        // Read to the end: an unread document holds its socket open after the file ends.
        await ok.arrayBuffer();
      }
    }
    const ui = await fetch(`${studio.url}/docs`, {
      headers: { authorization: `Bearer ${tokens.auditor}` },
    });
    expect(await ui.text()).toContain('swagger-ui');
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'platform-key']);
  });

  it('documents every route the router serves, and no other', () => {
    const served = routerRoutes(studio);
    expect(served.length).toBeGreaterThan(25);
    expect(documentedRoutes(doc)).toEqual(served);
  });

  it('describes request bodies with the schemas the service validates them with', () => {
    const bets = doc.paths['/platform/tables/{tableId}/bets'].post;
    expect(bets.requestBody!.content['application/json'].schema).toEqual(
      openApiSchema(PLACE_BET_BODY),
    );
    expect(bets.requestBody!.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PlaceBetBody',
    });
    // The contract's shared definitions are named components, referenced where they are used.
    expect(doc.components.schemas.PlaceBetBody).toMatchObject({
      properties: { amount: { $ref: '#/components/schemas/amount' } },
    });
    expect(doc.components.schemas.amount).toMatchObject({ type: 'integer', minimum: 1 });
    expect(bets.security).toEqual([{ 'platform-key': [] }]);
    expect(doc.paths['/tables/{tableId}/pause'].post.security).toEqual([{ bearer: [] }]);
  });

  /** The documented JSON schema of one answer of one operation. */
  function documented(method: string, path: string, status: number): unknown {
    const schema =
      resolved.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json']
        ?.schema;
    if (!schema) throw new Error(`${method} ${path} documents no JSON ${status} answer`);
    return schema;
  }

  it.each([
    ['get', '/health/live', '/health/live', undefined],
    ['get', '/health/ready', '/health/ready', undefined],
    ['get', '/tables', '/tables', 'supervisor'],
    ['get', '/tables/{tableId}', '/tables/pokdeng-1', 'supervisor'],
    ['get', '/tables/{tableId}', '/tables/no-such-table', 'dealer'],
    ['get', '/tables/{tableId}', '/tables/a%00b', 'dealer'],
    ['get', '/tables', '/tables', undefined],
    ['get', '/audit/rounds', '/audit/rounds', 'auditor'],
    ['get', '/audit/rounds', '/audit/rounds?status=lost', 'auditor'],
    ['get', '/audit/chain', '/audit/chain', 'auditor'],
    ['get', '/audit/chain', '/audit/chain', 'dealer'],
    ['get', '/console/api/actions', '/console/api/actions', 'supervisor'],
  ] as const)(
    '%s %s: the real answer to %s (as %s) matches its documented schema',
    async (method, path, url, role) => {
      const headers: Record<string, string> = role
        ? { authorization: `Bearer ${tokens[role]}` }
        : {};
      const answer = await fetch(`${studio.url}${url}`, { headers });
      const body: unknown = await answer.json();
      const validate = ajv.compile(documented(method, path, answer.status) as object);
      expect({ status: answer.status, valid: validate(body), errors: validate.errors }).toEqual({
        status: answer.status,
        valid: true,
        errors: null,
      });
    },
  );

  it("the settlement report's JSON matches its documented schema, its refusals theirs", async () => {
    const platform = { 'x-platform-key': 'k-openapi' };
    const path = '/platform/reports/settlements';
    const day = new Date().toISOString().slice(0, 10);
    for (const [query, status] of [
      [`from=${day}`, 200],
      ['from=2026-02-30', 400],
      [`from=${day}&platformId=someone-else`, 404],
    ] as const) {
      const answer = await fetch(`${studio.url}${path}?${query}`, { headers: platform });
      expect(answer.status).toBe(status);
      const validate = ajv.compile(documented('get', path, status) as object);
      const body: unknown = await answer.json();
      expect({ valid: validate(body), errors: validate.errors }).toEqual({
        valid: true,
        errors: null,
      });
    }
  });

  it('platform answers match their documented schemas, a refusal names the JSON pointer', async () => {
    const platform = { 'x-platform-key': 'k-openapi' };
    const path = '/platform/tables/{tableId}/bets';
    const cases: Array<[string, unknown, number]> = [
      [
        '/platform/tables/pokdeng-1/bets',
        { playerId: { a: 1 }, betType: 'player', amount: 1 },
        400,
      ],
      ['/platform/tables/pokdeng-1/bets', { playerId: 'p', betType: 'player', amount: 10.5 }, 400],
      ['/platform/tables/nope/bets', { playerId: 'p', betType: 'player', amount: 100 }, 404],
      ['/platform/tables/pokdeng-1/bets', { playerId: 'p', betType: 'player', amount: 100 }, 401],
    ];
    for (const [url, body, status] of cases) {
      const answer = await postJson(studio.url, url, body, status === 401 ? {} : platform);
      expect(answer.status).toBe(status);
      const validate = ajv.compile(documented('post', path, status) as object);
      expect(validate(answer.body)).toBe(true);
    }
    const refused = await postJson(
      studio.url,
      '/platform/tables/pokdeng-1/bets',
      { playerId: 'p', betType: '__proto__', amount: 100 },
      platform,
    );
    expect(refused.body).toMatchObject({ error: 'invalid-request', pointer: '/betType' });
  });

  it("a round lookup's answer, a body over the limit and a suspended platform answer as documented", async () => {
    const platform = { 'x-platform-key': 'k-openapi' };
    const check = (method: string, path: string, status: number, body: unknown) => {
      const validate = ajv.compile(documented(method, path, status) as object);
      expect({ status, valid: validate(body), errors: validate.errors }).toEqual({
        status,
        valid: true,
        errors: null,
      });
    };
    // A bet of the platform's, then its round: the 200 used to have no schema, the 404 none.
    let bet = { status: 0, body: {} as Record<string, unknown> };
    for (let i = 0; i < 180 && bet.status !== 200; i += 1) {
      if (i > 0) await new Promise((r) => setTimeout(r, 500));
      bet = await postJson(
        studio.url,
        '/platform/tables/pd-openapi/bets',
        { playerId: 'openapi-p', betType: 'player', spot: '1', amount: 1000 },
        platform,
      );
    }
    expect(bet).toMatchObject({ status: 200 });
    const roundId = (bet.body.reply as { roundId: string }).roundId;
    const round = await fetch(`${studio.url}/platform/rounds/${roundId}`, { headers: platform });
    expect(round.status).toBe(200);
    const lookup = (await round.json()) as { bets: unknown[] };
    expect(lookup.bets).toHaveLength(1);
    check('get', '/platform/rounds/{roundId}', 200, lookup);
    const unknown = await fetch(
      `${studio.url}/platform/rounds/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
      {
        headers: platform,
      },
    );
    expect(unknown.status).toBe(404);
    check('get', '/platform/rounds/{roundId}', 404, await unknown.json());
    // Over HTTP_BODY_LIMIT_COMMAND_BYTES (16 kB): 413, which the document did not list.
    const large = await postJson(
      studio.url,
      '/platform/tables/pokdeng-1/bets',
      { playerId: 'p', betType: 'player', amount: 100, padding: 'x'.repeat(20_000) },
      platform,
    );
    expect(large.status).toBe(413);
    check('post', '/platform/tables/{tableId}/bets', 413, large.body);
    // A suspended platform's key: 403 platform-suspended, which the document did not list.
    const platforms = new PlatformsRepository(studio.database.dataSource);
    await platforms.setStatus('default', 'suspended', new Date());
    try {
      let refused = { status: 0, body: {} as Record<string, unknown> };
      // The registry's change notice empties the key cache at once (at most PLATFORM_KEY_CACHE_MS).
      for (let i = 0; i < 30 && refused.status !== 403; i += 1) {
        if (i > 0) await new Promise((r) => setTimeout(r, 250));
        refused = await postJson(
          studio.url,
          '/platform/tables/pokdeng-1/bets',
          { playerId: 'p', betType: 'player', spot: '1', amount: 1000 },
          platform,
        );
      }
      expect(refused).toMatchObject({ status: 403, body: { error: 'platform-suspended' } });
      check('post', '/platform/tables/{tableId}/bets', 403, refused.body);
    } finally {
      await platforms.setStatus('default', 'active', new Date());
    }
    expect(documented('get', '/platform/reports/settlements', 429)).toBeDefined();
  });
});

describe('OpenAPI documents checked as a platform engineer would', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let full: OpenApi;
  let platform: OpenApi;
  const platformKey = { 'x-platform-key': 'k-openapi-2' };
  /** The only public operations with no client error to answer, and the only one without a 2XX. */
  const NO_4XX = ['GET /', 'GET /console', 'GET /health/live', 'GET /health/ready'];
  const NO_2XX = ['GET /'];

  beforeAll(async () => {
    db = await createTestDatabase('openapi_lint');
    studio = await startTestStudio({
      databaseUrl: db.url,
      env: { DEMO_USERS: 'true', PLATFORM_API_KEYS: 'k-openapi-2' },
    });
    const token = await signIn(studio.url, 'auditor', 'auditor-demo');
    const served = await fetch(`${studio.url}/docs/openapi.json`, {
      headers: { authorization: `Bearer ${token}` },
    });
    full = (await served.json()) as OpenApi;
    const answer = await fetch(`${studio.url}/docs/platform/openapi.json`, {
      headers: platformKey,
    });
    expect(answer.status).toBe(200);
    platform = (await answer.json()) as OpenApi;
  });

  afterAll(async () => {
    await studio?.close();
    await db?.drop();
  });

  it.each([
    ['the full document', () => full],
    ['the platform document', () => platform],
  ])('%s: 0 errors from swagger-parser, 0 problems from redocly lint', async (_, document) => {
    const report = await lintOpenApi(document());
    expect(report).toEqual({ swaggerParser: null, redocly: [] });
    expect(document().openapi).toBe('3.1.0');
  });

  it('every operation has a summary, a security requirement, a 2XX, a 4XX and a 503', () => {
    const gaps: string[] = [];
    for (const [path, item] of Object.entries(full.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        const codes = Object.keys(op.responses);
        if (!op.summary) gaps.push(`${name}: no summary`);
        if (!Array.isArray(op.security)) gaps.push(`${name}: no security`);
        if (!NO_2XX.includes(name) && !codes.some((c) => c.startsWith('2'))) {
          gaps.push(`${name}: no 2XX`);
        }
        if (!NO_4XX.includes(name) && !codes.some((c) => c.startsWith('4'))) {
          gaps.push(`${name}: no 4XX`);
        }
        if (!codes.includes('503')) gaps.push(`${name}: no 503`);
      }
    }
    expect(gaps).toEqual([]);
  });

  it('documents security as the routes behave: without credentials, 401 exactly where required', async () => {
    const wrong: string[] = [];
    for (const [path, item] of Object.entries(full.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const url = studio.url + path.replace(/\{\w+\}/g, 'x');
        const answer = await fetch(url, { method: method.toUpperCase(), redirect: 'manual' });
        await answer.arrayBuffer();
        const secured = (op.security ?? []).length > 0;
        if (secured !== (answer.status === 401)) {
          wrong.push(`${method.toUpperCase()} ${path}: ${answer.status}, secured: ${secured}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(full.paths['/console/api/hold'].get.security).toEqual([{ bearer: [] }]);
  });

  it('publishes the platform routes on their own, readable with a platform key, as committed', async () => {
    const url = `${studio.url}/docs/platform/openapi.json`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { 'x-platform-key': 'not-a-key' } })).status).toBe(401);
    const staff = await signIn(studio.url, 'dealer', 'dealer-demo');
    const asStaff = await fetch(url, { headers: { authorization: `Bearer ${staff}` } });
    expect(await asStaff.json()).toEqual(platform);
    const routes = Object.entries(platform.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /platform/tables/{tableId}/bets',
        'POST /platform/tables/{tableId}/decisions',
      ]),
    );
    expect(routes.every((r) => r.includes(' /platform'))).toBe(true);
    expect(Object.keys(platform.components.securitySchemes)).toEqual(['platform-key']);
    // UPDATE_OPENAPI=1 rewrites the committed copy (then review the diff).
    if (process.env.UPDATE_OPENAPI === '1') {
      writeFileSync(PLATFORM_DOCUMENT_FILE, JSON.stringify(platform, null, 2));
      // Through prettier, as format:check reads it (its API needs ESM, which jest's VM lacks).
      execFileSync('npx', ['prettier', '--write', PLATFORM_DOCUMENT_FILE], { cwd: REPO_ROOT });
    }
    expect(JSON.parse(readFileSync(PLATFORM_DOCUMENT_FILE, 'utf8'))).toEqual(platform);
  });
});
