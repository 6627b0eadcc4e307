// The auditor timeline's summarised runs in words. Money is per currency: a run of bets in EUR
// and THB reads "100.00 EUR (deducted 100.00 EUR); 3,000.00 THB (deducted 3,000.00 THB)", never
// one sum. Pure (unit-tested).
import { humanize } from './console.js';
import { formatAmount } from './format.js';
import { outcomeText, plural } from './names.js';

const money = (sum, field) => formatAmount(sum[field], sum.currency);

/**
 * A run's title: "120 bets, 1,200.00 EUR (deducted 1,200.00 EUR):", "80 decisions in window 2:",
 * "30 settlements, staked …, returned …, net …:", "30 events BetPlaced:".
 * @param {{group: string, key: string, entries: unknown[], totals?: Array<Record<string, any>>}} group
 * @returns {string}
 */
export function groupTitle({ group, key, entries, totals = [] }) {
  if (group === 'bet') {
    const sums = totals.map((t) => `${money(t, 'amount')} (deducted ${money(t, 'deducted')})`);
    return `${plural(entries.length, 'bet')}, ${sums.join('; ')}:`;
  }
  if (group === 'event') return `${plural(entries.length, 'event')} ${key}:`;
  if (group === 'decision') {
    const [window, hand] = key.split('|');
    const where = window ? `window ${window}` : hand ? `hand ${hand}` : '';
    return `${plural(entries.length, 'decision')}${where ? ` in ${where}` : ''}:`;
  }
  const sums = totals.map(
    (t) => `staked ${money(t, 'stake')}, returned ${money(t, 'returned')}, net ${money(t, 'net')}`,
  );
  return `${plural(entries.length, 'settlement')}, ${sums.join('; ')}:`;
}

/**
 * One part of a run's summary: "Main ×120 (1,200.00 EUR)", "hit ×40 (2 automatic)",
 * "Main: win ×100 (net 1,000.00 EUR)", "#10 to #39"; a part of several currencies names each.
 * @param {string} group
 * @param {Record<string, any>} part
 * @returns {string}
 */
export function partText(group, part) {
  if (group === 'event') return `#${part.first} to #${part.last}`;
  if (group === 'decision') {
    return `${part.action} ×${part.count}${part.automatic ? ` (${part.automatic} automatic)` : ''}`;
  }
  const totals = part.totals ?? [];
  if (group === 'bet') {
    return `${humanize(part.betType)} ×${part.count} (${totals.map((t) => money(t, 'amount')).join(', ')})`;
  }
  const nets = totals.map((t) => money(t, 'net')).join(', ');
  return `${humanize(part.betType)}: ${outcomeText(part.outcome)} ×${part.count} (net ${nets})`;
}
