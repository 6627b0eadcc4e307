import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { RunningStudio } from '../../src/bootstrap';
import { PLACE_BET_BODY } from '../../src/http/http-schemas';
import { openApiSchema } from '../../src/http/openapi-schema';
import { postJson, signIn, startTestStudio } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

interface Operation {
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
}
type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
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
      env: { DEMO_USERS: 'true', PLATFORM_API_KEYS: 'k-openapi' },
    });
    for (const role of Object.keys(tokens) as Array<keyof typeof tokens>) {
      tokens[role] = await signIn(studio.url, role, `${role}-demo`);
    }
    const answer = await fetch(`${studio.url}/docs/openapi.json`, {
      headers: { authorization: `Bearer ${tokens.dealer}` },
    });
    expect(answer.status).toBe(200);
    doc = (await answer.json()) as OpenApi;
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
    expect(bets.security).toEqual([{ 'platform-key': [] }]);
    expect(doc.paths['/tables/{tableId}/pause'].post.security).toEqual([{ bearer: [] }]);
  });

  /** The documented JSON schema of one answer of one operation. */
  function documented(method: string, path: string, status: number): unknown {
    const schema =
      doc.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
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
});
