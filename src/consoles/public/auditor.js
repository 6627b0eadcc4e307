// The auditor's screen: round search, a round's timeline with its cards drawn as cards, the replay
// verdict and the exports. Read-only, over the /audit API.
import { cardElement } from './cards.js';
import { api, download, el, fill, flash, humanize, requireRole } from './console.js';
import { formatAmount, formatLocal, formatUtc } from './format.js';
import { gameName, outcomeText, plural, reasonText, tableTitle, totalText } from './names.js';
import { inOrder } from './timeline.js';

/** A time as the screen's local time, with the UTC time on hover. */
function time(iso) {
  return el('time', { dateTime: iso ?? '', title: formatUtc(iso) }, formatLocal(iso));
}

const STATUSES = ['', 'completed', 'voided', 'paused', 'in-progress'];

const user = await requireRole(['auditor'], 'auditor view');
if (user) await start();

async function start() {
  const tables = await api('/tables');
  const currency = new Map(tables.map((t) => [t.tableId, t.currency]));
  // The results name tables as the filter does.
  const names = new Map(tables.map((t) => [t.tableId, tableTitle(t.name, t.game)]));
  const main = document.getElementById('main');
  const form = el('form', { id: 'search-form', className: 'panel search', noValidate: true }, [
    el('h2', {}, 'Find rounds'),
    field(
      'Table',
      el('select', { id: 'f-table', name: 'tableId' }, [
        el('option', { value: '' }, 'Any table'),
        ...tables.map((t) => el('option', { value: t.tableId }, names.get(t.tableId))),
      ]),
    ),
    field(
      'Status',
      el(
        'select',
        { id: 'f-status', name: 'status' },
        STATUSES.map((s) => el('option', { value: s }, s ? humanize(s) : 'Any status')),
      ),
    ),
    field(
      'From (UTC)',
      el('input', { id: 'f-from', name: 'from', type: 'datetime-local', step: 1 }),
    ),
    field('To (UTC)', el('input', { id: 'f-to', name: 'to', type: 'datetime-local', step: 1 })),
    field('Player', el('input', { id: 'f-player', name: 'playerId', autocomplete: 'off' })),
    el('div', { className: 'buttons' }, [
      el('button', { type: 'submit', className: 'primary big', id: 'search' }, 'Search'),
      el('button', { type: 'button', className: 'big', id: 'export-csv' }, 'Export CSV'),
      el('button', { type: 'button', className: 'big', id: 'export-ndjson' }, 'Export NDJSON'),
    ]),
  ]);
  main.replaceChildren(
    form,
    el('p', { id: 'flash', className: 'flash', role: 'status', 'aria-live': 'polite' }),
    el('section', { className: 'panel', 'aria-labelledby': 'results-title' }, [
      el('h2', { id: 'results-title' }, 'Rounds'),
      el('div', { id: 'results' }, el('p', { className: 'hint' }, 'Search to list rounds')),
    ]),
    el('section', {
      id: 'round',
      className: 'panel',
      hidden: true,
      'aria-labelledby': 'round-title',
    }),
  );

  /** Form fields as /audit query parameters; datetime-local values are read as UTC. */
  function filters() {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (!value) continue;
      params.set(
        name,
        name === 'from' || name === 'to' ? new Date(`${value}Z`).toISOString() : String(value),
      );
    }
    return params;
  }

  let pages = [];
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    pages = [];
    await search(null);
  });

  async function search(cursor) {
    const params = filters();
    params.set('limit', '25');
    if (cursor) params.set('cursor', cursor);
    try {
      const page = await api(`/audit/rounds?${params}`);
      pages.push(page);
      renderResults(page);
      flash(
        `${plural(page.items.length, 'round')}${page.nextCursor ? ', more on the next page' : ''}`,
        'ok',
      );
    } catch (error) {
      flash(error.message, 'error');
    }
  }

  function renderResults(page) {
    const box = document.getElementById('results');
    if (!page.items.length) {
      box.replaceChildren(el('p', { className: 'hint' }, 'No round matches'));
      return;
    }
    fill(
      box,
      el('table', { className: 'log', id: 'round-results' }, [
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ['Started', 'Table', 'Shoe · round', 'Status', ''].map((h) =>
              el('th', { scope: 'col' }, h),
            ),
          ),
        ),
        el(
          'tbody',
          {},
          page.items.map((r) => {
            const open = el(
              'button',
              { type: 'button', className: 'primary', 'data-round': r.id },
              'Open timeline',
            );
            open.addEventListener('click', () => openRound(r.id));
            return el('tr', { 'data-round': r.id, 'data-status': r.status }, [
              el('td', {}, time(r.startedAt)),
              el('td', {}, names.get(r.tableId) ?? r.tableId),
              el('td', {}, `${r.shoeNumber} · ${r.roundNumber}`),
              el(
                'td',
                {},
                humanize(r.status) + (r.voidReason ? `: ${reasonText(r.voidReason)}` : ''),
              ),
              el('td', {}, open),
            ]);
          }),
        ),
      ]),
      page.nextCursor
        ? (() => {
            const next = el(
              'button',
              { type: 'button', className: 'big', id: 'next-page' },
              'Next page',
            );
            next.addEventListener('click', () => search(page.nextCursor));
            return next;
          })()
        : null,
    );
  }

  for (const format of ['csv', 'ndjson']) {
    document.getElementById(`export-${format}`).addEventListener('click', async () => {
      const params = filters();
      if (!params.has('from') || !params.has('to')) {
        flash('An export needs a time range: fill in From and To.', 'error');
        return;
      }
      params.set('format', format);
      try {
        await download(`/audit/export?${params}`, `rounds.${format}`);
        flash(`Export (${format.toUpperCase()}) downloaded`, 'ok');
      } catch (error) {
        flash(error.message, 'error');
      }
    });
  }

  async function openRound(roundId) {
    const box = document.getElementById('round');
    box.hidden = false;
    box.replaceChildren(el('p', { className: 'hint' }, 'Loading the round…'));
    try {
      const [data, replay] = await Promise.all([
        api(`/audit/rounds/${roundId}/timeline`),
        api(`/audit/rounds/${roundId}/replay`),
      ]);
      renderRound(
        box,
        data,
        replay,
        currency.get(data.round.tableId) ?? 'XXX',
        names.get(data.round.tableId) ?? data.round.tableId,
      );
      // The timeline opens below the list: take the reader (and the keyboard focus) to it.
      const title = document.getElementById('round-title');
      title.tabIndex = -1;
      title.focus({ preventScroll: true });
      box.scrollIntoView({ block: 'start' });
    } catch (error) {
      box.replaceChildren(el('p', { className: 'flash error' }, error.message));
    }
  }
}

