import {
  checkConformance,
  conformanceLine,
  readConformanceRecords,
  readSchemaFiles,
} from '../../apps/platform-simulator/conformance';
import { CONFORMANCE_DIR } from './conformance-recorder';
import { REPO_ROOT, TEST_KAFKA_HOME, TEST_KAFKA_PORT } from './environment';
import { KafkaBroker } from './kafka-broker';
import { join } from 'node:path';

export default async function globalTeardown(): Promise<void> {
  try {
    if (!process.env.TEST_KAFKA_BROKERS) {
      await new KafkaBroker(TEST_KAFKA_PORT, TEST_KAFKA_HOME).stop();
    }
  } finally {
    checkRecordedTraffic();
  }
}

/**
 * Validates every event and answer the suite recorded against the shipped schema files, prints
 * the one conformance line, and fails the run on any violation or event type without a schema.
 */
function checkRecordedTraffic(): void {
  const records = readConformanceRecords(CONFORMANCE_DIR);
  if (records.length === 0) return;
  const report = checkConformance(
    records,
    readSchemaFiles(join(REPO_ROOT, 'libs/contracts/schemas')),
  );
  const distinct = [...new Set(report.violations.map((v) => v.replace(/#\d+/, '')))];
  console.log(
    `\nconformance: ${report.answersValidated} command answers validated; event types never seen: ` +
      `${report.neverSeen.join(', ') || 'none'}`,
  );
  for (const v of distinct.slice(0, 20)) console.log(`conformance violation: ${v}`);
  console.log(conformanceLine(report));
  if (report.violations.length > 0) {
    throw new Error(`${conformanceLine(report)} (see the violations above)`);
  }
}
