/**
 * Kafka topic names of the platform contract. A deployment may prefix them (for example per
 * environment) with KAFKA_TOPIC_PREFIX; the suffix carries the contract's major version so that a
 * breaking change gets a new topic instead of surprising existing consumers.
 */
export const TOPIC_NAMES = {
  /** Everything that happens at a table, keyed by table id, ordered per table by `seq`. */
  tableEvents: 'studio.table-events.v1',
} as const;

export type TopicKey = keyof typeof TOPIC_NAMES;

export function topicName(key: TopicKey, prefix = ''): string {
  return `${prefix}${TOPIC_NAMES[key]}`;
}