function field(label, input) {
  return el('div', { className: 'field' }, [el('label', { for: input.id }, label), input]);
}

function renderRound(box, data, replay, currency, tableName) {
  const r = data.round;
  const cards = data.timeline.filter((e) => e.kind === 'card');
  const timeline = inOrder(data.timeline);
  const money = (v) => formatAmount(v, currency);
  fill(
    box,
    el(
      'h2',
      { id: 'round-title' },
      `Round ${r.roundNumber} of shoe ${r.shoeNumber} · ${tableName}`,
    ),
    el('dl', { className: 'facts' }, [
      fact(
        'Status',
        humanize(r.status) + (r.voidReason ? `: ${reasonText(r.voidReason)}` : ''),
        'round-status',
      ),
      fact('Game', gameName(r.game)),
      fact('Started', time(r.startedAt)),
      fact('Ended', r.endedAt ? time(r.endedAt) : 'not ended'),
      fact(
        'Replay',
        replayText(replay),
        'replay',
        replay.verdict === 'match' ? 'ok' : replay.verdict === 'skipped' ? '' : 'bad',
      ),
      fact('Round id', r.id),
    ]),
    el('h3', {}, 'Cards'),
    el(
      'div',
      { className: 'cards', id: 'round-cards' },
      cards.length
        ? cards.map((c) =>
            el('figure', { className: `slotted${c.correctedByCardRowId ? ' corrected' : ''}` }, [
              cardElement(c.card, { slot: c.slot }),
              el(
                'figcaption',
                {},
                `${c.slot}${c.faceDown ? (c.revealedAt ? ' · revealed' : ' · never revealed') : ''}${c.correctedByCardRowId ? ' · corrected' : ''}${c.correctionReason ? ` · correction: ${c.correctionReason}` : ''}`,
              ),
            ]),
          )
        : [el('p', { className: 'hint' }, 'No card was dealt in this round')],
    ),
    data.hands.length
      ? el('div', {}, [
          el('h3', {}, 'Hands'),
          el(
            'ul',
            {},
            data.hands.map((h) =>
              el('li', {}, [
                `${h.hand}${h.owner ? ` (${h.owner})` : ''}: `,
                ...(h.cards.length
                  ? h.cards.map((c) => cardElement(c, { slot: h.hand }))
                  : ['no card']),
                h.total ? ` ${totalText(h.total, r.game)}` : '',
                h.result ? ` · ${outcomeText(h.result)}` : '',
              ]),
            ),
          ),
        ])
      : null,
    el('h3', {}, 'Timeline'),
    el(
      'ol',
      { className: 'timeline', id: 'timeline' },
      timeline.map((e) =>
        el('li', { 'data-kind': e.kind, ...(e.type ? { 'data-type': e.type } : {}) }, [
          time(e.at),
          ' ',
          el('strong', {}, humanize(e.kind)),
          ' ',
          describe(e, money),
        ]),
      ),
    ),
  );
}

