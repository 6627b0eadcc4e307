import type { PlatformDirectory } from '../platforms/platform-directory';

/**
 * The currencies each active platform uses, as the Kafka intake reads them: a snapshot of the
 * platforms registry, refreshed before each batch (the directory caches it for a few seconds), so
 * a message is checked without a lookup of its own. Until the first refresh, and for a platform
 * the snapshot does not hold, nothing is known (only the table's currencies count).
 */
export class PlatformCurrencies {
  private byPlatform = new Map<string, readonly string[]>();

  constructor(private readonly directory: Pick<PlatformDirectory, 'listActive'>) {}

  async refresh(): Promise<void> {
    const platforms = await this.directory.listActive();
    this.byPlatform = new Map(platforms.map((p) => [p.id, [...p.currencies]]));
  }

  of(platformId: string): readonly string[] | undefined {
    return this.byPlatform.get(platformId);
  }
}
