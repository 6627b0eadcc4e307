import { Logger, LoggerService } from '@nestjs/common';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { inspect } from 'node:util';

type Level = 'fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose';

/**
 * Nest's own logger (every `new Logger(context)` of the service) writing plain lines to a file
 * instead of coloured lines to the runner's stdout: a test run shows jest's lines, and what the
 * code under test logged (an expected fault included) is in the file when a test needs reading.
 * Written synchronously, so a line is there even if the test fails right after, and nothing is
 * left open when the test file ends.
 */
export class NestFileLogger implements LoggerService {
  constructor(private readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  log(message: unknown, ...rest: unknown[]): void {
    this.write('log', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('verbose', message, rest);
  }

  private write(level: Level, message: unknown, rest: unknown[]): void {
    // Nest passes the context last (and an error's stack before it).
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : '';
    const text = [message, ...rest.filter((part) => part !== undefined)]
      .map((part) => (typeof part === 'string' ? part : inspect(part, { depth: 4 })))
      .join(' ');
    const line = `${new Date().toISOString()} ${level.toUpperCase().padStart(7)} ${context ? `[${context}] ` : ''}${text}\n`;
    appendFileSync(this.file, line);
  }
}

/** Routes Nest's static logger (the default of every `new Logger()`) to `file`. */
export function logNestTo(file: string): void {
  Logger.overrideLogger(new NestFileLogger(file));
}
