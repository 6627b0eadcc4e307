// Types of players.js (a browser ES module, unit-tested from TypeScript).
export interface ConsolePlayer {
  platformId: string;
  playerId: string;
}
export const BOT_PLATFORM: string;
export const DEFAULT_PLATFORM: string;
export function playerName(player: ConsolePlayer): string;
export function playerText(player: ConsolePlayer): string;
export function playerKey(platformId: string, playerId: string): string;
