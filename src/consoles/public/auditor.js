// The auditor's screen: round search, a round's timeline with its cards drawn as cards, the replay
// verdict and the exports. Read-only, over the /audit API.
import { api, download, el, fill, flash, humanize, requireRole } from './console.js';
import { formatLocal, formatUtc } from './format.js';
import { plural, reasonText, tableTitle } from './names.js';
import { DEFAULT_PLATFORM, playerKey } from './players.js';
import { renderRound } from './round-view.js';

/**
 * A time in UTC, labelled, as the From / To (UTC) filters and the exports read it (a time copied
 * from the list into a filter finds its round); the screen's local time on hover.
 */
function time(iso) {
  return el('time', { dateTime: iso ?? '', title: `${formatLocal(iso)} local` }, formatUtc(iso));
}

const STATUSES = ['', 'completed', 'voided', 'paused', 'in-progress'];
/** Rounds still being played: marked in the list (their timeline is not complete yet). */
const UNFINISHED = new Set(['in-progress', 'paused']);

const user = await requireRole(['auditor'], 'auditor view');
if (user) await start();

async function start() {
  const tables = await api('/tables');
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
        // The list opens on completed rounds: those are the ones with a whole story to read.
        STATUSES.map((s) =>
          el('option', { value: s, selected: s === 'completed' }, s ? humanize(s) : 'Any status'),
        ),
      ),
    ),
    field(
      'From (UTC)',
      el('input', { id: 'f-from', name: 'from', type: 'datetime-local', step: 1 }),
    ),
    field('To (UTC)', el('input', { id: 'f-to', name: 'to', type: 'datetime-local', step: 1 })),
    // A player is (platform, playerId): the same playerId at two platforms is two players.
    field(
      'Platform',
      el('input', {
        id: 'f-platform',
        name: 'platformId',
        autocomplete: 'off',
        placeholder: DEFAULT_PLATFORM,
      }),
    ),
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

  /**
   * Form fields as /audit query parameters; datetime-local values are read as UTC, and the
   * platform and player become the player's key (the platform alone filters nothing).
   */
  function filters() {
    const params = new URLSearchParams();
    const data = new FormData(form);
    const platformId = String(data.get('platformId') ?? '').trim() || DEFAULT_PLATFORM;
    data.delete('platformId');
    for (const [name, value] of data) {
      if (!value) continue;
      if (name === 'playerId') {
        params.set(name, playerKey(platformId, String(value)));
        continue;
      }
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
    // The search finds rounds a player bet in: a platform alone would silently filter nothing.
    if (form.elements.platformId.value.trim() && !form.elements.playerId.value) {
      flash('Name the player too: the search finds one player of that platform.', 'error');
      return;
    }
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
            const unfinished = UNFINISHED.has(r.status);
            return el(
              'tr',
              {
                'data-round': r.id,
                'data-status': r.status,
                className: unfinished ? 'unfinished' : '',
              },
              [
                el('td', {}, time(r.startedAt)),
                el('td', {}, names.get(r.tableId) ?? r.tableId),
                el('td', {}, `${r.shoeNumber} · ${r.roundNumber}`),
                el('td', {}, [
                  unfinished
                    ? el(
                        'span',
                        { className: 'badge warn', title: 'The round is still being played' },
                        `● ${r.status === 'paused' ? 'Paused' : 'In progress'}: not finished yet`,
                      )
                    : humanize(r.status) + (r.voidReason ? `: ${reasonText(r.voidReason)}` : ''),
                ]),
                el('td', {}, open),
              ],
            );
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

  void search(null);

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
      renderRound(box, data, replay, names.get(data.round.tableId) ?? data.round.tableId);
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
