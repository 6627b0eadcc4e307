import { createHash } from 'node:crypto';
import type { RunningStudio } from '../../src/bootstrap';
import { CreateUser } from '../../src/auth/create-user/create-user.use-case';
import { startTestStudio } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { settleWithin } from '../../src/common/settle-within';

jest.setTimeout(60_000);

const STRONG = 'Tr1cky-Casino-Floor';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Users in the real database, hashed passwords, bearer tokens and role checks over HTTP. */
describe('sign-in and roles', () => {
  let db: TestDatabase;
  let studio: RunningStudio;

  beforeAll(async () => {
    db = await createTestDatabase('auth');
    studio = await startTestStudio({
      databaseUrl: db.url,
      env: {
        DEMO_USERS: 'true',
        // Sign-in protection has its own file (auth-sign-in-protection); short stream checks here.
        SIGNIN_ADDRESS_LIMIT: '1000',
        CONSOLE_STREAM_HEARTBEAT_MS: '300',
        CONSOLE_STREAMS_PER_USER: '3',
      },
    });
    const createUser = studio.app.get(CreateUser);
    for (const [username, role] of [
      ['croupier', 'dealer'],
      ['floor', 'supervisor'],
      ['pitboss', 'supervisor'],
    ]) {
      const created = await createUser.execute({ username, role, password: STRONG });
      expect(created.ok).toBe(true);
    }
  });

  afterAll(async () => {
    await studio?.close();
    await db.drop();
  });

  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${studio.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  const get = (path: string, token?: string) =>
    fetch(`${studio.url}${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  async function login(username: string, password: string): Promise<string> {
    const response = await post('/auth/login', { username, password });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { token: string; user: { role: string } };
    expect(body.user.role).toBe(username);
    return body.token;
  }

  it('stores only scrypt hashes of passwords and of tokens', async () => {
    const token = await login('supervisor', 'supervisor-demo');
    const users = await studio.database.dataSource.query(`SELECT password_hash FROM users`);
    expect(users).toHaveLength(6);
    for (const u of users) expect(u.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    const sessions = await studio.database.dataSource.query(`SELECT token_hash FROM user_sessions`);
    expect(sessions.map((s: { token_hash: string }) => s.token_hash)).not.toContain(token);
  });

  it('refuses a wrong password and an unknown user alike', async () => {
    for (const [username, password] of [
      ['dealer', 'wrong-password'],
      ['nobody', 'dealer-demo'],
    ]) {
      const response = await post('/auth/login', { username, password });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'invalid-credentials' });
    }
    const malformed = await post('/auth/login', { username: 1 });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: 'invalid-request' });
  });

  it("answers the framework's refusals in the service's error shape", async () => {
    const send = (path: string, method: string, body?: string) =>
      fetch(`${studio.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body,
      });
    const unknown = await send('/health/nothing', 'GET');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: 'not-found',
      message: 'Cannot GET /health/nothing',
    });
    // A route there, another method: 405 with what it takes.
    const wrongMethod = await send('/health/ready', 'DELETE');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
    expect(await wrongMethod.json()).toMatchObject({ error: 'method-not-allowed' });
    const broken = await send('/auth/login', 'POST', '{"username":"dealer","password":"');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: 'invalid-json' });
    const huge = await send('/auth/login', 'POST', JSON.stringify({ username: 'x'.repeat(3e6) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({
      error: 'payload-too-large',
      message: 'request entity too large',
    });
  });

  it('lets a supervisor do supervisor things and refuses a dealer with 403', async () => {
    const supervisor = await login('supervisor', 'supervisor-demo');
    const dealer = await login('dealer', 'dealer-demo');
    const ok = await get('/auth/users', supervisor);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Array<{ username: string }>).map((u) => u.username)).toEqual([
      'auditor',
      'croupier',
      'dealer',
      'floor',
      'pitboss',
      'supervisor',
    ]);
    const refused = await get('/auth/users', dealer);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: 'forbidden',
      message: 'This action needs the role supervisor; you are signed in as dealer',
    });
  });

  it('needs a token, and a token stops working after logout', async () => {
    expect((await get('/auth/me')).status).toBe(401);
    expect((await get('/auth/me', 'x'.repeat(43))).status).toBe(401);
    const token = await login('auditor', 'auditor-demo');
    const me = await get('/auth/me', token);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: 'auditor', role: 'auditor' });
    expect((await post('/auth/logout', {}, token)).status).toBe(204);
    expect((await get('/auth/me', token)).status).toBe(401);
  });

  it('answers 400, never 500, to sign-in input that is not two plain strings', async () => {
    for (const body of [
      { username: 'dealer\u0000', password: 'dealer-demo' },
      { username: 'dealer', password: 'dealer-demo\ud800' },
      { username: '\udc00dealer', password: 'dealer-demo' },
      { username: 'x'.repeat(1_000), password: 'dealer-demo' },
      { username: 'dealer', password: 'p'.repeat(1_000) },
      { username: ['dealer'], password: 'dealer-demo' },
      { username: 'dealer', password: { $ne: 1 } },
      { username: '', password: '' },
      [],
    ]) {
      const response = await post('/auth/login', body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid-request' });
    }
    // Longer than any sign-in (HTTP_BODY_LIMIT_SIGNIN_BYTES, 4 KiB): refused before it is read.
    for (const body of [
      { username: 'x'.repeat(10_000), password: 'dealer-demo' },
      { username: 'dealer', password: 'p'.repeat(10_000) },
    ]) {
      const response = await post('/auth/login', body);
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ error: 'payload-too-large' });
    }
    // Not a JSON object at all: the body parser's own 400.
    for (const body of [null, 'dealer', 42]) {
      expect((await post('/auth/login', body)).status).toBe(400);
    }
  });

  it('refuses short and common passwords where users are created', async () => {
    const createUser = studio.app.get(CreateUser);
    const attempt = (password: string) =>
      createUser.execute({ username: 'newcomer', role: 'auditor', password });
    expect(await attempt('12345678')).toMatchObject({ ok: false, problem: 'too-short' });
    expect(await attempt('Password1234')).toMatchObject({ ok: false, problem: 'common' });
    expect(await attempt('qwertyuiopasdf')).toMatchObject({ ok: false, problem: 'common' });
    expect(await attempt('newcomer-Vault-88')).toMatchObject({ ok: true });
  });

  it('creates a username once when it is asked for several times at once', async () => {
    const createUser = studio.app.get(CreateUser);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        createUser.execute({ username: 'twice', role: 'dealer', password: 'twice-Vault-9182' }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const outcomes = results.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
    expect(outcomes.filter((o) => o?.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => o && !o.ok && o.reason === 'username-taken')).toHaveLength(5);
  });

  it('sends helmet headers and no-store, without X-Powered-By or ETag; console pages keep their CSP', async () => {
    const login = await post('/auth/login', { username: 'auditor', password: 'auditor-demo' });
    const live = await get('/health/live');
    for (const response of [login, live]) {
      expect(response.headers.get('x-powered-by')).toBeNull();
      expect(response.headers.get('cache-control')).toBe('no-store');
      // Nothing may revalidate a no-store answer: no body hashed for it.
      expect(response.headers.get('etag')).toBeNull();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    }
    const page = await get('/console/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-powered-by')).toBeNull();
  });

  it('keeps /health/ready minimal and the detailed readiness for supervisors', async () => {
    const ready = await get('/health/ready');
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; checks: Record<string, object> };
    expect(body.status).toBe('ok');
    for (const check of Object.values(body.checks)) expect(Object.keys(check)).toEqual(['status']);
    expect(JSON.stringify(body)).not.toMatch(/message|outbox|port/);

    expect((await get('/health/ready/details')).status).toBe(401);
    const dealer = await login('dealer', 'dealer-demo');
    expect((await get('/health/ready/details', dealer)).status).toBe(403);
    const supervisor = await login('supervisor', 'supervisor-demo');
    const details = await get('/health/ready/details', supervisor);
    expect(details.status).toBe(200);
    const detailed = (await details.json()) as { checks: { kafka: { message: string } } };
    expect(detailed.checks.kafka.message).toMatch(/KAFKA_BROKERS/);
  });

  describe('console streams', () => {
    const open: Array<ReadableStreamDefaultReader<Uint8Array>> = [];
    afterAll(async () => {
      for (const reader of open) await reader.cancel().catch(() => undefined);
    });

    async function signIn(username: string): Promise<string> {
      const response = await post('/auth/login', { username, password: STRONG });
      expect(response.status).toBe(200);
      return ((await response.json()) as { token: string }).token;
    }

    /** Opens the supervisors' overview stream and collects its text until it ends. */
    async function stream(token: string) {
      const response = await get('/console/api/tables/stream', token);
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      open.push(reader);
      const state = { text: '', endedAt: undefined as number | undefined };
      const decoder = new TextDecoder();
      const done = (async () => {
        for (;;) {
          const { value, done: finished } = await reader.read();
          if (finished) break;
          state.text += decoder.decode(value);
        }
        state.endedAt = Date.now();
      })().catch(() => undefined);
      await waitUntil(() => state.text.includes('event: table'));
      return { state, done };
    }

    async function waitUntil(probe: () => boolean, timeoutMs = 5_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!probe()) {
        if (Date.now() > deadline) throw new Error('timed out');
        await sleep(20);
      }
    }

    /** Ends the session one way, and expects the stream to end within one heartbeat (300 ms). */
    async function expectEndedWithinAHeartbeat(
      opened: Awaited<ReturnType<typeof stream>>,
      end: () => Promise<unknown>,
    ) {
      await sleep(700); // two heartbeats with a valid token: the stream stays open
      expect(opened.state.endedAt).toBeUndefined();
      const endedAt = Date.now();
      await end();
      await settleWithin(opened.done, 2_000, undefined);
      expect(opened.state.endedAt).toBeDefined();
      // One heartbeat (300 ms) plus the check's query and some scheduling slack.
      expect(opened.state.endedAt! - endedAt).toBeLessThan(300 + 400);
      expect(opened.state.text).toContain('event: session-ended');
    }

    it('ends an open stream when its token is logged out', async () => {
      const token = await signIn('floor');
      const opened = await stream(token);
      await expectEndedWithinAHeartbeat(opened, () => post('/auth/logout', {}, token));
    });

    it('ends an open stream when its token expires', async () => {
      const token = await signIn('floor');
      const opened = await stream(token);
      const hash = createHash('sha256').update(token).digest('hex');
      await expectEndedWithinAHeartbeat(opened, () =>
        studio.database.dataSource.query(
          `UPDATE user_sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
          [hash],
        ),
      );
    });

    it('ends an open stream when its user is disabled', async () => {
      const token = await signIn('pitboss');
      const opened = await stream(token);
      await expectEndedWithinAHeartbeat(opened, () =>
        studio.database.dataSource.query(
          `UPDATE users SET disabled_at = now() WHERE username = 'pitboss'`,
        ),
      );
    });

    it('refuses a fourth stream of one user with a clear event and keeps the three open', async () => {
      const token = await signIn('floor');
      const streams = [await stream(token), await stream(token), await stream(token)];
      const refused = await get('/console/api/tables/stream', token);
      const text = await refused.text();
      expect(text).toContain('event: refused');
      expect(text).toContain('too-many-streams');
      await sleep(400);
      for (const s of streams) expect(s.state.endedAt).toBeUndefined();
    });
  });
});
