/** The orchestrator test's tables: virtual shoes over real socat pseudo-terminals. */
import type { TableDefinition } from '../../src/config/tables-config';

/** Virtual shoes over real socat pseudo-terminals, dealt on demand by the virtual dealer. */
export function virtualShoeScanner(seed: number, misreadRate: number) {
  return {
    wireFormat: 'studio-framed-v1',
    virtualShoe: { seed, intervalMs: 3_600_000, misreadRate, heartbeatIntervalMs: 60_000 },
  };
}

export const ORCHESTRATOR_TABLES: TableDefinition[] = [
  {
    id: 'pokdeng-e2e',
    name: 'Pok Deng e2e',
    game: 'pok-deng',
    currency: 'THB',
    bettingWindowMs: 4_000,
    roundIntervalMs: 300,
    scanner: virtualShoeScanner(11, 0.2),
  } as unknown as TableDefinition,
  {
    id: 'ibj-e2e',
    name: 'Infinite Blackjack e2e',
    game: 'infinite-blackjack',
    currency: 'EUR',
    bettingWindowMs: 3_000,
    decisionWindowMs: 1_500,
    roundIntervalMs: 300,
    scanner: virtualShoeScanner(22, 0.2),
  } as unknown as TableDefinition,
  {
    id: 'pokdeng-sup',
    name: 'Pok Deng supervised',
    game: 'pok-deng',
    currency: 'THB',
    bettingWindowMs: 60_000,
    roundIntervalMs: 300,
    rescan: { maxFailedAttempts: 2 },
    scanner: virtualShoeScanner(33, 0.6),
  } as unknown as TableDefinition,
];
