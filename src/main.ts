import 'reflect-metadata';
import { existsSync, statSync } from 'node:fs';
import { startStudio } from './bootstrap';
import { oneLine } from './common/one-line';
import { ConfigError, StartupError } from './common/config-error';
import { stopCutAfterMs, stopCutShortLine } from './common/stop-progress';
import { loadStudioConfig, StudioConfig } from './config/studio-config';

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

  // A stop asked for while the service starts (systemd, an operator's Ctrl-C) is carried out once
  // it has started: the default action would kill it mid-start, with the embedded database's
  // folder open. Asked twice, it exits at once.
  let stopAsked: NodeJS.Signals | undefined;
  let onSignal = (signal: NodeJS.Signals) => {
    if (stopAsked) process.exit(1);
    stopAsked = signal;
    process.stderr.write(`${signal} while starting: stopping once started (again to exit now)\n`);
  };
  process.on('SIGTERM', (signal) => onSignal(signal));
  process.on('SIGINT', (signal) => onSignal(signal));

  let running: Awaited<ReturnType<typeof startStudio>>;
  try {
    running = await startStudio(config);
  } catch (error) {
    fail('Start-up failed', error);
  }

  // A stop that does not finish within SHUTDOWN_TIMEOUT_MS (a database that hangs holds its steps
  // until their query timeouts) is cut short a little before it, with one line naming what it did
  // not finish, and exits 1: stopped, but not cleanly (the leases it still held expire with its
  // database session, and the service manager shows a failed stop).
  let shuttingDown = false;
  onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) return;
    shuttingDown = true;
    const began = performance.now();
    const budget = config.shutdownTimeoutMs;
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

/** The env file (never overrides variables already set): `.env` if there is one, or ENV_FILE. */
function loadEnvFile(named: string | undefined): void {
  const file = named ?? '.env';
  if (!named && !existsSync(file)) return;
  try {
    process.loadEnvFile(file);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const why = !existsSync(file)
      ? 'no such file'
      : statSync(file).isDirectory()
        ? 'it is a folder'
        : e.code === 'ENOENT'
          ? 'permission denied' // Node says ENOENT for a file it may not read
          : (e.code ?? oneLine(e));
    throw new ConfigError(`ENV_FILE ${file} cannot be read (${why})`);
  }
}

function fail(prefix: string, error: unknown): never {
  const expected = error instanceof ConfigError || error instanceof StartupError;
  process.stderr.write(`${prefix}: ${expected ? (error as Error).message : oneLine(error)}\n`);
  process.exit(error instanceof ConfigError ? 78 : 1);
}

void main();
