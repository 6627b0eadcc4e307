import {
  DynamicModule,
  Inject,
  Logger,
  Module,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Clock } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { tableCurrencyCodes } from '../config/tables-config';
import { PgChannelListener } from '../database/pg-channel-listener';
import { CachedPlatformDirectory } from './cached-platform-directory';
import { DEFAULT_PLATFORM_ID, PlatformDirectory } from './platform-directory';
import { PLATFORMS_CHANGED_CHANNEL, PlatformsRepository } from './platforms.repository';

const DEFAULT_CURRENCIES = Symbol('DEFAULT_CURRENCIES');
const CLOCK = Symbol('PLATFORMS_CLOCK');
const CHANGES = Symbol('PLATFORMS_CHANGES');

/** The platforms registry and the directory the platform edges (HTTP, Kafka) authenticate with. */
@Module({})
export class PlatformsModule implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Platforms');

  constructor(
    private readonly repository: PlatformsRepository,
    private readonly directory: CachedPlatformDirectory,
    @Inject(DEFAULT_CURRENCIES) private readonly currencies: string[],
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CHANGES) private readonly changes: PgChannelListener | null,
  ) {}

  static forRoot(deps: {
    config: StudioConfig;
    dataSource: DataSource;
    clock: Clock;
  }): DynamicModule {
    const { config, clock } = deps;
    const repository = new PlatformsRepository(deps.dataSource);
    const directory = new CachedPlatformDirectory(
      repository,
      clock,
      config.orchestrator.platformKeyCacheMs,
      config.orchestrator.platformKeys,
    );
    return {
      module: PlatformsModule,
      providers: [
        { provide: PlatformsRepository, useValue: repository },
        { provide: PlatformDirectory, useValue: directory },
        { provide: CachedPlatformDirectory, useValue: directory },
        { provide: DEFAULT_CURRENCIES, useValue: tableCurrencies(config) },
        { provide: CLOCK, useValue: clock },
        { provide: CHANGES, useValue: changesListener(config) },
      ],
      exports: [PlatformDirectory, PlatformsRepository],
    };
  }

  /** Today's single-platform setups are the `default` platform, playing every table's currency. */
  async onModuleInit(): Promise<void> {
    this.listenForChanges();
    if (this.currencies.length === 0) return;
    await this.repository.ensureDefault(DEFAULT_PLATFORM_ID, this.currencies, this.clock.now());
  }

  async onModuleDestroy(): Promise<void> {
    await this.changes?.close();
  }

  /**
   * A key revoked or a platform suspended (by `npm run platform`, on any instance) holds at once:
   * the directory forgets its cache on the registry's NOTIFY, and after each (re)connect of the
   * listening connection, since a notice sent while it was down is lost.
   */
  private listenForChanges(): void {
    const directory = this.directory;
    if (!this.changes) return;
    void this.changes.listen({
      notification: (_channel, platformId) => {
        this.logger.debug(`Platform ${platformId} changed: its keys and status are read again`);
        directory.forget();
      },
      connected: () => directory.forget(),
    });
  }
}

/** The registry's change notices; none on the embedded database (one connection, no LISTEN). */
function changesListener(config: StudioConfig): PgChannelListener | null {
  const url = config.database.url;
  if (!url) return null;
  return new PgChannelListener(
    {
      url,
      applicationName: `studio:${config.instanceId}:platform-changes`,
      connectTimeoutMs: config.database.connectTimeoutMs,
    },
    [PLATFORMS_CHANGED_CHANNEL],
  );
}

function tableCurrencies(config: StudioConfig): string[] {
  return [...new Set(config.tables.flatMap(tableCurrencyCodes))].sort();
}
