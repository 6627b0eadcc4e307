/** The topics a platform uses: where it sends commands, reads answers and reads events. */
export interface StudioTopics {
  commands: string;
  results: string;
  events: string;
  /**
   * Contract v2: the shared events topic, read beside `events` (the platform's private one). It
   * carries what every platform may see (the round, its cards and results, BettingOpened) and
   * redacted or split events without their players.
   */
  sharedEvents?: string;
}

/** Contract v1: shared topics (`prefix` is the deployment's KAFKA_TOPIC_PREFIX). */
export function v1Topics(prefix = ''): StudioTopics {
  return {
    commands: `${prefix}studio.platform-commands.v1`,
    results: `${prefix}studio.command-results.v1`,
    events: `${prefix}studio.table-events.v1`,
  };
}

/**
 * Contract v2: the platform's own topics (`studio.platform.<id>.<kind>.v2`) and the shared events
 * topic (`studio.table-events.v2`): a table's events come on the two together.
 */
export function v2Topics(platformId: string, prefix = ''): StudioTopics {
  const topic = (kind: string) => `${prefix}studio.platform.${platformId}.${kind}.v2`;
  return {
    commands: topic('commands'),
    results: topic('results'),
    events: topic('events'),
    sharedEvents: `${prefix}studio.table-events.v2`,
  };
}
