import { loadStudioConfig } from '../config/studio-config';
import { EMBEDDED_CONNECT_TIMEOUT_MS, poolConnectTimeoutMs } from './database-connection';

describe('the pool connect timeout', () => {
  const database = (env: Record<string, string>) => loadStudioConfig(env).database;

  it('is DATABASE_CONNECT_TIMEOUT_MS for a PostgreSQL server', () => {
    const config = database({
      DATABASE_URL: 'postgres://studio@db:5432/studio',
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
    });
    expect(poolConnectTimeoutMs(config, false)).toBe(1_500);
  });

  it('waits at least 60 s for the embedded PGlite, which answers from this busy process', () => {
    expect(poolConnectTimeoutMs(database({}), true)).toBe(EMBEDDED_CONNECT_TIMEOUT_MS);
    expect(EMBEDDED_CONNECT_TIMEOUT_MS).toBe(60_000);
    expect(poolConnectTimeoutMs(database({ DATABASE_CONNECT_TIMEOUT_MS: '90000' }), true)).toBe(
      90_000,
    );
  });
});
