import { CHAIN_CHECKPOINT, eventSchema, validate } from '@studio/contracts';
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import type { ChainCheckpoint } from '../../src/audit/event-chain-walk';

export interface CheckpointsRead {
  checkpoints: ChainCheckpoint[];
  /** Messages typed ChainCheckpoint that do not validate against its schema (not trusted). */
  invalid: number;
}

const HASH = /^[0-9a-f]{64}$/;

/**
 * Decodes one message of the events topic: the chain head it publishes (a valid ChainCheckpoint's
 * payload, or a round event's envelope `chain`), 'invalid' (a head that does not match its schema:
 * not trusted) or undefined (no head).
 */
export function checkpointOf(value: Buffer | null): ChainCheckpoint | 'invalid' | undefined {
  let envelope: {
    type?: unknown;
    payload?: unknown;
    tableId?: unknown;
    occurredAt?: unknown;
    chain?: { eventNo?: unknown; hash?: unknown };
  };
  try {
    envelope = JSON.parse(value?.toString('utf8') ?? 'null') as typeof envelope;
  } catch {
    return undefined;
  }
  if (envelope?.type === CHAIN_CHECKPOINT) {
    if (validate(eventSchema(CHAIN_CHECKPOINT)!, envelope).length > 0) return 'invalid';
    return envelope.payload as ChainCheckpoint;
  }
  if (envelope?.chain === undefined) return undefined;
  const { chain, tableId, occurredAt } = envelope;
  const valid =
    typeof tableId === 'string' &&
    typeof occurredAt === 'string' &&
    Number.isSafeInteger(chain?.eventNo) &&
    (chain.eventNo as number) > 0 &&
    typeof chain.hash === 'string' &&
    HASH.test(chain.hash);
  if (!valid) return 'invalid';
  return {
    tableId,
    eventNo: chain.eventNo as number,
    hash: chain.hash as string,
    checkpointAt: occurredAt,
  };
}

/**
 * Reads every ChainCheckpoint of the events topic from the beginning until caught up with the
 * end offsets taken at the start, with a throw-away consumer group that commits nothing.
 */
export async function readCheckpoints(
  brokers: readonly string[],
  topic: string,
  timeoutMs = 120_000,
): Promise<CheckpointsRead> {
  const kafka = new Kafka({
    clientId: 'studio-audit-cli',
    brokers: [...brokers],
    logLevel: logLevel.NOTHING,
    retry: { retries: 5, initialRetryTime: 200 },
  });
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
  // Partitions still to read up to (exclusive) the high watermark seen at the start.
  const pending = new Map(
    ends.filter((p) => Number(p.high) > Number(p.low)).map((p) => [p.partition, Number(p.high)]),
  );
  const out: CheckpointsRead = { checkpoints: [], invalid: 0 };
  if (pending.size === 0) return out;
  const consumer = kafka.consumer({ groupId: `studio-audit-${randomBytes(6).toString('hex')}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Timed out after ${timeoutMs} ms reading ${topic}`)),
        timeoutMs,
      );
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            const found = checkpointOf(message.value);
            if (found === 'invalid') out.invalid += 1;
            else if (found) out.checkpoints.push(found);
            const end = pending.get(partition);
            if (end !== undefined && Number(message.offset) + 1 >= end) pending.delete(partition);
            if (pending.size === 0) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return out;
}
