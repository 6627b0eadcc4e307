import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { shoeDealtByTheTest, startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

/**
 * A graceful stop turns readiness 503 before anything else stops: while the instance finishes its
 * tables and lets them go, a load balancer asking /health/ready is told to send nothing more.
 */
describe('graceful stop: readiness 503 first', () => {
  let db: TestDatabase;
  let studio: RunningStudio | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('drain');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: [
        {
          id: 'drain-pokdeng',
          name: 'Drain Pok Deng',
          game: 'pok-deng',
          currency: 'THB',
          scanner: { wireFormat: 'studio-framed-v1', virtualShoe: shoeDealtByTheTest(3) },
        } as unknown as TableDefinition,
      ],
    });
  });

  afterAll(async () => {
    await studio?.close().catch(() => undefined);
    await db?.drop();
  });

  it('answers 503 with a draining check while it stops, after 200 before', async () => {
    const running = studio!;
    const publicReady = () =>
      fetch(`${running.url}/health/ready`, { signal: AbortSignal.timeout(5_000) });
    await waitFor('ready before the stop', async () => (await publicReady()).status === 200);

    const stopping = running.close('SIGTERM');
    studio = undefined;
    const during = await publicReady();
    const body = (await during.json()) as { status: string; checks: Record<string, unknown> };
    await stopping;
    expect(during.status).toBe(503);
    expect(body.checks.draining).toEqual({ status: 'error' });
  });
});
