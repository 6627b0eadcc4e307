/** The topics a platform uses: where it sends commands, reads answers and reads events. */
export interface StudioTopics {
  commands: string;
  results: string;
  events: string;
}

/** Contract v1: shared topics (`prefix` is the deployment's KAFKA_TOPIC_PREFIX). */
export function v1Topics(prefix = ''): StudioTopics {
  return {
    commands: `${prefix}studio.platform-commands.v1`,
    results: `${prefix}studio.command-results.v1`,
    events: `${prefix}studio.table-events.v1`,
  };
}

/** Contract v2: the platform's own topics (`studio.platform.<id>.<kind>.v2`). */
export function v2Topics(platformId: string, prefix = ''): StudioTopics {
  const topic = (kind: string) => `${prefix}studio.platform.${platformId}.${kind}.v2`;
  return { commands: topic('commands'), results: topic('results'), events: topic('events') };
}
