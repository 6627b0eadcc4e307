import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import helmet from 'helmet';
import type { AddressInfo } from 'node:net';
import { StudioModule, StudioModuleOptions } from './app.module';
import { oneLine } from './common/one-line';
import { ConfigError, StartupError } from './common/config-error';
import { StopProgress } from './common/stop-progress';
import { START_STEPS, StartProgress } from './common/start-progress';
import { HttpErrorsFilter } from './http/http-errors.filter';
import { useBodyLimits } from './http/body-limits';
import { ConnectionCap } from './http/connection-cap';
import type { HttpLimits } from './http/http-settings';
import { LimitedExpressAdapter } from './http/limited-express-adapter';
import type { StudioConfig } from './config/studio-config';
import { STOP_STEPS } from './studio-lifecycle';
import { DatabaseConnection } from './database/database-connection';
import { requestLogging } from './logging/logging.options';
import { HealthController } from './health/health.controller';
import { setupOpenApi } from './http/openapi';
import { CommandAnswersPublisher } from './kafka/command-answers.publisher';
import { CommandIntakeStarter, CommandIntakeStatus } from './platform/command-intake-starter';
import { CommandIntakeHandler } from './platform/command-intake.handler';
import { commandIntakeServer } from './platform/command-intake.server';

/**
 * Helmet's headers on every answer (nosniff, frame and referrer rules, a strict CSP for API
 * answers; the console pages send their own, stricter one), no X-Powered-By, and `no-store` on
 * every answer: API answers carry tokens, bets and cards that no cache may keep. The console pages
 * and their assets override it with their own `no-cache`. No ETag: nothing may revalidate a
 * `no-store` answer, yet Express hashed every JSON body for one (SHA-1, ~1% of an HTTP command's
 * CPU in the bench); the console files are written whole and never had one.
 */
function secureHeaders(app: INestApplication): void {
  const express = app.getHttpAdapter().getInstance() as { disable(setting: string): void };
  express.disable('x-powered-by');
  express.disable('etag');
  app.use(helmet());
  app.use(
    (_request: unknown, response: { setHeader(n: string, v: string): void }, next: () => void) => {
      response.setHeader('Cache-Control', 'no-store');
      next();
    },
  );
}

interface ExpressSettings {
  set(setting: string, value: unknown): void;
  get(setting: 'trust proxy fn'): (address: string, hop: number) => boolean;
}

/**
 * `trust proxy` (so `request.ip`, hence the sign-in throttles and the security log, sees the
 * client behind the configured proxies) and at most `maxConnectionsPerAddress` open connections
 * per client address. The timeouts are the server's own (LimitedExpressAdapter), the body limits
 * per route (useBodyLimits).
 */
function connectionLimits(app: INestApplication, limits: HttpLimits): ConnectionCap {
  const express = app.getHttpAdapter().getInstance() as ExpressSettings;
  express.set('trust proxy', limits.trustProxy);
  const trusted = express.get('trust proxy fn');
  const logger = app.get(Logger);
  if (typeof limits.trustProxy === 'number') {
    logger.warn(
      `TRUST_PROXY=${limits.trustProxy} trusts every peer as a proxy, so the cap of ${limits.maxConnectionsPerAddress} connections per address is left to the proxy; give the proxies' addresses (CIDRs) to keep it`,
      'Bootstrap',
    );
  }
  // A trusted proxy's connections carry many clients: not counted (the proxy caps its own).
  const cap = new ConnectionCap(
    limits.maxConnectionsPerAddress,
    (address) => limits.trustProxy !== false && trusted(address, 0),
    (address, open) =>
      logger.warn(
        { msg: 'connection refused', event: 'too-many-connections', address, open },
        'Security',
      ),
  );
  cap.attach(app.getHttpServer());
  return cap;
}

export interface RunningStudio {
  app: INestApplication;
  url: string;
  database: DatabaseConnection;
  /** The Kafka command intake's start (running, or waiting for the brokers); none without it. */
  commandIntake?: Pick<CommandIntakeStarter, 'status'>;
  /** The per-address cap on open HTTP connections. */
  connections: Pick<ConnectionCap, 'refused' | 'openFrom'>;
  /** Stops gracefully; `why` (a signal name) goes into the "stopping" line. */
  close(why?: string): Promise<void>;
  /** What the stop under way has not finished yet (the step under way first). */
  unfinishedStop(): string[];
}

/** The stop's first step: Nest's hooks before the tables' (StudioLifecycle has the rest). */
const FIRST_STOP_STEP =
  'leave the Kafka command group, end the live streams and checkpoints, close the HTTP port';

