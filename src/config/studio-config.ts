import { hostname } from 'node:os';
import { AuditSettings, readAuditSettings } from '../audit/cursor-signing-key';
import { AuthSettings, readAuthSettings } from '../auth/auth-settings';
import { HttpLimits, readHttpLimits } from '../http/http-settings';
import { resolve } from 'node:path';
import { ConfigError } from '../common/config-error';
import { MAX_PLATFORM_API_KEY_LENGTH } from '../common/player-key';
import { ensureWritableFile } from '../common/writable-path';
import { EnvReader, readConfiguredFile } from './env-reader';
import { loadTableDefinitions, TableDefinition } from './tables-config';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggingConfig {
  level: LogLevel;
  /** `pretty` for people at a terminal, `json` for log shippers. */
  format: LogFormat;
  /** Write service logs to this file instead of stdout (test runs keep jest's output clean). */
  file?: string;
}

/** A static scrape token: same alphabet and length bounds as sign-in bearer tokens. */
const METRICS_TOKEN = /^[A-Za-z0-9_-]{24,200}$/;

export interface DatabaseConfig {
  /** Real PostgreSQL when set; otherwise the embedded PGlite below is started. */
  url?: string;
  poolSize: number;
  /** Connecting, and waiting for a free pooled connection (pg-pool's one acquisition timeout). */
  connectTimeoutMs: number;
  /** Bounded waits on a sick database (docs/operations.md, "Timeouts on a sick database"). */
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  runMigrations: boolean;
  embedded: { dataDir: string; port: number };
}

/**
 * The command intake consumer's session timeout (the broker's default minimum): how long the group
 * waits before it drops a member that died without leaving, and hands its partitions to the others.
 */
export const KAFKA_COMMAND_SESSION_TIMEOUT_MS = 6_000;

export const KAFKA_SASL_MECHANISMS = ['none', 'scram-sha-256', 'scram-sha-512', 'plain'] as const;

export interface KafkaConfig {
  brokers: string[];
  clientId: string;
  topicPrefix: string;
  eventPartitions: number;
  connectTimeoutMs: number;
  /** SASL authentication (SCRAM in production); absent: none. */
  sasl?: {
    mechanism: Exclude<(typeof KAFKA_SASL_MECHANISMS)[number], 'none'>;
    username: string;
    password: string;
  };
  /** TLS to the brokers; absent: plaintext. */
  tls?: { caFile?: string; rejectUnauthorized: boolean };
  /**
   * Whether the v1 topics (events, commands, results) still serve the `default` platform beside
   * the contract 2.0 topics: true through the deprecation period (KAFKA_V1_TOPICS).
   */
  v1Topics?: boolean;
  /** The platform command topic's consumer (microservice transport). */
  commands: {
    enabled: boolean;
    groupId: string;
    partitions: number;
    /** Partitions handled at once: different tables' commands never wait for each other. */
    partitionsConsumedConcurrently: number;
    /** Most commands applied together (one transaction per table and game window). */
    batchSize: number;
    /** How often the brokers' topics are looked at for a new platform's commands topic, ms. */
    topicRefreshMs?: number;
  };
}

export interface OutboxConfig {
  pollIntervalMs: number;
  batchSize: number;
  maxBackoffMs: number;
}

/** Deleting outbox rows that are only a copy (published); docs/retention.md. */
export interface OutboxPruningConfig {
  /** Published rows older than this are deleted; 0 keeps every row (pruning off). */
  afterMs: number;
  intervalMs: number;
  batchSize: number;
}

