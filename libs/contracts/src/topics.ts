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

/**
 * Contract 2.0: one studio serves many casino platforms. Each platform writes its commands to a
 * topic of its own and reads its answers and its private events (its own players' bets,
 * decisions, settlements, refunds, cancellations) and its commands that could not be read (dead
 * letters: its players' bets as sent) from topics of its own; the shared topic carries only what
 * every platform may see. The broker's ACLs give a platform's principal exactly its
 * own topics, so the topic a command arrives on names its platform.
 */
export const PLATFORM_TOPIC_KINDS = ['commands', 'results', 'events', 'dead-letters'] as const;
export type PlatformTopicKind = (typeof PLATFORM_TOPIC_KINDS)[number];

/** The platform the v1 topics serve, and the one a command or event without a platform belongs to. */
export const DEFAULT_PLATFORM_ID = 'default';

/** A platform id as the platforms registry accepts it (also safe inside a topic name). */
export const PLATFORM_ID_PATTERN = '[a-z0-9][a-z0-9-]{0,39}';

/** What every platform may see: round lifecycle, cards once face up, results, aggregate counts. */
export const SHARED_TABLE_EVENTS_V2 = 'studio.table-events.v2';

/** `studio.platform.<platformId>.<kind>.v2`, prefixed like every topic of the deployment. */
export function platformTopicName(
  platformId: string,
  kind: PlatformTopicKind,
  prefix = '',
): string {
  return `${prefix}studio.platform.${platformId}.${kind}.v2`;
}

export function sharedTableEventsTopic(prefix = ''): string {
  return `${prefix}${SHARED_TABLE_EVENTS_V2}`;
}