/**
 * Builds and starts the service for a validated configuration: database (embedded or real),
 * migrations, the Nest application and its HTTP port. Used by main.ts and by the e2e tests.
 *
 * `progress` follows its steps; told to stop (a SIGTERM while starting, STARTUP_TIMEOUT_MS), the
 * start-up starts nothing more, abandons a wait that holds nothing (connecting to PostgreSQL, the
 * migration lock held elsewhere), lets a step that changes things finish (migrating, the embedded
 * database, the application's own start, which then takes no more table leases), closes what it
 * had opened and rejects with StartStopped.
 */
export async function startStudio(
  config: StudioConfig,
  overrides: Pick<StudioModuleOptions, 'clock' | 'ids'> = {},
  progress: StartProgress = new StartProgress(),
): Promise<RunningStudio> {
  // The port first: a copy started by mistake on a taken port stops before it opens the database,
  // takes a table's lease or starts a round (requests meanwhile are answered 503 `starting`, but
  // liveness 200 `starting`).
  const adapter = new LimitedExpressAdapter(config.httpLimits);
  progress.enter(START_STEPS.port, `${config.http.host}:${config.http.port}`);
  try {
    await adapter.bind(config.http.port, config.http.host);
  } catch (error) {
    throw portError(config, error);
  }
  let database: DatabaseConnection;
  try {
    progress.throwIfStopped();
    // PostgreSQL's connection is abandoned at a stop (nothing is held before it answers); the
    // embedded database writes its folder while it starts, so it is let finish and closed.
    const embedded = !config.database.url;
    progress.enter(
      embedded ? START_STEPS.embedded : START_STEPS.database,
      embedded
        ? config.database.embedded.dataDir
        : `gives up after DATABASE_CONNECT_TIMEOUT_MS=${config.database.connectTimeoutMs}`,
    );
    database = await progress.until(
      DatabaseConnection.open(config.database, `studio:${config.instanceId}`),
      () => !embedded,
    );
    progress.throwIfStopped();
  } catch (error) {
    await adapter.unbind();
    throw error;
  }
  let app: INestApplication | undefined;
  const stop = new StopProgress([FIRST_STOP_STEP, ...Object.values(STOP_STEPS)]);
  progress.unfinishedStop = () => stop.unfinished();
  try {
    if (config.database.runMigrations) {
      progress.enter(START_STEPS.migrationLock);
      try {
        const migrating = database.runMigrations({
          signal: progress.signal,
          waiting: (holder) => progress.enter(START_STEPS.migrationLockWait, holder ?? ''),
          locked: () => progress.enter(START_STEPS.migrating),
        });
        // Migrating is let finish (a migration cut off mid-way may leave what it built unusable).
        await progress.until(migrating, () => progress.current !== START_STEPS.migrating);
      } catch (error) {
        if (progress.stopped) throw progress.stopped;
        throw new StartupError(`Database migrations failed: ${oneLine(error)}`, { cause: error });
      }
    }
    progress.throwIfStopped();
    progress.enter(START_STEPS.application);
    app = await NestFactory.create(
      StudioModule.forRoot({
        config,
        database,
        stopProgress: stop,
        startProgress: progress,
        ...overrides,
      }),
      adapter,
      // Body parsers with a limit per route instead (httpLimits). Nest's own lines wait for the
      // service's logger; a start that fails before it has one drops them (Nest would print its
      // start-up chatter and the error's whole stack, a query's parameters included, in its own
      // format): main.ts says the reason in one line.
      { bufferLogs: true, autoFlushLogs: false, abortOnError: false, bodyParser: false },
    );
    app.useLogger(app.get(Logger));
    app.flushLogs();
    // First, so that every answer (a refused body, a console asset) has its request id and line.
    app.use(requestLogging(config.logging));
    const connections = connectionLimits(app, config.httpLimits);
    secureHeaders(app);
    useBodyLimits(app, config.httpLimits.bodyLimits);
    app.useGlobalFilters(new HttpErrorsFilter(app.getHttpAdapter()));
    const commands = config.kafka?.commands.enabled ? config.kafka : undefined;
    let intake: CommandIntakeStarter | undefined;
    if (commands) {
      const server = commandIntakeServer(commands, app.get(CommandIntakeHandler));
      app.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
      const started = app;
      intake = new CommandIntakeStarter({
        // The consumer may only join once its topics exist (topics are never auto-created).
        ensureTopics: () => started.get(CommandAnswersPublisher).ensureTopics(),
        listen: () => started.startAllMicroservices().then(() => undefined),
        reset: () => server.close(),
      });
      server.onConsumerStopped((error, startAgain) => intake?.consumerStopped(error, startAgain));
      app.get(CommandIntakeStatus).attach(intake);
    }
    setupOpenApi(app);
    await app.init();
    // Stopped while the application started: it took no more tables (StudioLifecycle), and its
    // stop (below) releases what it had taken; the port is never opened to requests.
    progress.throwIfStopped();
    progress.enter(START_STEPS.listening);
    try {
      await app.listen(config.http.port, config.http.host);
    } catch (error) {
      throw portError(config, error);
    }
    await intake?.start();
    const address = app.getHttpServer().address() as AddressInfo;
    const url = `http://${config.http.host}:${address.port}`;
    const logger = app.get(Logger);
    logger.log(`Studio service listening on ${url} (${database.description})`, 'Bootstrap');
    // Where a person starting the demo goes next, without looking it up.
    const signIn = config.auth.demoUsers
      ? `: sign in as dealer, supervisor or auditor, password <name>-demo (DEMO_USERS)`
      : '';
    logger.log(`Consoles at ${url}/console/${signIn}`, 'Bootstrap');
    const running = app;
    return {
      app: running,
      url,
      database,
      commandIntake: intake,
      connections,
      unfinishedStop: () => stop.unfinished(),
      close: async (why) => {
        const began = performance.now();
        logger.log(
          `Studio service stopping${why ? ` on ${why}` : ''}: in-flight work finishes, the tables are released`,
          'Bootstrap',
        );
        // Readiness first (503 while draining), then no new Kafka intake start; Nest's shutdown
        // then leaves the consumer group before the tables stop (StudioLifecycle has the order).
        running.get(HealthController).drain();
        intake?.stop();
        stop.enter(FIRST_STOP_STEP);
        await running.close();
        stop.finished();
        const took = ((performance.now() - began) / 1000).toFixed(1);
        logger.log(`Studio service stopped (${took} s)`, 'Bootstrap');
      },
    };
  } catch (error) {
    const unmigrated = progress.stopped ? undefined : await notMigrated(config, database, error);
    if (app) {
      stop.enter(FIRST_STOP_STEP);
      await app.close().catch(() => undefined);
      stop.finished();
    } else {
      stop.enter(STOP_STEPS.database);
      await Promise.all([database.close().catch(() => undefined), adapter.unbind()]);
      stop.finished();
    }
    throw unmigrated ?? error;
  }
}

