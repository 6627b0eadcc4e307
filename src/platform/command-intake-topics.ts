import { Logger } from '@nestjs/common';
import { oneLine } from '../common/one-line';

/** The topics the command consumer reads. */
export interface CommandSubscription {
  /** Read by name (the v1 commands topic, which serves the `default` platform). */
  topics: readonly string[];
  /** Every platform's commands topic (`studio.platform.<id>.commands.v2`). */
  pattern: RegExp;
  /** How often the broker's topics are looked at for a new platform's, milliseconds. */
  refreshMs: number;
}

/**
 * A new platform's commands are read without a restart. kafkajs matches a topic pattern only when
 * it subscribes, so the topics are listed every `refreshMs` and, when a platform's commands topic
 * appeared (made by `npm run platform:kafka -- setup`), the consumer subscribes again with it (a
 * stop and a run: the group rebalances once, the other partitions resume at their committed
 * offsets). A failed look is tried again at the next tick.
 */
export class CommandTopicWatcher {
  private readonly logger = new Logger('CommandIntake');
  private readonly subscribed = new Set<string>();
  private timer?: NodeJS.Timeout;
  private checking?: Promise<string[]>;
  private failing = false;

  constructor(
    private readonly subscription: CommandSubscription,
    private readonly listTopics: () => Promise<string[]>,
    private readonly resubscribe: (all: string[], added: string[]) => Promise<void>,
  ) {}

  /** The topics to subscribe to now: the named ones and the platforms' that exist. */
  async initial(): Promise<string[]> {
    const all = [...this.subscription.topics, ...this.matching(await this.listTopics())];
    this.subscribed.clear();
    for (const topic of all) this.subscribed.add(topic);
    return all;
  }

  start(): void {
    this.stop();
    this.timer = setInterval(() => {
      // The last look is still out (the brokers are away): no second one joins it, so its failure
      // is said once, not once per tick that waited on it; and once per outage, not per look.
      if (this.checking) return;
      void this.check().then(
        () => (this.failing = false),
        (error: unknown) => {
          const line = `Looking for new platforms' command topics failed: ${oneLine(error)}`;
          if (this.failing) return this.logger.debug(line);
          this.failing = true;
          this.logger.warn(line);
        },
      );
    }, this.subscription.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Subscribes to the platforms' topics that appeared; returns them. One check at a time. */
  check(): Promise<string[]> {
    this.checking ??= this.checkNow().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async checkNow(): Promise<string[]> {
    const added = this.matching(await this.listTopics()).filter((t) => !this.subscribed.has(t));
    if (added.length === 0) return [];
    await this.resubscribe([...this.subscribed, ...added], added);
    for (const topic of added) this.subscribed.add(topic);
    this.logger.log(`Reading the commands of ${added.join(', ')}`);
    return added;
  }

  private matching(topics: readonly string[]): string[] {
    return topics.filter((t) => this.subscription.pattern.test(t)).sort();
  }
}
