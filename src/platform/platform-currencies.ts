import type { PlatformDirectory } from '../platforms/platform-directory';
import { rejected } from '../use-cases/common/table-command';
import type { CommandRejection } from '../use-cases/common/tables.port';

/**
 * The currencies each active platform uses, as the Kafka intake reads them: a snapshot of the
 * platforms registry, refreshed before each batch (the directory caches it for a few seconds), so
 * a message is checked without a lookup of its own. Until the first refresh, and for a platform
 * the snapshot does not hold, nothing is known (only the table's currencies count).
 *
 * It also says which platforms the batch may not act for: a platform of the batch that the
 * active snapshot does not hold is looked up (the directory's cache again): a suspended one is
 * refused `platform-suspended` and one the registry does not know `unknown-platform`, as the HTTP
 * key guard refuses them, so suspending a platform stops its Kafka commands too.
 */
export class PlatformCurrencies {
  private byPlatform = new Map<string, readonly string[]>();
  private refused = new Map<string, CommandRejection>();

  constructor(
    private readonly directory: Pick<PlatformDirectory, 'listActive'> &
      Partial<Pick<PlatformDirectory, 'get'>>,
  ) {}

  async refresh(platformIds: Iterable<string> = []): Promise<void> {
    const platforms = await this.directory.listActive();
    const byPlatform = new Map(platforms.map((p) => [p.id, [...p.currencies]] as const));
    const refused = new Map<string, CommandRejection>();
    const get = this.directory.get?.bind(this.directory);
    if (get) {
      for (const id of new Set(platformIds)) {
        if (byPlatform.has(id)) continue;
        const platform = await get(id);
        if (!platform) {
          refused.set(id, rejected('unknown-platform', `No platform ${id} is registered`));
        } else if (platform.status !== 'active') {
          refused.set(id, rejected('platform-suspended', `Platform ${id} is suspended`));
        } else {
          byPlatform.set(id, [...platform.currencies]);
        }
      }
    }
    this.byPlatform = byPlatform;
    this.refused = refused;
  }

  of(platformId: string): readonly string[] | undefined {
    return this.byPlatform.get(platformId);
  }

  /** Why this platform's commands are refused now (suspended, unknown), or undefined. */
  refusal(platformId: string): CommandRejection | undefined {
    return this.refused.get(platformId);
  }
}