/** A start that failed on a schema nobody migrated (DATABASE_RUN_MIGRATIONS=false) says so. */
async function notMigrated(
  config: StudioConfig,
  database: DatabaseConnection,
  error: unknown,
): Promise<StartupError | undefined> {
  if (config.database.runMigrations || error instanceof StartupError) return undefined;
  if (!(await database.pendingMigrations().catch(() => false))) return undefined;
  return new StartupError(
    `the database schema is not migrated (DATABASE_RUN_MIGRATIONS=false): run \`npm run migration:run\` first (${oneLine(error)})`,
    { cause: error },
  );
}

/**
 * A port that no restart can open is the settings' fault: an address not of this machine (HOST
 * mistyped, an address of another host), a name that does not resolve, a port below 1024 for an
 * unprivileged user. Exit 78, so systemd does not restart it every 2 s for good (it did: exit 1).
 * A port taken by another process may free up: that one stays a start-up failure.
 */
const SETTING_ERRORS: Record<string, (host: string, port: number) => string> = {
  EADDRNOTAVAIL: (host) =>
    `HOST "${host}" is not an address of this machine: give one of its addresses, 0.0.0.0 (all) or 127.0.0.1`,
  ENOTFOUND: (host) =>
    `HOST "${host}" is not a name this machine can resolve: give one of its addresses, 0.0.0.0 (all) or 127.0.0.1`,
  EACCES: (_host, port) =>
    `PORT ${port} may not be opened by this user (ports below 1024 need privileges): use a port from 1024, behind a proxy`,
};

function portError(config: StudioConfig, error: unknown): StartupError | ConfigError {
  const { host, port } = config.http;
  const setting = SETTING_ERRORS[(error as NodeJS.ErrnoException | null)?.code ?? ''];
  if (setting) return new ConfigError(`${setting(host, port)} (${oneLine(error)})`);
  return new StartupError(`HTTP port ${host}:${port} cannot be opened: ${oneLine(error)}`, {
    cause: error,
  });
}
