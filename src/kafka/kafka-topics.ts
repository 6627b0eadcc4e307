import type { Admin, Kafka } from 'kafkajs';

export interface TopicSpec {
  topic: string;
  numPartitions: number;
}

/**
 * Creates the topics that do not exist yet (topics are never auto-created: their partition counts
 * are part of the contract) and returns the names it created. Every client of the service creates
 * its topics through this one function.
 */
export async function ensureKafkaTopics(
  kafka: Kafka,
  topics: readonly TopicSpec[],
  settleMs = 30_000,
): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t.topic));
    if (missing.length > 0) await createAndWait(admin, missing, settleMs);
    return missing.map((t) => t.topic);
  } finally {
    await admin.disconnect();
  }
}

/** Metadata errors of a topic just created that the broker has not caught up with yet. */
const NOT_YET = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE']);

/**
 * Creates the topics and waits for their leaders. kafkajs gives up at once when the broker it
 * asks does not know a topic the controller has just created (a loaded or freshly started broker
 * lags behind its metadata log): asked again (an existing topic is not an error) until it knows.
 */
async function createAndWait(admin: Admin, topics: TopicSpec[], settleMs: number): Promise<void> {
  const deadline = Date.now() + settleMs;
  for (;;) {
    try {
      await admin.createTopics({ waitForLeaders: true, topics });
      return;
    } catch (error) {
      const type = (error as { type?: string }).type ?? '';
      if (!NOT_YET.has(type) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
