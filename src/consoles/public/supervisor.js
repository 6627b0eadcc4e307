// The pit boss's screen: every table at a glance, alerts, the outbox lag, and pause / resume /
// void / card correction / end of shoe with a reason and a confirmation, plus the action log.
import { handsElement } from './cards.js';
import {
  api,
  el,
  fill,
  flash,
  humanize,
  openStream,
  requireRole,
  showConnection,
} from './console.js';
import { renderActionLog } from './action-log.js';
import { supervisorDialogs } from './supervisor-dialogs.js';
import { formatLocal, formatUtc } from './format.js';
import { groupAlerts } from './alerts.js';
import { currenciesText, outcomeText, plural, reasonText, slotText, tableTitle } from './names.js';

/** A time as the screen's local time, with the UTC time on hover. */
function time(iso) {
  return el('time', { dateTime: iso ?? '', title: formatUtc(iso) }, formatLocal(iso));
}

const CARDS_OF = {
  round: 'Cards of the round in progress (face-down ones marked):',
  burn: 'Burn of the new shoe:',
  'last-round': 'Cards of the round that just ended:',
  none: '',
};

const user = await requireRole(['supervisor'], 'supervisor view');
if (user) start(user);

function start(me) {
  const main = document.getElementById('main');
  main.replaceChildren(
    el('div', { className: 'table-head' }, [
      el('h2', {}, 'All tables'),
      el('span', { id: 'connection', className: 'pill', role: 'status' }, 'connecting…'),
      el(
        'span',
        { id: 'outbox', className: 'pill', role: 'status', 'aria-label': 'Outbox lag' },
        'Outbox: …',
      ),
    ]),
    el('section', { className: 'panel', 'aria-labelledby': 'alerts-title' }, [
      el('h3', { id: 'alerts-title' }, 'Alerts'),
      el('ul', { id: 'alerts', className: 'alerts', 'aria-live': 'assertive' }),
    ]),
    el('section', { 'aria-labelledby': 'tables-title' }, [
      el('h3', { id: 'tables-title', className: 'visually-hidden' }, 'Tables'),
      el('div', { id: 'tables', className: 'tiles' }),
    ]),
    el('section', {
      id: 'detail',
      className: 'panel',
      'aria-labelledby': 'detail-title',
      hidden: true,
    }),
    el('p', { id: 'flash', className: 'flash', role: 'status', 'aria-live': 'polite' }),
    el('section', { className: 'panel', 'aria-labelledby': 'log-title' }, [
      el('h3', { id: 'log-title' }, 'Action log'),
      el('div', { id: 'action-log' }, el('p', { className: 'hint' }, 'Loading…')),
    ]),
  );

  const tables = new Map();
  const news = [];
  let selected = new URLSearchParams(location.search).get('table');
  let actions = [];

  openStream('/console/api/tables/stream', {
    onStatus: showConnection,
    onDenied: (message) => flash(message, 'error'),
    onEvent: (name, data) => {
      if (name === 'table') {
        const first = !tables.has(data.tableId);
        tables.set(data.tableId, data);
        // A rescan-limit alert stays listed (it happened) but no longer as if it still needed
        // someone once its table's escalation is over (resumed, or the round voided).
        if (!escalated(data)) {
          for (const n of news) {
            if (n.tableId === data.tableId && n.payload.kind === 'rescan-limit') n.resolved = true;
          }
        }
        if (first && actions.length) renderActions();
        renderTiles();
        renderAlerts();
        if (data.tableId === selected) renderDetail();
      } else if (name === 'outbox') {
        const pill = document.getElementById('outbox');
        // Without Kafka nothing is published: a growing outbox is expected, not a backlog.
        if (data.publishing === 'off') {
          pill.textContent = 'Kafka off (events kept in the outbox)';
          pill.className = 'pill neutral';
          pill.title = `${plural(data.pending, 'event')} kept; they are published once Kafka is configured`;
          return;
        }
        const age =
          data.oldestPendingAgeMs === null
            ? ''
            : `, oldest ${Math.round(data.oldestPendingAgeMs / 1000)} s`;
        pill.textContent = `Outbox: ${data.pending} waiting${age}`;
        pill.title = '';
        pill.className = `pill ${data.oldestPendingAgeMs !== null && data.oldestPendingAgeMs > 30_000 ? 'warn' : 'ok'}`;
      } else if (name === 'news' && data.type === 'SupervisorAlert') {
        news.unshift({
          at: data.occurredAt ?? new Date().toISOString(),
          tableId: data.tableId,
          payload: data.payload,
        });
        news.length = Math.min(news.length, 50);
        renderAlerts();
      } else if (name === 'action') {
        void loadActions();
      }
    },
  });
  void loadActions();

  async function loadActions() {
    try {
      actions = await api('/console/api/actions?limit=50');
      renderActions();
      if (selected) renderDetail();
    } catch (error) {
      flash(`Action log: ${error.message}`, 'error');
    }
  }

  function nameOfTable(tableId) {
    const t = tables.get(tableId);
    return t ? tableTitle(t.name, t.game) : tableId;
  }

  /** What an empty card area is waiting for, in words. */
  function awaited(t) {
    if (t.paused) return 'No card: the table is paused';
    if (t.expectedCard) return `Waiting for the first card: ${t.expectedCard.label}`;
    if (!t.driven && !t.drivenElsewhere)
      return 'No card: the table is not running on this instance';
    return t.round ? 'No card yet in this round' : 'No card: waiting for the next round to start';
  }

  function phaseOf(t) {
    if (!t.driven && !t.drivenElsewhere) return 'Not running here';
    if (t.paused) return 'Paused';
    return humanize(t.round?.phase ?? t.shoe?.phase ?? 'waiting');
  }

  function renderTiles() {
    const box = document.getElementById('tables');
    box.replaceChildren(
      ...[...tables.values()].map((t) => {
        const alert =
          t.paused?.kind === 'escalation' || (t.scanner && t.scanner.status !== 'connected');
        return el(
          'button',
          {
            type: 'button',
            className: `tile${t.tableId === selected ? ' selected' : ''}${alert ? ' alert' : ''}${t.paused ? ' paused' : ''}`,
            'data-table': t.tableId,
            'aria-pressed': t.tableId === selected ? 'true' : 'false',
            onclick: () => {
              selected = t.tableId;
              renderTiles();
              renderDetail();
            },
          },
          [
            el('strong', {}, tableTitle(t.name, t.game)),
            el('span', { className: 'tile-phase' }, phaseOf(t)),
            el('span', {}, t.round ? `Round ${t.round.number} · shoe ${t.shoe?.number}` : '—'),
            scannerBadge(t),
            t.rescan
              ? el(
                  'span',
                  { className: 'badge bad' },
                  `Rescan ×${t.rescan.attempts}${t.rescan.escalated ? ' (escalated)' : ''}`,
                )
              : null,
          ],
        );
      }),
    );
  }

  function scannerBadge(t) {
    // The practice table deals from a virtual shoe by design: nothing to connect, nothing wrong.
    if (!t.scanner)
      return el('span', { className: 'badge neutral' }, 'Virtual shoe · no scanner needed');
    const ok = t.scanner.status === 'connected';
    const what = t.scanner.virtual ? 'Virtual shoe' : 'Scanner';
    return el(
      'span',
      { className: `badge ${ok ? 'ok' : 'bad'}`, title: `since ${formatUtc(t.scanner.since)}` },
      `${what} ${t.scanner.status}`,
    );
  }

  function escalated(t) {
    return t.paused?.kind === 'escalation' || !!t.rescan?.escalated;
  }

  /**
   * Current conditions first, then what happened, newest first. Identical alerts are one line with
   * a count and the time of the latest; every line has a time.
   */
  function renderAlerts() {
    const raised = [];
    const add = (tableId, kind, text, at, resolved = false) =>
      raised.push({ tableId, kind, text, at, resolved });
    const nameOf = (tableId) => {
      const t = tables.get(tableId);
      return t ? tableTitle(t.name, t.game) : tableId;
    };
    for (const t of tables.values()) {
      if (t.paused?.kind === 'escalation')
        add(
          t.tableId,
          'escalation',
          `${nameOf(t.tableId)}: ${reasonText(t.paused.reason)}; the round is paused`,
          t.paused.at,
        );
      else if (t.rescan?.escalated)
        add(
          t.tableId,
          'escalation',
          `${nameOf(t.tableId)}: rescans escalated after ${plural(t.rescan.attempts, 'attempt')}`,
          t.serverTime,
        );
      if (t.scanner && t.scanner.status !== 'connected')
        add(
          t.tableId,
          'scanner',
          `${nameOf(t.tableId)}: scanner ${t.scanner.status} (${reasonText(t.scanner.reason)})`,
          t.scanner.since,
        );
    }
    for (const n of news) {
      const p = n.payload;
      const what =
        p.kind === 'rescan-limit'
          ? `${slotText(p.slot)} not recognised after ${plural(p.failedAttempts, 'attempt')}`
          : reasonText(p.message ?? outcomeText(p.kind));
      add(
        n.tableId,
        p.kind,
        `${nameOf(n.tableId)}: ${what}${n.resolved ? ' · resolved' : ''}`,
        n.at,
        !!n.resolved,
      );
    }
    const items = groupAlerts(raised).map((g) =>
      el(
        'li',
        {
          'data-table': g.tableId,
          'data-alert': g.kind,
          'data-resolved': g.resolved,
          'data-count': g.count,
          className: g.resolved ? 'resolved' : '',
        },
        [
          time(g.at),
          ' · ',
          g.text,
          g.count > 1
            ? el(
                'span',
                { className: 'count', title: `${g.count} identical alerts` },
                ` ×${g.count}`,
              )
            : null,
        ],
      ),
    );
    document
      .getElementById('alerts')
      .replaceChildren(...(items.length ? items : [el('li', { className: 'hint' }, 'No alerts')]));
  }

  function renderDetail() {
    const t = tables.get(selected);
    const box = document.getElementById('detail');
    if (!t) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const path = `/tables/${encodeURIComponent(t.tableId)}`;
    // Burn cards (a new shoe's, or Pok Deng's one per round) go to no hand: nothing to correct.
    // Only the round in play can be corrected: the face-down cards of one that ended (voided,
    // never revealed) are still shown, but the service refuses to change them.
    const hiddenSlots =
      t.round && t.cardsOf === 'round'
        ? t.cards.filter(
            (c) => c.hidden && c.card && c.slot !== 'burn' && !c.slot.startsWith('shoe-burn'),
          )
        : [];
    // A request lapses when its round ends; until the log is reloaded, hide it with its round.
    const pending = actions.filter(
      (a) =>
        a.tableId === t.tableId &&
        a.status === 'pending-approval' &&
        !!t.round &&
        a.roundId === t.round.id,
    );
    const button = (id, label, className, disabled, handler) => {
      const b = el(
        'button',
        { type: 'button', id, className: `big ${className}`, disabled },
        label,
      );
      b.addEventListener('click', handler);
      return b;
    };
    fill(
      box,
      el('h3', { id: 'detail-title' }, `${tableTitle(t.name, t.game)} · ${currenciesText(t)}`),
      el('p', { id: 'detail-state' }, [
        `${phaseOf(t)}`,
        t.round ? ` · round ${t.round.number}` : '',
        t.paused ? ` · paused by ${t.paused.by}: ${reasonText(t.paused.reason)}` : '',
        t.expectedCard ? ` · expects ${t.expectedCard.label}` : '',
      ]),
      el('p', { className: 'hint', id: 'detail-cards-of' }, CARDS_OF[t.cardsOf] ?? ''),
      el(
        'div',
        { className: 'cards', id: 'detail-cards' },
        t.hands.length === 0
          ? [el('p', { className: 'hint' }, awaited(t))]
          : handsElement(t.hands, { privileged: true }),
      ),
      el('div', { className: 'buttons' }, [
        button('pause', 'Pause', 'warn', !t.round || !!t.paused, () => pause(t, path)),
        button('resume', 'Resume', 'primary', !t.paused, () =>
          run(`${path}/resume`, {}, 'Resumed'),
        ),
        button('void', 'Void round…', 'danger', !t.round, () => voidRound(t, path)),
        button('correct', 'Correct a card…', '', hiddenSlots.length === 0, () =>
          correct(t, path, hiddenSlots),
        ),
        button('end-shoe', 'End shoe…', '', !t.shoe || !!t.round, () => endShoe(t, path)),
      ]),
      pending.length
        ? el('div', { className: 'pending' }, [
            el('h4', {}, 'Void requests waiting for a second supervisor'),
            ...pending.map((a) =>
              el('p', {}, [
                `#${a.id} by ${a.by} at `,
                time(a.at),
                `: ${a.reason} `,
                a.by === me.username
                  ? el('em', {}, '(another supervisor must approve)')
                  : button(`approve-${a.id}`, 'Approve void', 'danger', false, () => approve(t, a)),
              ]),
            ),
          ])
        : null,
    );
  }

  const { pause, voidRound, approve, correct, endShoe } = supervisorDialogs(run);

  async function run(path, body, done) {
    try {
      const result = await api(path, { method: 'POST', body });
      if (done) flash(done, 'ok');
      void loadActions();
      return result;
    } catch (error) {
      flash(`${error.message} (${error.code})`, 'error');
      return undefined;
    }
  }

  function renderActions() {
    renderActionLog(document.getElementById('action-log'), actions, { nameOfTable });
  }
}
