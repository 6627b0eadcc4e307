export const GAME_KINDS = [
  'infinite-blackjack',
  'blackjack-lux',
  'european-blackjack-practice',
  'pok-deng',
] as const;

export type GameKind = (typeof GAME_KINDS)[number];

export function isGameKind(value: unknown): value is GameKind {
  return typeof value === 'string' && (GAME_KINDS as readonly string[]).includes(value);
}

/** Emitted when a table is first registered by the service, or when its configuration changed. */
export interface TableRegisteredPayload {
  tableId: string;
  name: string;
  game: GameKind;
  currency: string;
  reason: 'new' | 'configuration-changed';
  configurationHash: string;
}

export const TABLE_REGISTERED = 'TableRegistered' as const;
export const TABLE_REGISTERED_SCHEMA_VERSION = 1;
