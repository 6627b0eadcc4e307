/**
 * Kafka topic names of the platform contract. A deployment may prefix them (for example per
 * environment) with KAFKA_TOPIC_PREFIX; the suffix carries the contract's major version so that a
 * breaking change gets a new topic instead of surprising existing consumers.
 */
export const TOPIC_NAMES = {
  /** Everything that happens at a table, keyed by table id, ordered per table by `seq`. */
  tableEvents: 'studio.table-events.v1',
  /** Platforms' commands (bets, seats, decisions), keyed by table id. */
  platformCommands: 'studio.platform-commands.v1',
  /** One answer per command (accepted / rejected with a reason code), keyed by table id. */
  commandResults: 'studio.command-results.v1',
  /** Commands that could not be read: original bytes, reason in headers. */
  commandDeadLetters: 'studio.platform-commands.dead-letter.v1',
} as const;

export type TopicKey = keyof typeof TOPIC_NAMES;

export function topicName(key: TopicKey, prefix = ''): string {
  return `${prefix}${TOPIC_NAMES[key]}`;
}
