import { resolve } from 'node:path';

/** Where the integration tests find their real services. */
export const REPO_ROOT = resolve(__dirname, '..', '..');
export const TEST_KAFKA_PORT = Number(process.env.TEST_KAFKA_PORT ?? 19392);
export const TEST_KAFKA_HOME = resolve(REPO_ROOT, '.tmp', `kafka-test-${TEST_KAFKA_PORT}`);
/** Brokers that tests stop and start (outages) on their own: apart from the shared one's port. */
export const TEST_KAFKA_OUTAGE_PORT = Number(
  process.env.TEST_KAFKA_OUTAGE_PORT ?? TEST_KAFKA_PORT + 100,
);
export const TEST_KAFKA_BROKERS = process.env.TEST_KAFKA_BROKERS ?? `127.0.0.1:${TEST_KAFKA_PORT}`;
export const TEST_ADMIN_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
