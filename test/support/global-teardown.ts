import {
  checkConformance,
  conformanceLine,
  readConformanceRecords,
  readSchemaFiles,
} from '../../apps/platform-simulator/conformance';
import { CONFORMANCE_DIR } from './conformance-recorder';
import { REPO_ROOT, TEST_KAFKA_HOME, TEST_KAFKA_PORT } from './environment';
import { KafkaBroker } from './kafka-broker';
import { dropTemplateDatabase } from './template-database';
import type { ChildProcess } from 'node:child_process';
import { Server, Socket } from 'node:net';
import { join } from 'node:path';

export default async function globalTeardown(): Promise<void> {
  try {
    await Promise.all([
      dropTemplateDatabase(),
      process.env.TEST_KAFKA_BROKERS
        ? undefined
        : new KafkaBroker(TEST_KAFKA_PORT, TEST_KAFKA_HOME).stop(),
    ]);
  } finally {
    try {
      checkRecordedTraffic();
    } finally {
      await reportOpenHandles();
    }
  }
}

/**
 * Anything a test left open (a client retrying a stopped broker, a child process) would keep jest
 * alive until CI's limit. A clean run leaves nothing and ends by itself, printing nothing here;
 * otherwise this says what was left, so the leak is found, not hidden, and ends the run with its
 * verdict a few seconds later (jest sets the exit code as the process exits).
 */
async function reportOpenHandles(): Promise<void> {
  let left: string[] = [];
  for (let waited = 0; waited <= 3_000; waited += 250) {
    left = openHandles();
    if (left.length === 0) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  console.log(`\nleft open after the tests (the run ends in 5 s anyway): ${left.join('; ')}`);
  setTimeout(() => process.exit(), 5_000).unref();
}

function openHandles(): string[] {
  const active = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  const described: string[] = [];
  for (const handle of active) {
    if (handle === process.stdout || handle === process.stderr || handle === process.stdin) {
      continue;
    }
    if (handle instanceof Socket) {
      if (handle.remotePort === undefined) continue; // a pipe: jest's own stdio
      described.push(`socket to ${handle.remoteAddress}:${handle.remotePort}`);
    } else if (handle instanceof Server) {
      described.push(`server on ${JSON.stringify(handle.address())}`);
    } else if (isChild(handle)) {
      described.push(`child process ${handle.pid} (${handle.spawnargs.join(' ').slice(0, 120)})`);
    } else {
      described.push((handle as object).constructor?.name ?? typeof handle);
    }
  }
  const timers = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  if (timers > 0) described.push(`${timers} timer(s)`);
  return described;
}

function isChild(handle: unknown): handle is ChildProcess {
  return typeof handle === 'object' && handle !== null && 'spawnargs' in handle;
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