export interface StudioConfig {
  http: { host: string; port: number };
  /** Timeouts, connection cap, body sizes and trusted proxies of the HTTP server. */
  httpLimits: HttpLimits;
  instanceId: string;
  logLevel: LogLevel;
  logging: LoggingConfig;
  /** Static bearer token Prometheus scrapes /metrics with; supervisors' sign-in tokens also work. */
  metricsToken?: string;
  /** How often the hold figures of /metrics (200 rounds of every table) are read again. */
  metricsHoldRefreshMs: number;
  /** Simulated players betting and deciding through the platform HTTP API (embedded demo). */
  demoPlayers: boolean;
  shutdownTimeoutMs: number;
  /** A start-up not listening by then gives up (one line naming the step it waited in, exit 1). */
  startupTimeoutMs: number;
  database: DatabaseConfig;
  /** Absent: publishing is switched off and events wait in the outbox. */
  kafka?: KafkaConfig;
  outbox: OutboxConfig;
  outboxPruning: OutboxPruningConfig;
  tablesFile: string;
  tables: TableDefinition[];
  auth: AuthSettings;
  audit: AuditSettings;
  orchestrator: {
    leaseTtlMs: number;
    /** How long a command waits in its table's inbox for an instance to drive the table. */
    commandWaitMs: number;
    platformKeys: string[];
    /** How long an instance trusts what it read of a platform key or platform (revocation delay). */
    platformKeyCacheMs: number;
    /** Requests per window each platform may make over HTTP (per instance): 429 past it. */
    platformRateLimit: { limit: number; windowMs: number };
    /** The settlement report's own budget per platform (it reads up to 92 days). */
    platformReportRateLimit: { limit: number; windowMs: number };
    virtualDealerPaceMs: number;
    voidRequiresApproval: boolean;
    /** How often a driven table's grown event chain is anchored by a ChainCheckpoint (0: round end only). */
    chainCheckpointIntervalMs: number;
  };
}

export const DEFAULT_TABLES_FILE = 'config/tables.json';

/**
 * LOG_FILE, absolute, checked here with the other settings: a folder, a path under a file or a
 * folder that cannot be created or written in stops the start at once (exit 78), before the port,
 * the database or a table is touched. Found when the logger opened it, it came after the database
 * was opened and migrated. A missing folder is created (level by level) when it can be.
 */
function writableLogFile(logFile: string | undefined): string | undefined {
  if (!logFile) return undefined;
  const file = resolve(logFile);
  ensureWritableFile('LOG_FILE', file);
  return file;
}

/**
 * Reads and validates the whole configuration once, at start-up. Throws ConfigError whose message
 * names the offending variable; nothing else in the service reads process.env.
 */
