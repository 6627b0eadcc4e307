import type { RunningStudio } from '../../src/bootstrap';
import { startTestStudio } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

/** Users in the real database, hashed passwords, bearer tokens and role checks over HTTP. */
describe('sign-in and roles', () => {
  let db: TestDatabase;
  let studio: RunningStudio;

  beforeAll(async () => {
    db = await createTestDatabase('auth');
    studio = await startTestStudio({ databaseUrl: db.url, env: { DEMO_USERS: 'true' } });
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
    expect(users).toHaveLength(3);
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

  it('lets a supervisor do supervisor things and refuses a dealer with 403', async () => {
    const supervisor = await login('supervisor', 'supervisor-demo');
    const dealer = await login('dealer', 'dealer-demo');
    const ok = await get('/auth/users', supervisor);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Array<{ username: string }>).map((u) => u.username)).toEqual([
      'auditor',
      'dealer',
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
});
