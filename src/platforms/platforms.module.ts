import { DynamicModule, Inject, Module, OnModuleInit } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Clock } from '../clock/clock';
import type { StudioConfig } from '../config/studio-config';
import { tableCurrencyCodes } from '../config/tables-config';
import { CachedPlatformDirectory } from './cached-platform-directory';
import { DEFAULT_PLATFORM_ID, PlatformDirectory } from './platform-directory';
import { PlatformsRepository } from './platforms.repository';

const DEFAULT_CURRENCIES = Symbol('DEFAULT_CURRENCIES');
const CLOCK = Symbol('PLATFORMS_CLOCK');

/** The platforms registry and the directory the platform edges (HTTP, Kafka) authenticate with. */
@Module({})
export class PlatformsModule implements OnModuleInit {
  constructor(
    private readonly repository: PlatformsRepository,
    @Inject(DEFAULT_CURRENCIES) private readonly currencies: string[],
    @Inject(CLOCK) private readonly clock: Clock,
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
        { provide: DEFAULT_CURRENCIES, useValue: tableCurrencies(config) },
        { provide: CLOCK, useValue: clock },
      ],
      exports: [PlatformDirectory, PlatformsRepository],
    };
  }

  /** Today's single-platform setups are the `default` platform, playing every table's currency. */
  async onModuleInit(): Promise<void> {
    if (this.currencies.length === 0) return;
    await this.repository.ensureDefault(DEFAULT_PLATFORM_ID, this.currencies, this.clock.now());
  }
}

function tableCurrencies(config: StudioConfig): string[] {
  return [...new Set(config.tables.flatMap(tableCurrencyCodes))].sort();
}
