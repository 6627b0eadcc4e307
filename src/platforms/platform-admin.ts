import type { Clock, IdGenerator } from '../clock/clock';
import { BOTS, PLATFORM_ID_PATTERN } from '../common/player-key';
import { apiKeyHash, newApiKey } from './api-key';
import type { PlatformsRepository } from './platforms.repository';
import { isIsoCurrency } from '../common/currency-codes';

export const PLATFORM_USAGE = [
  'usage: npm run platform -- <command>',
  '  add <id> <CUR[,CUR...]> <name...>   a new platform (id: a-z, 0-9, "-"; ISO 4217 currencies)',
  '  suspend <id> | resume <id>          refuse or serve the platform again (every instance, at once)',
  '  list                                the platforms',
  '  key:create <id> [label...]          a new API key, printed once (several may be active)',
  "  key:list <id>                       the platform's keys (ids, labels, revocations; never the keys)",
  '  key:revoke <id> <key-id>            refused by every instance at once',
].join('\n');

/** A refusal of the operator's command: printed without a stack, exit code 1. */
export class PlatformAdminError extends Error {}

const CURRENCY = /^[A-Z]{3}$/;

/** Ids that name no platform: `bot:` keys are the practice tables' bots (player keys, src/common). */
const RESERVED_IDS = new Set([BOTS]);

function platformId(id: string | undefined): string {
  if (!id || !PLATFORM_ID_PATTERN.test(id)) {
    throw new PlatformAdminError(
      `platform id must match ${PLATFORM_ID_PATTERN.source} (got ${JSON.stringify(id ?? '')})`,
    );
  }
  if (RESERVED_IDS.has(id)) {
    throw new PlatformAdminError(
      `platform id ${JSON.stringify(id)} is reserved (the practice tables' bots): choose another`,
    );
  }
  return id;
}

/**
 * The operators' platform commands (the CLI's logic, apart from its process plumbing): returns
 * what to print. A new key is in the answer and nowhere else: it is stored only as its hash.
 */
export async function runPlatformAdmin(
  args: readonly string[],
  deps: { repository: PlatformsRepository; clock: Clock; ids: IdGenerator },
): Promise<string> {
  const { repository, clock, ids } = deps;
  const [command, id, ...rest] = args;
  switch (command) {
    case 'add': {
      const [currencyList, ...nameParts] = rest;
      const currencies = (currencyList ?? '').split(',').filter(Boolean);
      if (currencies.length === 0 || !currencies.every((c) => CURRENCY.test(c))) {
        throw new PlatformAdminError(
          'currencies: a comma-separated list of ISO 4217 codes, e.g. EUR,USD',
        );
      }
      const unknown = currencies.filter((c) => !isIsoCurrency(c));
      if (unknown.length > 0) {
        throw new PlatformAdminError(`currencies: not ISO 4217 codes: ${unknown.join(', ')}`);
      }
      const name = nameParts.join(' ') || platformId(id);
      if (!(await repository.add({ id: platformId(id), name, currencies }, clock.now()))) {
        throw new PlatformAdminError(`platform ${id} exists already`);
      }
      return `Added platform ${id} (${name}), currencies ${currencies.join(', ')}`;
    }
    case 'suspend':
    case 'resume': {
      const status = command === 'suspend' ? 'suspended' : 'active';
      if (!(await repository.setStatus(platformId(id), status, clock.now()))) {
        throw new PlatformAdminError(`no platform ${id}`);
      }
      return `Platform ${id} is ${status}`;
    }
    case 'list':
      return (await repository.list())
        .map((p) => `${p.id}\t${p.status}\t${p.currencies.join(',')}\t${p.name}`)
        .join('\n');
    case 'key:create': {
      if (!(await repository.get(platformId(id))))
        throw new PlatformAdminError(`no platform ${id}`);
      const key = newApiKey();
      const keyId = ids.newId();
      await repository.addKey(
        { id: keyId, platformId: id, hash: apiKeyHash(key), label: rest.join(' ') },
        clock.now(),
      );
      return `Key ${keyId} for platform ${id} (shown once, store it now):\n${key}`;
    }
    case 'key:list':
      return (await repository.keys(platformId(id)))
        .map(
          (k) =>
            `${k.id}\t${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active'}\t${k.label}`,
        )
        .join('\n');
    case 'key:revoke': {
      const [keyId] = rest;
      if (!keyId || !(await repository.revokeKey(platformId(id), keyId, clock.now()))) {
        throw new PlatformAdminError(`platform ${id} has no key ${keyId ?? ''}`);
      }
      return `Key ${keyId} of platform ${id} is revoked`;
    }
    default:
      throw new PlatformAdminError(PLATFORM_USAGE);
  }
}
