import { Inject, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { settleWithin } from './common/settle-within';
import { StopProgress } from './common/stop-progress';
import { StartProgress } from './common/start-progress';
import type { StudioConfig } from './config/studio-config';
import { DatabaseConnection } from './database/database-connection';
import { EventPublisher } from './outbox/event-publisher';
import { OutboxRelay } from './outbox/outbox-relay';
import { CommandInbox } from './platform/inbox/command-inbox';
import { ScannersLifecycle } from './scanner/scanners-lifecycle';
import { RegisterConfiguredTables } from './tables/register-configured-tables.use-case';
import { TableRuntimeRegistry } from './tables/table-runtime.registry';
import { TablesLifecycle } from './tables/tables-lifecycle';
import { STUDIO_CONFIG } from './tokens';

/** The steps of the stop, in their order (what a stop cut short names as not finished). */
export const STOP_STEPS = {
  handOver: 'hand the tables over to the other instances',
  inbox: 'stop the command inbox',
  scanners: 'close the scanners and store their last readings',
  tables: 'stop the tables and release their leases',
  relay: "finish the outbox relay's batch",
  producer: 'disconnect the Kafka producer',
  database: 'close the database pool',
} as const;

/** Start-up and shutdown order of the service's own moving parts. */
export class StudioLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(STUDIO_CONFIG) private readonly config: StudioConfig,
    private readonly register: RegisterConfiguredTables,
    private readonly relay: OutboxRelay,
    private readonly publisher: EventPublisher,
    private readonly database: DatabaseConnection,
    private readonly scanners: ScannersLifecycle,
    private readonly tables: TablesLifecycle,
    private readonly registry: TableRuntimeRegistry,
    private readonly inbox: CommandInbox,
    private readonly stop: StopProgress,
    private readonly starting: StartProgress,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // A stop asked while the service starts (main.ts): nothing is registered, no lease is taken,
    // and the tables stop taking tables the moment it comes (their stop releases what they took).
    if (this.starting.stopped) return;
    this.starting.signal.addEventListener('abort', () => this.tables.stopTaking(), { once: true });
    await this.register.execute(this.config.tables);
    if (this.starting.stopped) return;
    this.relay.start();
    // Committed transitions put events in the outbox: publish them without waiting for the poll.
    this.registry.onTransition(() => this.relay.notify());
    // Instances whose table files disagree are found when one of them takes a table over.
    this.registry.onDriven({
      running: async (tableId) => {
        const table = this.config.tables.find((t) => t.id === tableId);
        if (table) await this.register.confirmDriven(table);
      },
      stopping: () => undefined,
    });
    // Tables start before the scanners so that no reading arrives at a table that is not running.
    await this.tables.start();
    if (this.starting.stopped) return;
    // After registration: readings and scanner events refer to registered tables.
    await this.scanners.start();
    if (this.starting.stopped) return;
    // Commands other instances read for the tables driven here (and their HTTP answers).
    await this.inbox.start();
  }

  async onApplicationShutdown(): Promise<void> {
    const step = <T>(name: string, work: () => Promise<T>) => this.stop.run(name, work);
    await step(STOP_STEPS.handOver, () => this.handOverBetweenRounds());
    // The command consumer has left the group (beforeApplicationShutdown); the inbox stops next,
    // its in-flight drains answered, and the commands still waiting stay for the next owners.
    await step(STOP_STEPS.inbox, () => this.inbox.stop());
    // Close the serial ports first and store their last readings while the database is open.
    await step(STOP_STEPS.scanners, () => this.scanners.stop());
    // Stop the tables (their in-flight transitions finish) and release their leases at once.
    await step(STOP_STEPS.tables, () => this.tables.stop());
    // Stop taking work, let the in-flight batch finish, flush the producer, then close the pool.
    await step(STOP_STEPS.relay, () => this.relay.stop());
    await step(STOP_STEPS.producer, () => this.publisher.disconnect().catch(() => undefined));
    await step(STOP_STEPS.database, () => this.database.close());
  }

  /**
   * When another instance is alive to take them: tables between rounds go to it now, and a table
   * mid-round gets until the deadline (half the shutdown budget, 5 s at most) to finish it; what is
   * still mid-round then is released as it is and its next owner continues the round. Alone, the
   * instance releases its tables at once (nobody would take them sooner by waiting).
   */
  private async handOverBetweenRounds(): Promise<void> {
    const handOverMs = Math.min(5_000, this.config.shutdownTimeoutMs / 2);
    const deadline = Date.now() + handOverMs;
    // Within the hand-over's own deadline: on a database that hangs, the read waited for its
    // client-side timeout (statement timeout + margin, 6.5 s by default), most of the budget.
    const live = await settleWithin(
      this.tables.distribution().catch(() => ({})),
      handOverMs,
      {} as Record<string, number>,
    );
    if (!Object.keys(live).some((id) => id !== this.config.instanceId)) return;
    await this.tables.handOverAll(deadline).catch(() => undefined);
  }
}
