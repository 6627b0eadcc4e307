import 'reflect-metadata';
import { startStudio } from './bootstrap';
import { oneLine } from './common/one-line';
import { ConfigError, StartupError } from './common/config-error';
import { stopCutAfterMs, stopCutShortLine } from './common/stop-progress';
import {
  StartProgress,
  StartStopped,
  startStopCutShortLine,
  startStoppedLine,
  startTimedOutLine,
  stillStartingLine,
} from './common/start-progress';
import { loadEnvFile } from './config/env-file';
import { loadStudioConfig, StudioConfig } from './config/studio-config';
import { startupLogger } from './logging/logging.options';

/** How often a start-up that waits says what it waits for. */
const STILL_STARTING_EVERY_MS = 10_000;

/**
 * Entry point. Configuration and start-up failures print one line on stderr and exit non-zero;
 * SIGTERM / SIGINT close the HTTP port, flush the Kafka producer and close the database pool.
 */
async function main(): Promise<void> {
  let config: StudioConfig;
  try {
    loadEnvFile(process.env.ENV_FILE);
    // Pretty log lines for a person at a terminal, JSON when piped to a shipper (LOG_FORMAT wins).
    config = loadStudioConfig(process.env, { terminal: process.stdout.isTTY === true });
  } catch (error) {
    fail('Configuration error', error);
  }

  // A stop asked for while the service starts (systemd, an operator's Ctrl-C) stops the start-up
  // within the stop's budget: nothing more is started (no table taken), a wait that holds nothing
  // (connecting, the migration lock held elsewhere) is abandoned, a step that changes things
  // (migrating) is let finish, and what was opened is closed: one line, exit 0. Cut short by the
  // budget (SHUTDOWN_TIMEOUT_MS): one line naming what it did not finish, exit 1. Asked twice, it
  // exits 1 at once. A start-up not done within STARTUP_TIMEOUT_MS stops the same way, exit 1.
  const began = performance.now();
  const progress = new StartProgress();
  const log = startupLogger(config.logging);
  progress.onEnter((step, detail) => log.info(`Starting: ${step}${detail ? ` (${detail})` : ''}`));
  const budget = config.shutdownTimeoutMs;
  let stopAsked: NodeJS.Signals | undefined;
  /** What stopped the start-up: a signal, or STARTUP_TIMEOUT_MS (undefined). */
  let stoppedBy: { signal?: NodeJS.Signals } | undefined;
  let stopAt = 0;
  let stopUnderWay = '';
  const stopStarting = (why: NodeJS.Signals | undefined): void => {
    if (stoppedBy) return;
    stoppedBy = { signal: why };
    stopAt = performance.now();
    stopUnderWay = progress.underWay();
    progress.stop(why ?? 'STARTUP_TIMEOUT_MS');
    const cut = setTimeout(() => {
      const line = why
        ? startStopCutShortLine(
            why,
            performance.now() - stopAt,
            budget,
            stopUnderWay,
            progress.unfinishedStop(),
          )
        : startTimedOutLine(config.startupTimeoutMs, stopUnderWay, true);
      process.stderr.write(`${line}\n`);
      process.exit(1);
    }, stopCutAfterMs(budget));
    cut.unref();
  };
  let onSignal = (signal: NodeJS.Signals) => {
    if (stopAsked) {
      process.stderr.write(`${signal} again while starting: exiting now; exiting 1\n`);
      process.exit(1);
    }
    stopAsked = signal;
    log.warn(`${signal} while ${progress.underWay()}: stopping the start-up`);
    stopStarting(signal);
  };
  process.on('SIGTERM', (signal) => onSignal(signal));
  process.on('SIGINT', (signal) => onSignal(signal));
  const startupTimer = setTimeout(() => {
    log.error(
      `Not started within STARTUP_TIMEOUT_MS=${config.startupTimeoutMs}: ${progress.underWay()}`,
    );
    stopStarting(undefined);
  }, config.startupTimeoutMs);
  const stillStarting = setInterval(
    () =>
      log.warn(
        stillStartingLine(performance.now() - began, progress.underWay(), config.startupTimeoutMs),
      ),
    STILL_STARTING_EVERY_MS,
  );

  let running: Awaited<ReturnType<typeof startStudio>>;
  try {
    running = await startStudio(config, {}, progress);
  } catch (error) {
    if (error instanceof StartStopped && stoppedBy?.signal) {
      const line = startStoppedLine(stoppedBy.signal, performance.now() - stopAt, stopUnderWay);
      process.stderr.write(`${line}\n`);
      process.exit(0);
    }
    if (error instanceof StartStopped) {
      process.stderr.write(`${startTimedOutLine(config.startupTimeoutMs, stopUnderWay, false)}\n`);
      process.exit(1);
    }
    fail('Start-up failed', error);
  } finally {
    clearTimeout(startupTimer);
    clearInterval(stillStarting);
  }
  if (stoppedBy && !stoppedBy.signal) {
    // STARTUP_TIMEOUT_MS ran out as the last step finished: stopped all the same.
    await running.close('STARTUP_TIMEOUT_MS').catch(() => undefined);
    process.stderr.write(`${startTimedOutLine(config.startupTimeoutMs, stopUnderWay, false)}\n`);
    process.exit(1);
  }

  // A stop that does not finish within SHUTDOWN_TIMEOUT_MS (a database that hangs holds its steps
  // until their query timeouts) is cut short a little before it, with one line naming what it did
  // not finish, and exits 1: stopped, but not cleanly (the leases it still held expire with its
  // database session, and the service manager shows a failed stop).
  let shuttingDown = false;
  onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) return;
    shuttingDown = true;
    // Asked while starting, after the last step that could stop it: the cut armed then
    // (stopStarting) already counts the budget from the signal.
    if (!stoppedBy) {
      const began = performance.now();
      const timer = setTimeout(() => {
        const line = stopCutShortLine(
          signal,
          performance.now() - began,
          budget,
          running.unfinishedStop(),
        );
        process.stderr.write(`${line}\n`);
        process.exit(1);
      }, stopCutAfterMs(budget));
      timer.unref();
    }
    running
      .close(signal)
      .then(() => process.exit(0))
      .catch((error) => {
        process.stderr.write(`Shutdown after ${signal} failed: ${oneLine(error)}\n`);
        process.exit(1);
      });
  };
  if (stopAsked) onSignal(stopAsked);
}

function fail(prefix: string, error: unknown): never {
  const expected = error instanceof ConfigError || error instanceof StartupError;
  // A setting found wrong only while starting (PGLITE_DATA_DIR, HOST, STUDIO_INSTANCE_ID in use)
  // is said as every other wrong setting is, with the exit 78 it already had.
  const said = error instanceof ConfigError ? 'Configuration error' : prefix;
  process.stderr.write(`${said}: ${expected ? (error as Error).message : oneLine(error)}\n`);
  process.exit(error instanceof ConfigError ? 78 : 1);
}

void main();
