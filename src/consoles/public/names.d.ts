// Types of names.js (a browser ES module, unit-tested from TypeScript).
export const GAME_NAMES: Readonly<Record<string, string>>;
export function gameName(game: string): string;
export function tableTitle(name: string, game: string): string;
export function plural(count: number, one: string, many?: string): string;
export function fixArticles(text: string): string;
export function reasonText(text: string): string;
export function outcomeText(code: string): string;
export function totalText(total: string, game: string): string;
export function slotText(slot: string): string;
export function decisionsText(actions: string[]): string;
export function handName(
  record: { hand: string; owner: string | null; player?: { platformId: string; playerId: string } },
  split?: boolean,
): string;
export function currenciesText(table: { currency: string; currencies?: string[] }): string;
