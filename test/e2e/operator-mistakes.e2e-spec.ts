import { createTestDatabase, TestDatabase } from '../support/test-database';
import { spawnService } from '../support/service-process';

jest.setTimeout(180_000);

/**
 * The built service started the way an unlucky operator starts it: each mistake is answered with
 * one line on stderr naming what to do, and a non-zero exit, never a stack trace.
 */
describe('the service process, started by mistake', () => {
  let empty: TestDatabase;

  beforeAll(async () => {
    empty = await createTestDatabase('operator_mistakes', { empty: true });
  });

  afterAll(async () => {
    await empty?.drop();
  });

  async function failure(env: Record<string, string>) {
    const service = spawnService({ PORT: '0', LOG_FORMAT: 'json', ...env });
    const { code } = await service.exited(60_000);
    const stderr = service.stderr().trim();
    // Nest's own lines (its start-up chatter, a stack trace) are neither JSON nor one line.
    const foreign = service
      .stdout()
      .split('\n')
      .filter((line) => line && !line.startsWith('{'));
    return { code, stderr, lines: stderr.split('\n'), foreign };
  }

  it('refuses a database that was never migrated when DATABASE_RUN_MIGRATIONS=false', async () => {
    const { code, stderr, lines, foreign } = await failure({
      DATABASE_URL: empty.url,
      DATABASE_RUN_MIGRATIONS: 'false',
    });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(stderr).toMatch(
      /^Start-up failed: the database schema is not migrated \(DATABASE_RUN_MIGRATIONS=false\): run `npm run migration:run` first \(.*shared_secrets.*\)$/,
    );
    expect(foreign).toEqual([]);
  });
});
