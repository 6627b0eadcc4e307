import {
  DEFAULT_PLATFORM_ID,
  PLATFORM_ID_PATTERN,
  PlatformTopicKind,
  platformTopicName,
  sharedTableEventsTopic,
  topicName,
} from '@studio/contracts';

/**
 * The service's side of the per-platform topics: which platform a command topic belongs to, where
 * a command's answers go, where a platform's private events go. Pure string work, decided once per
 * topic and remembered, so routing by platform costs no round trip and almost no CPU per command.
 */
export class PlatformTopics {
  readonly v1Commands: string;
  readonly v1Results: string;
  readonly v1Events: string;
  readonly v1DeadLetters: string;
  readonly sharedEvents: string;
  /** Every platform's command topic (v2); the v1 commands topic is subscribed by name. */
  readonly commandsPattern: RegExp;
  private readonly platformOfTopic = new Map<string, string | null>();
  private readonly resultsOfTopic = new Map<string, string>();

  constructor(private readonly prefix = '') {
    this.v1Commands = topicName('platformCommands', prefix);
    this.v1Results = topicName('commandResults', prefix);
    this.v1Events = topicName('tableEvents', prefix);
    this.v1DeadLetters = topicName('commandDeadLetters', prefix);
    this.sharedEvents = sharedTableEventsTopic(prefix);
    this.commandsPattern = new RegExp(
      `^${escapeRegExp(prefix)}studio\\.platform\\.(${PLATFORM_ID_PATTERN})\\.commands\\.v2$`,
    );
  }

  /**
   * The platform a command topic belongs to: the v1 topic serves `default`, a v2 topic names its
   * platform; null for any other topic (never read as a platform's commands).
   */
  platformOfCommandTopic(topic: string): string | null {
    let platform = this.platformOfTopic.get(topic);
    if (platform === undefined) {
      platform =
        topic === this.v1Commands
          ? DEFAULT_PLATFORM_ID
          : (this.commandsPattern.exec(topic)?.[1] ?? null);
      this.platformOfTopic.set(topic, platform);
    }
    return platform;
  }

  /** Answers go back the way the command came: v1 to v1, a platform's topic to its results. */
  resultsTopicFor(commandTopic: string): string {
    let results = this.resultsOfTopic.get(commandTopic);
    if (results === undefined) {
      const platform = this.platformOfCommandTopic(commandTopic);
      results =
        platform === null || commandTopic === this.v1Commands
          ? this.v1Results
          : this.platformTopic(platform, 'results');
      this.resultsOfTopic.set(commandTopic, results);
    }
    return results;
  }

  /**
   * Where a command that cannot be answered goes: a platform's commands topic to that platform's
   * dead letters (its players' bets as sent reach no other platform), the v1 topic (the `default`
   * platform's) to the v1 dead-letter topic.
   */
  deadLettersTopicFor(commandTopic: string): string {
    const platform = this.platformOfCommandTopic(commandTopic);
    return platform === null || commandTopic === this.v1Commands
      ? this.v1DeadLetters
      : this.platformTopic(platform, 'dead-letters');
  }

  commandsTopic(platformId: string): string {
    return this.platformTopic(platformId, 'commands');
  }

  eventsTopic(platformId: string): string {
    return this.platformTopic(platformId, 'events');
  }

  platformTopic(platformId: string, kind: PlatformTopicKind): string {
    return platformTopicName(platformId, kind, this.prefix);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
