import type { Kafka } from 'kafkajs';

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
): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t.topic));
    if (missing.length > 0) await admin.createTopics({ waitForLeaders: true, topics: missing });
    return missing.map((t) => t.topic);
  } finally {
    await admin.disconnect();
  }
}
