// Types of format.js (a browser ES module, unit-tested from TypeScript).
export function formatAmount(minorUnits: number, currency: string): string;
export function formatMinor(minorUnits: number): string;
export function formatUtc(iso: string | null | undefined): string;
export function secondsLeft(dueAt: string, serverNow: number): number;
export function formatLocal(iso: string | null | undefined, timeZone?: string): string;
export function formatLocalTime(iso: string | null | undefined, timeZone?: string): string;
export function stakeText(
  stake: number,
  parts: { bet: number; deposit: number; added: number } | null,
  currency: string,
): string;