function replayText(v) {
  if (v.verdict === 'match') return `match (${plural(v.settlements, 'settlement')} recomputed)`;
  if (v.verdict === 'skipped') return `skipped: ${v.reason}`;
  if (v.verdict === 'mismatch')
    return `MISMATCH: ${v.mismatches.map((m) => `${m.field}: stored ${m.stored}, replay gives ${m.replayed}`).join('; ')}`;
  return `replay failed at ${v.step}: ${v.code} ${v.message}`;
}

function describe(e, money) {
  switch (e.kind) {
    case 'reading':
      return `${e.readingKind} ${e.decoded?.code ?? ''} → ${e.outcome}${e.rescan ? ' (rescan)' : ''} · bytes ${e.rawHex}`;
    case 'card':
      return el('span', {}, [
        cardElement(e.card, { slot: e.slot }),
        ` ${e.slot}${e.faceDown ? ' (face down)' : ''}`,
      ]);
    case 'bet':
      return `${e.playerId} · ${humanize(e.betType)}${e.spot ? ` ${e.spot}` : ''} · ${money(e.amount)} (deducted ${money(e.deducted)}) · ${e.status}`;
    case 'decision':
      return `${e.playerId}${e.hand ? ` hand ${e.hand}` : ''}: ${e.action}${e.automatic ? ' (automatic)' : ''}`;
    case 'settlement':
      return `${e.playerId} · ${humanize(e.betType)}${e.spot ? ` ${e.spot}` : ''} · stake ${money(e.stake)} · returned ${money(e.returned)} · net ${money(e.net)} · ${outcomeText(e.outcome)}`;
    case 'supervisor-action':
      return `${humanize(e.action)} by ${e.actor}${e.reason ? `: ${reasonText(e.reason)}` : ''} (${humanize(e.status).toLowerCase()})`;
    case 'event':
      return `#${[e.eventNo, ...(e.sameAs ?? [])].join(', #')} ${e.type}${e.visibility === 'public' ? '' : ` (${e.visibility})`}`;
    default:
      return '';
  }
}

function fact(label, text, id, tone) {
  return el('div', { className: 'fact' }, [
    el('dt', {}, label),
    el('dd', { ...(id ? { id: `fact-${id}` } : {}), className: tone ?? '' }, text),
  ]);
}
