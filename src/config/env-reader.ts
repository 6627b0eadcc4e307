import { readFileSync } from 'node:fs';
import { ConfigError } from '../common/config-error';

type Env = Record<string, string | undefined>;

/**
 * Small typed readers over process.env. Each failure names the variable, what is expected and what
 * was given, so a wrong value stops the service with a message an operator can act on.
 */
export class EnvReader {
  constructor(private readonly env: Env) {}

  raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!/^-?\d+$/.test(value)) {
      throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${value}")`);
    }
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${value}")`);
    }
    return parsed;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const lower = value.toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(lower)) return true;
    if (['false', '0', 'no', 'off'].includes(lower)) return false;
    throw new ConfigError(`${name} must be true or false (got "${value}")`);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
    }
    return value as T;
  }

  postgresUrl(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new ConfigError(
        `${name} must be a URL like postgres://user:password@host:5432/database (got "${redactUrl(value)}")`,
      );
    }
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
      throw new ConfigError(
        `${name} must use the postgres:// or postgresql:// scheme (got "${url.protocol}")`,
      );
    }
    if (!url.hostname || url.pathname.length <= 1) {
      throw new ConfigError(
        `${name} must name a host and a database, like postgres://host:5432/studio (got "${redactUrl(value)}")`,
      );
    }
    return value;
  }

  brokerList(name: string): string[] | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const brokers = value.split(',').map((b) => b.trim());
    for (const broker of brokers) {
      if (!/^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/.test(broker)) {
        throw new ConfigError(
          `${name} must be a comma-separated list of host:port (got "${broker}" in "${value}")`,
        );
      }
      // Out of range, kafkajs only fails each connection ("Port should be >= 0 and < 65536") and
      // retries for ever: the service started with Kafka down instead of refusing the setting.
      const port = Number(broker.slice(broker.lastIndexOf(':') + 1));
      if (port < 1 || port > 65535) {
        throw new ConfigError(
          `${name} needs a port from 1 to 65535 in each host:port (got "${broker}" in "${value}")`,
        );
      }
    }
    return brokers;
  }
}

/** Hides the password of a connection URL so it never reaches a log line or an error message. */
export function redactUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    // The pg client also reads a password from the query (`?password=`, `?sslpassword=`).
    for (const name of [...url.searchParams.keys()]) {
      if (SECRET_PARAMETER.test(name)) url.searchParams.set(name, '***');
    }
    return url.toString();
  } catch {
    return value
      .replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@')
      .replace(SECRET_PARAMETER_VALUE, '$1***');
  }
}

const SECRET_WORDS = 'pass|secret|token';
const SECRET_PARAMETER = new RegExp(SECRET_WORDS, 'i');
/** The same names in a URL that does not parse: `?…password…=value` up to the next `&`. */
const SECRET_PARAMETER_VALUE = new RegExp(`([?&][^=&]*(?:${SECRET_WORDS})[^=&]*=)[^&]*`, 'gi');

/** The text of a file a variable names; a file that cannot be read is a configuration error. */
export function readConfiguredFile(variable: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `${variable} "${path}" cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}
