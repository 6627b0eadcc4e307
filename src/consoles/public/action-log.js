// The supervisors' action log: every pause, resume, void, correction and end of shoe, newest
// first, with who approved, and under each applied void the refunds of its round.
import { el, humanize } from './console.js';
import { formatAmount, formatLocal, formatUtc, stakeText } from './format.js';
import { plural, reasonText, slotText } from './names.js';
import { playerLabel } from './player-label.js';
import { sumsByCurrency } from './timeline.js';

/** A time as the screen's local time, with the UTC time on hover. */
function time(iso) {
  return el('time', { dateTime: iso ?? '', title: formatUtc(iso) }, formatLocal(iso));
}

/** Draws the log into `box`. `nameOfTable(tableId)` names a table as the tiles do. */
export function renderActionLog(box, actions, { nameOfTable }) {
  if (!actions.length) {
    box.replaceChildren(el('p', { className: 'hint' }, 'No supervisor action yet'));
    return;
  }
  box.replaceChildren(
    el('table', { className: 'log' }, [
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['Time', 'Table', 'Action', 'Reason', 'By', 'Status'].map((h) =>
            el('th', { scope: 'col' }, h),
          ),
        ),
      ),
      el(
        'tbody',
        {},
        actions.flatMap((a) => {
          const row = el('tr', { 'data-action': a.action, 'data-status': a.status }, [
            el('td', {}, time(a.at)),
            el('td', {}, nameOfTable(a.tableId)),
            el(
              'td',
              {},
              humanize(a.action) + (a.details?.slot ? `: ${slotText(a.details.slot)}` : ''),
            ),
            el('td', {}, a.reason ? reasonText(a.reason) : '—'),
            el('td', {}, a.approvedBy ? `${a.by}, approved by ${a.approvedBy}` : a.by),
            el('td', {}, humanize(a.status)),
          ]);
          return a.refunds ? [row, refundsRow(a.refunds)] : [row];
        }),
      ),
    ]),
  );
}

/**
 * The refunds of a void, each in its own bet's currency (a table takes several) and saying what
 * its stake was made of: a 50.00 THB Pok Deng Player bet reads "bet 50.00 THB + deposit 50.00 THB
 * = stake 100.00 THB · refunded 100.00 THB". Each names its player and platform apart.
 */
function refundsRow(refunds) {
  // What went back, per currency: amounts of two currencies are never one sum.
  const returned = sumsByCurrency(refunds, ['returned'])
    .map((t) => formatAmount(t.returned, t.currency))
    .join(', ');
  if (!refunds.length) {
    return el('tr', { className: 'refunds' }, [
      el('td', { colSpan: 6 }, el('strong', {}, 'No bet in the round: nothing to refund')),
    ]);
  }
  return el('tr', { className: 'refunds' }, [
    el('td', { colSpan: 6 }, [
      el('strong', {}, plural(refunds.length, 'refund')),
      el('span', { className: 'refund-totals' }, ` · returned ${returned}`),
      el('ul', { className: 'refund-list' }, refunds.map(refundLine)),
    ]),
  ]);
}

function refundLine(r) {
  const bet = `${humanize(r.betType)}${r.spot ? ` ${r.spot}` : ''}`;
  return el(
    'li',
    {
      'data-player': r.player.playerId,
      'data-platform': r.player.platformId,
      'data-currency': r.currency,
    },
    [
      playerLabel(r.player),
      ` · ${bet} · ${stakeText(r.stake, r.parts ?? null, r.currency)} · refunded ${formatAmount(r.returned, r.currency)}`,
    ],
  );
}
