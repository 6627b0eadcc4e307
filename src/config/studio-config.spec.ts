import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ConfigError } from '../common/config-error';
import { redactUrl } from './env-reader';
import { loadStudioConfig } from './studio-config';

const tablesFile = (content: unknown): string => {
  const dir = mkdtempSync(join(tmpdir(), 'studio-config-'));
  const file = join(dir, 'tables.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};

const validTables = [{ id: 'ibj-1', name: 'IBJ', game: 'infinite-blackjack', currency: 'EUR' }];

function load(env: Record<string, string>) {
  return loadStudioConfig({ TABLES_FILE: tablesFile(validTables), ...env });
}

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadStudioConfig', () => {
  it('starts on embedded defaults with no environment', () => {
    const config = loadStudioConfig({});
    expect(config.http).toEqual({ host: '127.0.0.1', port: 3000 });
    expect(config.database.url).toBeUndefined();
    expect(config.database.embedded.dataDir).toMatch(/\.data[/\\]pglite$/);
    expect(config.database.runMigrations).toBe(true);
    expect(config.kafka).toBeUndefined();
    expect(config.tables.map((t) => t.game).sort()).toEqual([
      'blackjack-lux',
      'european-blackjack-practice',
      'infinite-blackjack',
      'pok-deng',
    ]);
  });

  it('refuses a PLATFORM_API_KEYS key longer than the platforms guard takes, naming it', () => {
    expect(errorOf(() => load({ PLATFORM_API_KEYS: `short-key-1,${'k'.repeat(257)}` }))).toBe(
      'PLATFORM_API_KEYS: each key at most 256 characters (key #2 has 257)',
    );
    expect(load({ PLATFORM_API_KEYS: 'k'.repeat(256) }).orchestrator.platformKeys).toEqual([
      'k'.repeat(256),
    ]);
  });

  it('reads a complete configuration', () => {
    const config = load({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://studio:secret@db:5432/studio',
      DATABASE_POOL_SIZE: '20',
      DATABASE_RUN_MIGRATIONS: 'false',
      KAFKA_BROKERS: 'k1:9092, k2:9092',
      KAFKA_TOPIC_PREFIX: 'prod.',
      LOG_LEVEL: 'debug',
    });
    expect(config.http.port).toBe(8080);
    expect(config.database.url).toBe('postgres://studio:secret@db:5432/studio');
    expect(config.database.poolSize).toBe(20);
    expect(config.database.runMigrations).toBe(false);
    expect(config.kafka?.brokers).toEqual(['k1:9092', 'k2:9092']);
    expect(config.kafka?.topicPrefix).toBe('prod.');
    expect(config.logLevel).toBe('debug');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535 (got "70000")'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE must be an integer from 1 to 200 (got "0")'],
    [
      { DATABASE_RUN_MIGRATIONS: 'maybe' },
      'DATABASE_RUN_MIGRATIONS must be true or false (got "maybe")',
    ],
    [
      { LOG_LEVEL: 'loud' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ],
    [
      { DATABASE_URL: 'mysql://x/y' },
      'DATABASE_URL must use the postgres:// or postgresql:// scheme (got "mysql:")',
    ],
    [
      { DATABASE_URL: 'not a url' },
      'DATABASE_URL must be a URL like postgres://user:password@host:5432/database (got "not a url")',
    ],
    [
      { KAFKA_BROKERS: 'localhost' },
      'KAFKA_BROKERS must be a comma-separated list of host:port (got "localhost" in "localhost")',
    ],
    [
      { KAFKA_BROKERS: 'k1:9092,k2:99999' },
      'KAFKA_BROKERS needs a port from 1 to 65535 in each host:port (got "k2:99999" in "k1:9092,k2:99999")',
    ],
    [
      { KAFKA_BROKERS: 'k1:9092', KAFKA_TOPIC_PREFIX: 'prod/' },
      'KAFKA_TOPIC_PREFIX must be at most 177 of the characters Kafka allows in a topic name, letters, digits, ".", "_" and "-" (got "prod/")',
    ],
    [
      { KAFKA_BROKERS: 'k1:9092', KAFKA_TOPIC_PREFIX: 'p'.repeat(178) },
      `KAFKA_TOPIC_PREFIX must be at most 177 of the characters Kafka allows in a topic name, letters, digits, ".", "_" and "-" (got "${'p'.repeat(178)}")`,
    ],
    [
      { KAFKA_BROKERS: 'k1:0' },
      'KAFKA_BROKERS needs a port from 1 to 65535 in each host:port (got "k1:0" in "k1:0")',
    ],
  ])('rejects %p with a message naming the variable', (env, message) => {
    expect(errorOf(() => load(env))).toBe(message);
  });

  it('never repeats a database password in an error', () => {
    const message = errorOf(() => load({ DATABASE_URL: 'postgres://u:hunter2@host' }));
    expect(message).toContain('DATABASE_URL');
    expect(message).not.toContain('hunter2');
  });

  it.each([
    ['postgres://u:hunter2@host:5432/db', 'postgres://u:***@host:5432/db'],
    [
      'postgres://u@host/db?password=hunter2&sslmode=require',
      'postgres://u@host/db?password=***&sslmode=require',
    ],
    ['postgres://u@host/db?sslpassword=hunter2', 'postgres://u@host/db?sslpassword=***'],
    ['not a url ?password=hunter2', 'not a url ?password=***'],
  ])('shows %p as %p wherever a database URL is shown', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  it.each([
    ['not json', /TABLES_FILE ".*" is not valid JSON/],
    [[], /must be a non-empty JSON array of tables/],
    [
      [{ id: 'Bad Id', name: 'x', game: 'pok-deng', currency: 'THB' }],
      /table #1: "id" must be lowercase/,
    ],
    [
      [{ id: 't1', name: 'x', game: 'roulette', currency: 'THB' }],
      /"game" must be one of infinite-blackjack, blackjack-lux, european-blackjack-practice, pok-deng \(got "roulette"\)/,
    ],
    [
      [{ id: 't1', name: 'x', game: 'pok-deng', currency: 'baht' }],
      /"currency" must be a three-letter ISO 4217 code/,
    ],
    [
      [
        { id: 't1', name: 'x', game: 'pok-deng', currency: 'THB' },
        { id: 't1', name: 'y', game: 'pok-deng', currency: 'THB' },
      ],
      /table id "t1" is defined twice/,
    ],
  ])('rejects a bad tables file: %p', (content, pattern) => {
    expect(errorOf(() => loadStudioConfig({ TABLES_FILE: tablesFile(content) }))).toMatch(pattern);
  });

  it('names a tables file that does not exist', () => {
    expect(errorOf(() => loadStudioConfig({ TABLES_FILE: '/nonexistent/tables.json' }))).toBe(
      'TABLES_FILE "/nonexistent/tables.json" cannot be read (ENOENT)',
    );
  });
});

describe('operations settings', () => {
  it('names a Kafka CA file that cannot be read or is not a certificate', () => {
    const kafka = { KAFKA_BROKERS: '127.0.0.1:9092' };
    expect(errorOf(() => load({ ...kafka, KAFKA_TLS_CA_FILE: '/nope/ca.pem' }))).toBe(
      'KAFKA_TLS_CA_FILE "/nope/ca.pem" cannot be read (ENOENT)',
    );
    const notPem = tablesFile('just text');
    expect(errorOf(() => load({ ...kafka, KAFKA_TLS_CA_FILE: notPem }))).toMatch(
      /^KAFKA_TLS_CA_FILE ".*" holds no PEM certificate/,
    );
    const pem = tablesFile('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect(load({ ...kafka, KAFKA_TLS_CA_FILE: pem }).kafka?.tls).toEqual({
      caFile: pem,
      rejectUnauthorized: true,
    });
  });

  it('logs pretty at a terminal and JSON otherwise, unless LOG_FORMAT says; LOG_FILE is absolute', () => {
    const terminal = loadStudioConfig(
      { TABLES_FILE: tablesFile(validTables) },
      { terminal: true },
    ).logging;
    expect(terminal).toEqual({ level: 'info', format: 'pretty' });
    expect(load({}).logging.format).toBe('json');
    // Relative to the working folder, into a folder of its own (the check creates `logs`).
    const logs = relative(process.cwd(), join(mkdtempSync(join(tmpdir(), 'log-')), 'logs/s.log'));
    const forced = loadStudioConfig(
      { TABLES_FILE: tablesFile(validTables), LOG_FORMAT: 'json', LOG_FILE: logs },
      { terminal: true },
    ).logging;
    expect(forced.format).toBe('json');
    expect(forced.file).toMatch(/^\/.*logs\/s\.log$/);
    expect(errorOf(() => load({ LOG_FORMAT: 'xml' }))).toMatch(/^LOG_FORMAT must be one of/);
  });

  it('refuses a LOG_FILE that cannot be written while it reads the settings, naming LOG_FILE and why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-file-'));
    writeFileSync(join(dir, 'file'), 'x');
    expect(errorOf(() => load({ LOG_FILE: dir }))).toBe(`LOG_FILE: ${dir} is a folder, not a file`);
    expect(errorOf(() => load({ LOG_FILE: join(dir, 'file', 'studio.log') }))).toBe(
      `LOG_FILE: ${join(dir, 'file')} is not a folder (in ${join(dir, 'file')})`,
    );
    expect(errorOf(() => load({ LOG_FILE: '/proc/nope/studio.log' }))).toBe(
      'LOG_FILE: cannot create the folder /proc/nope: ENOENT',
    );
  });

  it('reads the hold figures of /metrics every 30 s unless METRICS_HOLD_REFRESH_MS says otherwise', () => {
    expect(load({}).metricsHoldRefreshMs).toBe(30_000);
    expect(load({ METRICS_HOLD_REFRESH_MS: '2000' }).metricsHoldRefreshMs).toBe(2_000);
    expect(errorOf(() => load({ METRICS_HOLD_REFRESH_MS: '10' }))).toMatch(
      /^METRICS_HOLD_REFRESH_MS/,
    );
  });

  it('gives a start-up 5 minutes unless STARTUP_TIMEOUT_MS says otherwise (1 s to 24 h)', () => {
    expect(load({}).startupTimeoutMs).toBe(300_000);
    expect(load({ STARTUP_TIMEOUT_MS: '60000' }).startupTimeoutMs).toBe(60_000);
    for (const bad of ['999', '86400001', 'soon', '0']) {
      expect(errorOf(() => load({ STARTUP_TIMEOUT_MS: bad }))).toMatch(/^STARTUP_TIMEOUT_MS/);
    }
  });

  it('takes a METRICS_TOKEN only when it is long and plain enough to be a bearer token', () => {
    expect(load({}).metricsToken).toBeUndefined();
    const token = 'a'.repeat(32);
    expect(load({ METRICS_TOKEN: token }).metricsToken).toBe(token);
    expect(errorOf(() => load({ METRICS_TOKEN: 'short' }))).toMatch(
      /^METRICS_TOKEN must be 24-200/,
    );
    expect(errorOf(() => load({ METRICS_TOKEN: `${token}!` }))).toMatch(/^METRICS_TOKEN/);
  });

  it('runs demo players on the embedded demo only, unless switched off', () => {
    expect(load({}).demoPlayers).toBe(true);
    expect(load({ DEMO_PLAYERS: 'false' }).demoPlayers).toBe(false);
    const real = { DATABASE_URL: 'postgres://studio:secret@db:5432/studio' };
    expect(load(real).demoPlayers).toBe(false);
    expect(errorOf(() => load({ ...real, DEMO_PLAYERS: 'true' }))).toMatch(
      /^DEMO_PLAYERS=true needs the embedded database/,
    );
  });
});
