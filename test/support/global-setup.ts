import { Client } from 'pg';
import { TEST_ADMIN_DATABASE_URL, TEST_KAFKA_HOME, TEST_KAFKA_PORT } from './environment';
import { resetConformanceRecords } from './conformance-recorder';
import { KafkaBroker } from './kafka-broker';
import { nameTemplateDatabase } from './template-database';

/**
 * Starts the real Kafka broker shared by the integration tests (fresh storage every run) unless
 * one is given (TEST_KAFKA_BROKERS: `npm test` starts it beside the gates), checks that the real
 * PostgreSQL answers, failing early with a message that says what to do, and names the run's
 * template database (the test files' databases are copies of it).
 */
export default async function globalSetup(): Promise<void> {
  resetConformanceRecords();
  const admin = new Client({
    connectionString: TEST_ADMIN_DATABASE_URL,
    connectionTimeoutMillis: 5000,
  });
  try {
    await admin.connect();
    await admin.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${TEST_ADMIN_DATABASE_URL} (${(error as Error).message}). ` +
        'Start it, or point TEST_DATABASE_URL at a server where the user may create databases.',
    );
  } finally {
    await admin.end().catch(() => undefined);
  }
  await Promise.all([
    nameTemplateDatabase(),
    process.env.TEST_KAFKA_BROKERS
      ? undefined
      : new KafkaBroker(TEST_KAFKA_PORT, TEST_KAFKA_HOME).startFresh(),
  ]);
}
