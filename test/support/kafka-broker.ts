import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './environment';

const run = promisify(execFile);

/**
 * Controls one real Kafka broker started by scripts/kafka.sh (the same script developers use).
 * Tests that stop and restart a broker get their own instance so they cannot disturb others.
 */
export class KafkaBroker {
  readonly brokers: string;

  constructor(
    readonly port: number,
    readonly homeDir: string,
  ) {
    this.brokers = `127.0.0.1:${port}`;
  }

  static forTest(port: number, name: string): KafkaBroker {
    return new KafkaBroker(port, resolve(REPO_ROOT, '.tmp', `kafka-${name}-${port}`));
  }

  /** Starts with empty storage (a fresh cluster). */
  async startFresh(): Promise<void> {
    await this.stop();
    rmSync(this.homeDir, { recursive: true, force: true });
    await this.start();
  }

  async start(): Promise<void> {
    await this.script('start');
  }

  async stop(): Promise<void> {
    await this.script('stop');
  }

  private async script(command: string): Promise<void> {
    await run('bash', [resolve(REPO_ROOT, 'scripts/kafka.sh'), command], {
      env: { ...process.env, KAFKA_PORT: String(this.port), KAFKA_HOME_DIR: this.homeDir },
      timeout: 180_000,
    });
  }
}