export function loadStudioConfig(
  env: Record<string, string | undefined>,
  options: { terminal?: boolean } = {},
): StudioConfig {
  const read = new EnvReader(env);
  const brokers = read.brokerList('KAFKA_BROKERS');
  const tablesFile = resolve(read.string('TABLES_FILE', DEFAULT_TABLES_FILE));
  const poolSize = read.integer('DATABASE_POOL_SIZE', 10, 1, 200);
  const logLevel = read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info');
  const logFile = writableLogFile(read.optionalString('LOG_FILE'));
  return {
    http: {
      host: read.string('HOST', '127.0.0.1'),
      port: read.integer('PORT', 3000, 0, 65535),
    },
    httpLimits: readHttpLimits(read),
    instanceId: read.string('STUDIO_INSTANCE_ID', `${hostname()}-${process.pid}`),
    logLevel,
    logging: {
      level: logLevel,
      format: read.oneOf('LOG_FORMAT', LOG_FORMATS, options.terminal ? 'pretty' : 'json'),
      ...(logFile ? { file: logFile } : {}),
    },
    ...metricsToken(read),
    metricsHoldRefreshMs: read.integer('METRICS_HOLD_REFRESH_MS', 30_000, 1_000, 3_600_000),
    demoPlayers: demoPlayers(read),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    startupTimeoutMs: read.integer('STARTUP_TIMEOUT_MS', 300_000, 1_000, 86_400_000),
    database: {
      url: read.postgresUrl('DATABASE_URL'),
      poolSize,
      connectTimeoutMs: read.integer('DATABASE_CONNECT_TIMEOUT_MS', 3_000, 100, 120_000),
      statementTimeoutMs: read.integer('DATABASE_STATEMENT_TIMEOUT_MS', 5_000, 100, 600_000),
      lockTimeoutMs: read.integer('DATABASE_LOCK_TIMEOUT_MS', 2_000, 10, 600_000),
      idleInTransactionTimeoutMs: read.integer(
        'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
        10_000,
        100,
        600_000,
      ),
      runMigrations: read.boolean('DATABASE_RUN_MIGRATIONS', true),
      embedded: {
        dataDir: resolve(read.string('PGLITE_DATA_DIR', '.data/pglite')),
        port: read.integer('PGLITE_PORT', 0, 0, 65535),
      },
    },
    kafka: brokers
      ? {
          brokers,
          clientId: read.string('KAFKA_CLIENT_ID', 'live-dealer-studio'),
          topicPrefix: topicPrefix(read),
          eventPartitions: read.integer('KAFKA_EVENT_PARTITIONS', 6, 1, 1000),
          connectTimeoutMs: read.integer('KAFKA_CONNECT_TIMEOUT_MS', 5_000, 100, 120_000),
          ...kafkaSecurity(read),
          v1Topics: read.boolean('KAFKA_V1_TOPICS', true),
          commands: {
            enabled: read.boolean('KAFKA_COMMAND_INTAKE', true),
            groupId: read.string('KAFKA_COMMAND_GROUP_ID', 'live-dealer-studio-commands'),
            partitions: read.integer('KAFKA_COMMAND_PARTITIONS', 6, 1, 1000),
            partitionsConsumedConcurrently: read.integer('KAFKA_COMMAND_CONCURRENCY', 16, 1, 100),
            batchSize: read.integer('KAFKA_COMMAND_BATCH_SIZE', 5000, 1, 100_000),
            topicRefreshMs: read.integer('KAFKA_COMMAND_TOPIC_REFRESH_MS', 10_000, 200, 3_600_000),
          },
        }
      : undefined,
    outbox: {
      pollIntervalMs: read.integer('OUTBOX_POLL_INTERVAL_MS', 200, 10, 60_000),
      batchSize: read.integer('OUTBOX_BATCH_SIZE', 500, 1, 10_000),
      maxBackoffMs: read.integer('OUTBOX_MAX_BACKOFF_MS', 10_000, 100, 600_000),
    },
    outboxPruning: {
      afterMs: read.integer('OUTBOX_PRUNE_AFTER_HOURS', 168, 0, 100_000) * 3_600_000,
      intervalMs: read.integer('OUTBOX_PRUNE_INTERVAL_MS', 600_000, 1_000, 86_400_000),
      batchSize: read.integer('OUTBOX_PRUNE_BATCH_SIZE', 5_000, 1, 100_000),
    },
    tablesFile,
    tables: loadTableDefinitions(tablesFile),
    orchestrator: {
      leaseTtlMs: read.integer('TABLE_LEASE_TTL_MS', 10_000, 1_000, 600_000),
      commandWaitMs: read.integer('COMMAND_WAIT_MS', 30_000, 1_000, 600_000),
      virtualDealerPaceMs: read.integer('VIRTUAL_DEALER_PACE_MS', 800, 0, 60_000),
      voidRequiresApproval: read.boolean('VOID_REQUIRES_APPROVAL', false),
      chainCheckpointIntervalMs: read.integer(
        'CHAIN_CHECKPOINT_INTERVAL_MS',
        60_000,
        0,
        86_400_000,
      ),
      platformKeys: platformKeys(read),
      platformKeyCacheMs: read.integer('PLATFORM_KEY_CACHE_MS', 5_000, 0, 60_000),
      platformRateLimit: {
        limit: read.integer('PLATFORM_HTTP_RATE_LIMIT', 2_000, 1, 1_000_000),
        windowMs: read.integer('PLATFORM_HTTP_RATE_WINDOW_MS', 1_000, 100, 3_600_000),
      },
      platformReportRateLimit: {
        limit: read.integer('PLATFORM_REPORT_RATE_LIMIT', 30, 1, 100_000),
        windowMs: read.integer('PLATFORM_REPORT_RATE_WINDOW_MS', 60_000, 1_000, 3_600_000),
      },
    },
    auth: readAuthSettings(read),
    audit: readAuditSettings(read),
  };
}

/** The `default` platform's keys; one longer than any key the guard takes stops the start-up. */
function platformKeys(read: EnvReader): string[] {
  // The embedded demo accepts a well-known key so its consoles and simulators can bet.
  const keys = (
    read.optionalString('PLATFORM_API_KEYS') ??
    (read.raw('DATABASE_URL') ? '' : 'demo-platform-key')
  )
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const long = keys.findIndex((k) => k.length > MAX_PLATFORM_API_KEY_LENGTH);
  if (long >= 0) {
    throw new ConfigError(
      `PLATFORM_API_KEYS: each key at most ${MAX_PLATFORM_API_KEY_LENGTH} characters (key #${long + 1} has ${keys[long].length})`,
    );
  }
  return keys;
}

