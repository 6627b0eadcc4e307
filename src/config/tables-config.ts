import { GAME_KINDS, GameKind, isGameKind } from '@studio/contracts';
import { parseScannerSettings, ScannerSettings } from '../scanner/scanner-settings';
import { createGameAdapter, gameDefinition } from '../games/game-registry';
import { ruleOverrideProblem } from '../games/rule-overrides';
import { TableRunSettings, tableRunSettings } from '../tables/table-settings';
import { ConfigError } from '../common/config-error';
import { oneLine } from '../common/one-line';
import { readConfiguredFile } from './env-reader';

export interface TableDefinition {
  id: string;
  name: string;
  game: GameKind;
  /** The default currency: ISO 4217 code (or XPT-style code for the practice table's points). */
  currency: string;
  /**
   * Several currencies, each with its limits (`{"EUR": {"main": {...}}, "THB": {...}}`), instead
   * of `currency` + `limits`; read through tableCurrencyCodes.
   */
  currencies?: Record<string, unknown>;
  /** The table's card-shoe reader; absent for tables without one (the practice table). */
  scanner?: ScannerSettings;
  /** Further per-table settings (limits, scanner, windows), kept verbatim for later stages. */
  [setting: string]: unknown;
}

const TABLE_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The settings read from a table's entry (others are kept as they are). */
const KNOWN_SETTINGS = [
  'id',
  'name',
  'game',
  'currency',
  'currencies',
  'scanner',
  'bettingWindowMs',
  'decisionWindowMs',
  'roundIntervalMs',
  'limits',
  'rescan',
  'rules',
];
const KNOWN_BY_CASE = new Map(KNOWN_SETTINGS.map((k) => [k.toLowerCase(), k]));

/** A known setting spelt in another case would be kept unread, and the table run on defaults. */
function refuseMisspelt(table: Record<string, unknown>, where: string): void {
  for (const key of Object.keys(table)) {
    const meant = KNOWN_BY_CASE.get(key.toLowerCase());
    if (meant && meant !== key) {
      throw new ConfigError(`${where}: "${key}" is not a setting: did you mean "${meant}"?`);
    }
  }
}

/** Reads and validates the table definitions; every problem names the file and the table. */
export function loadTableDefinitions(path: string): TableDefinition[] {
  const text = readConfiguredFile('TABLES_FILE', path);
  let parsed: unknown;
  try {
    // A byte-order mark (Notepad saves UTF-8 with one) is not JSON, yet invisible in the file.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ConfigError(`TABLES_FILE "${path}" is not valid JSON (${(error as Error).message})`);
  }
  return parseTableDefinitions(parsed, `TABLES_FILE "${path}"`);
}

export function parseTableDefinitions(value: unknown, source: string): TableDefinition[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new ConfigError(`${source} must be a non-empty JSON array of tables`);
  }
  const seen = new Set<string>();
  const readers = new Map<string, string>();
  const tables = value.map((entry, index) => {
    const where = `${source} table #${index + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new ConfigError(`${where} must be an object`);
    }
    const table = entry as Record<string, unknown>;
    if (typeof table.id !== 'string' || !TABLE_ID.test(table.id)) {
      throw new ConfigError(
        `${where}: "id" must be lowercase letters, digits and dashes, 1-63 characters (got ${JSON.stringify(table.id)})`,
      );
    }
    if (seen.has(table.id)) {
      throw new ConfigError(`${where}: table id "${table.id}" is defined twice`);
    }
    seen.add(table.id);
    if (typeof table.name !== 'string' || table.name.trim() === '') {
      throw new ConfigError(`${where} ("${table.id}"): "name" must be a non-empty string`);
    }
    if (!isGameKind(table.game)) {
      throw new ConfigError(
        `${where} ("${table.id}"): "game" must be one of ${GAME_KINDS.join(', ')} (got ${JSON.stringify(table.game)})`,
      );
    }
    refuseMisspelt(table, `${where} ("${table.id}")`);
    // Orchestration settings (currencies, windows, limits, rescan limits) are checked here, at
    // start-up; a table of several currencies names its default (the first, if not given).
    const run = tableRunSettings(
      table as Parameters<typeof tableRunSettings>[0],
      `${where} ("${table.id}")`,
    );
    table.currency = run.currency;
    const decks = gameDecks(run, `${where} ("${table.id}")`);
    if (table.scanner !== undefined) {
      if (table.game === 'european-blackjack-practice') {
        throw new ConfigError(
          `${where} ("${table.id}"): "scanner" is not allowed: european-blackjack-practice tables deal virtual cards and have no card reader`,
        );
      }
      return {
        ...table,
        scanner: parseScannerSettings(table.scanner, `${where} ("${table.id}")`, decks),
      } as TableDefinition;
    }
    return { ...table } as TableDefinition;
  });
  tables.forEach((table, index) => refuseSharedReader(table, index, readers, source));
  return tables;
}

/**
 * One shoe reader feeds one table. Two tables given one device (a copied entry) were both started:
 * on a serial line the second could not open it and stayed disconnected; over TCP both read every
 * card of the one shoe and dealt it at two tables; a virtual shoe's TCP port failed to open twice.
 */
function refuseSharedReader(
  table: TableDefinition,
  index: number,
  readers: Map<string, string>,
  source: string,
): void {
  const scanner = table.scanner;
  if (!scanner) return;
  const shoe = scanner.virtualShoe;
  const [reader, field] = scanner.path
    ? [/^tcp:\/\//i.test(scanner.path) ? scanner.path.toLowerCase() : scanner.path, 'path']
    : shoe?.tcpPort
      ? [`tcp-port:${shoe.tcpHost ?? '127.0.0.1'}:${shoe.tcpPort}`, 'virtualShoe.tcpPort']
      : [undefined, ''];
  if (reader === undefined) return;
  const other = readers.get(reader);
  if (other !== undefined) {
    throw new ConfigError(
      `${source} table #${index + 1} ("${table.id}"): "scanner.${field}" is also table "${other}"'s: one reader feeds one table`,
    );
  }
  readers.set(reader, table.id);
}

/**
 * The decks of the table's game, as its "rules" set them. The game is made here, at start-up, as
 * the table will make it: rules it cannot play (a shoe of 0 decks) stopped no start-up before, and
 * the table then failed to start every few seconds for as long as the service ran.
 */
function gameDecks(run: TableRunSettings, where: string): number {
  const game = gameDefinition(run.game);
  const problem = ruleOverrideProblem(run.rules, game.ruleDefaults, game.ruleExtras);
  if (problem) throw new ConfigError(`${where}: ${problem}`);
  let decks: unknown;
  try {
    decks = createGameAdapter(run).shoeRules.deckCount;
  } catch (error) {
    throw new ConfigError(`${where}: "rules" cannot be played: ${oneLine(error)}`);
  }
  if (typeof decks !== 'number' || !Number.isInteger(decks) || decks < 1 || decks > 16) {
    const field = 'deckCount' in run.rules ? 'deckCount' : 'decks';
    throw new ConfigError(
      `${where}: "rules.${field}" must be a whole number from 1 to 16 (got ${JSON.stringify(decks)})`,
    );
  }
  return decks;
}

/** The currencies a (validated) table definition accepts, its default first. */
export function tableCurrencyCodes(
  table: Pick<TableDefinition, 'currency' | 'currencies'>,
): string[] {
  const others = Object.keys(table.currencies ?? {}).filter((c) => c !== table.currency);
  return [table.currency, ...others];
}
