import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import helmet from 'helmet';
import type { AddressInfo } from 'node:net';
import { StudioModule, StudioModuleOptions } from './app.module';
import { oneLine } from './common/one-line';
import { StartupError } from './common/config-error';
import { HttpErrorsFilter } from './http/http-errors.filter';
import type { StudioConfig } from './config/studio-config';
import { DatabaseConnection } from './database/database-connection';
import { setupOpenApi } from './http/openapi';
import { CommandAnswersPublisher } from './kafka/command-answers.publisher';
import { CommandIntakeStarter, CommandIntakeStatus } from './platform/command-intake-starter';
import { CommandIntakeHandler } from './platform/command-intake.handler';
import { commandIntakeServer } from './platform/command-intake.server';

/**
 * Helmet's headers on every answer (nosniff, frame and referrer rules, a strict CSP for API
 * answers; the console pages send their own, stricter one), no X-Powered-By, and `no-store` on
 * every answer: API answers carry tokens, bets and cards that no cache may keep. The console pages
 * and their assets override it with their own `no-cache`.
 */
function secureHeaders(app: INestApplication): void {
  const express = app.getHttpAdapter().getInstance() as { disable(setting: string): void };
  express.disable('x-powered-by');
  app.use(helmet());
  app.use(
    (_request: unknown, response: { setHeader(n: string, v: string): void }, next: () => void) => {
      response.setHeader('Cache-Control', 'no-store');
      next();
    },
  );
}

export interface RunningStudio {
  app: INestApplication;
  url: string;
  database: DatabaseConnection;
  /** The Kafka command intake's start (running, or waiting for the brokers); none without it. */
  commandIntake?: Pick<CommandIntakeStarter, 'status'>;
  close(): Promise<void>;
}

/**
 * Builds and starts the service for a validated configuration: database (embedded or real),
 * migrations, the Nest application and its HTTP port. Used by main.ts and by the e2e tests.
 */
export async function startStudio(
  config: StudioConfig,
  overrides: Pick<StudioModuleOptions, 'clock' | 'ids'> = {},
): Promise<RunningStudio> {
  const database = await DatabaseConnection.open(config.database, `studio:${config.instanceId}`);
  let app: INestApplication | undefined;
  try {
    if (config.database.runMigrations) {
      try {
        await database.runMigrations();
      } catch (error) {
        throw new StartupError(`Database migrations failed: ${oneLine(error)}`, { cause: error });
      }
    }
    app = await NestFactory.create(StudioModule.forRoot({ config, database, ...overrides }), {
      bufferLogs: true,
      abortOnError: false,
    });
    app.useLogger(app.get(Logger));
    app.flushLogs();
    secureHeaders(app);
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
      app.get(CommandIntakeStatus).attach(intake);
    }
    setupOpenApi(app);
    await app.init();
    try {
      await app.listen(config.http.port, config.http.host);
    } catch (error) {
      throw new StartupError(
        `HTTP port ${config.http.host}:${config.http.port} cannot be opened: ${oneLine(error)}`,
        { cause: error },
      );
    }
    await intake?.start();
    const address = app.getHttpServer().address() as AddressInfo;
    const url = `http://${config.http.host}:${address.port}`;
    app
      .get(Logger)
      .log(`Studio service listening on ${url} (${database.description})`, 'Bootstrap');
    const running = app;
    return {
      app: running,
      url,
      database,
      commandIntake: intake,
      close: () => {
        intake?.stop();
        return running.close();
      },
    };
  } catch (error) {
    if (app) await app.close().catch(() => undefined);
    else await database.close().catch(() => undefined);
    throw error;
  }
}