/**
 * The longest topic the service names without its prefix: `studio.platform.<platform id of 40>.
 * dead-letters.v2` (72 characters); Kafka takes topic names of at most 249.
 */
const LONGEST_TOPIC_WITHOUT_PREFIX = 72;
const KAFKA_TOPIC_PREFIX_MAX = 249 - LONGEST_TOPIC_WITHOUT_PREFIX;

/**
 * KAFKA_TOPIC_PREFIX goes into every topic name, and into every outbox row as it is written: a
 * character Kafka refuses in a topic (`prod/`, a space) left each event unpublishable in the outbox
 * for good (a corrected prefix does not rename the rows already written), so it is refused here.
 */
function topicPrefix(read: EnvReader): string {
  const prefix = read.string('KAFKA_TOPIC_PREFIX', '');
  if (!/^[A-Za-z0-9._-]*$/.test(prefix) || prefix.length > KAFKA_TOPIC_PREFIX_MAX) {
    throw new ConfigError(
      `KAFKA_TOPIC_PREFIX must be at most ${KAFKA_TOPIC_PREFIX_MAX} of the characters Kafka allows in a topic name, letters, digits, ".", "_" and "-" (got "${prefix}")`,
    );
  }
  return prefix;
}

function metricsToken(read: EnvReader): { metricsToken?: string } {
  const token = read.optionalString('METRICS_TOKEN');
  if (token === undefined) return {};
  if (!METRICS_TOKEN.test(token)) {
    throw new ConfigError(
      'METRICS_TOKEN must be 24-200 characters of letters, digits, "-" and "_" (for example `openssl rand -hex 32`)',
    );
  }
  return { metricsToken: token };
}

/** On by default only on the embedded demo: real money tables get no invented players. */
function demoPlayers(read: EnvReader): boolean {
  const embedded = !read.raw('DATABASE_URL');
  const enabled = read.boolean('DEMO_PLAYERS', embedded);
  if (enabled && !embedded) {
    throw new ConfigError(
      'DEMO_PLAYERS=true needs the embedded database: simulated players never bet against a real PostgreSQL',
    );
  }
  return enabled;
}

/** The CA file is read when Kafka connects: a wrong path is a configuration error now, not later. */
function checkCaFile(path: string): void {
  const text = readConfiguredFile('KAFKA_TLS_CA_FILE', path);
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ConfigError(
      `KAFKA_TLS_CA_FILE "${path}" holds no PEM certificate (no "-----BEGIN CERTIFICATE-----" line)`,
    );
  }
}

/** KAFKA_SASL_MECHANISM + KAFKA_SASL_USERNAME/PASSWORD, KAFKA_TLS (+ KAFKA_TLS_CA_FILE). */
function kafkaSecurity(read: EnvReader): Pick<KafkaConfig, 'sasl' | 'tls'> {
  const mechanism = read.oneOf('KAFKA_SASL_MECHANISM', KAFKA_SASL_MECHANISMS, 'none');
  let sasl: KafkaConfig['sasl'];
  if (mechanism !== 'none') {
    const username = read.optionalString('KAFKA_SASL_USERNAME');
    const password = read.optionalString('KAFKA_SASL_PASSWORD');
    if (!username || !password) {
      throw new ConfigError(
        `KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD are required with KAFKA_SASL_MECHANISM=${mechanism}`,
      );
    }
    sasl = { mechanism, username, password };
  }
  const caFile = read.optionalString('KAFKA_TLS_CA_FILE');
  if (caFile) checkCaFile(caFile);
  const tls = read.boolean('KAFKA_TLS', caFile !== undefined)
    ? {
        ...(caFile ? { caFile: resolve(caFile) } : {}),
        rejectUnauthorized: read.boolean('KAFKA_TLS_REJECT_UNAUTHORIZED', true),
      }
    : undefined;
  return { ...(sasl ? { sasl } : {}), ...(tls ? { tls } : {}) };
}
