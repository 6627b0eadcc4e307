// The dealer's screen at one table: what the system expects next, an unmistakable RESCAN when a
// card was not read, the cards as they are read (face-down cards as backs), the scanner and the
// dealer's controls. Everything comes from the table's live stream.
import { handsElement } from './cards.js';
import {
  api,
  ask,
  el,
  fill,
  flash,
  humanize,
  openStream,
  requireRole,
  showConnection,
} from './console.js';
import { formatLocalTime, formatUtc, secondsLeft } from './format.js';
import { currenciesText, reasonText, tableTitle } from './names.js';

const user = await requireRole(['dealer', 'supervisor'], 'dealer view');
if (user) {
  const tableId = new URLSearchParams(location.search).get('table');
  const tables = await api('/tables');
  if (tableId && tables.some((t) => t.tableId === tableId)) showTable(tableId);
  else pickTable(tables, tableId);
}

/** The table chooser; after a link to a table that does not exist, it says so first. */
function pickTable(tables, unknown) {
  const main = document.getElementById('main');
  main.classList.remove('dealer-view');
  fill(
    main,
    unknown
      ? el('section', { className: 'denied', role: 'alert', id: 'unknown-table' }, [
          el('h2', {}, `There is no table “${unknown}”`),
          el('p', {}, 'No table of that name is configured here. Choose your table below.'),
        ])
      : null,
    el('section', { className: 'panel' }, [
      el('h2', {}, 'Choose your table'),
      el(
        'ul',
        { className: 'table-picker' },
        tables.map((t) =>
          el(
            'li',
            {},
            el(
              'a',
              { className: 'button big', href: `?table=${encodeURIComponent(t.tableId)}` },
              tableTitle(t.name, t.game),
            ),
          ),
        ),
      ),
    ]),
  );
}

function showTable(tableId) {
  const main = document.getElementById('main');
  const closeBetting = el(
    'button',
    { type: 'button', className: 'primary big', id: 'close-betting', disabled: true },
    'Close betting',
  );
  const cutCard = el(
    'button',
    { type: 'button', className: 'big', id: 'cut-card', disabled: true },
    'Cut card out: last round, then new shoe',
  );
  main.classList.add('dealer-view');
  main.replaceChildren(
    el('div', { className: 'table-head' }, [
      el('h2', { id: 'table-name' }, tableId),
      el('span', { id: 'connection', className: 'pill', role: 'status' }, 'connecting…'),
    ]),
    el('section', {
      id: 'rescan',
      className: 'rescan',
      role: 'alert',
      'aria-live': 'assertive',
      hidden: true,
    }),
    el('section', { id: 'paused', className: 'paused-banner', role: 'status', hidden: true }),
    el('section', { className: 'expected panel', 'aria-labelledby': 'expected-title' }, [
      el('h3', { id: 'expected-title' }, 'Next card'),
      el('p', { id: 'expected', className: 'expected-label' }, '—'),
    ]),
    el('dl', { className: 'facts' }, [
      fact('Phase', 'phase'),
      fact('Round', 'round'),
      fact('Countdown', 'countdown'),
      fact('Scanner', 'scanner'),
    ]),
    el('section', { className: 'panel cards-panel', 'aria-labelledby': 'cards-title' }, [
      el('h3', { id: 'cards-title' }, 'Cards this round'),
      el('div', { id: 'cards', className: 'cards' }),
    ]),
    el('section', { className: 'panel controls', 'aria-labelledby': 'controls-title' }, [
      el('h3', { id: 'controls-title' }, 'Dealer controls'),
      el('div', { className: 'buttons' }, [closeBetting, cutCard]),
      el('p', { id: 'controls-why', className: 'hint', 'aria-live': 'polite' }, ''),
    ]),
    el('p', { id: 'flash', className: 'flash', role: 'status', 'aria-live': 'polite' }),
  );

  let view = null;
  let clockOffset = 0;
  /** The stream is down: what the screen shows may be stale, so it asks for no card. */
  let offline = false;
  closeBetting.addEventListener('click', () =>
    act(`/tables/${encodeURIComponent(tableId)}/close-betting`, 'Betting closed'),
  );
  cutCard.addEventListener('click', async () => {
    const ok = await ask({
      title: 'Cut card out',
      text: 'This round becomes the last round of the shoe; a new shoe starts after it.',
      confirmLabel: 'Last round of the shoe',
    });
    if (ok)
      act(`/tables/${encodeURIComponent(tableId)}/cut-card`, 'This is the last round of the shoe');
  });

  async function act(path, done) {
    try {
      await api(path, { method: 'POST', body: {} });
      flash(done, 'ok');
    } catch (error) {
      flash(error.message, 'error');
    }
  }

  // view=dealer: the table-side screen shows backs for face-down cards whoever is signed in.
  openStream(`/console/api/tables/${encodeURIComponent(tableId)}/stream?view=dealer`, {
    onStatus: (text, ok) => {
      showConnection(text, ok);
      const was = offline;
      offline = !ok;
      if (view && offline !== was) render();
    },
    onDenied: async (message, status) => {
      // The table was removed from the configuration while the page was open.
      if (status === 404) pickTable(await api('/tables'), tableId);
      else flash(message, 'error');
    },
    onEvent: (name, data) => {
      if (name !== 'table') return;
      view = data;
      clockOffset = new Date(data.serverTime).getTime() - Date.now();
      render();
    },
  });
  setInterval(() => view && renderCountdown(), 250);

  function render() {
    document.getElementById('table-name').textContent =
      `${tableTitle(view.name, view.game)} · ${currenciesText(view)}`;
    document.title = `Dealer · ${view.name}`;
    renderRescan(view);
    const paused = document.getElementById('paused');
    paused.hidden = !view.paused;
    paused.textContent = view.paused
      ? `PAUSED by ${view.paused.by}: ${reasonText(view.paused.reason)}`
      : '';
    const expected = document.getElementById('expected');
    const readerDown = scannerDown(view);
    const waiting = view.databaseWait;
    // Cut off from the service, the screen may be stale: a card dealt now may not be the one due.
    // Cards read while the database is out are kept and applied in order once it is back; the
    // screen does not move meanwhile, and a card scanned again would count as the next one.
    // A reader that is down would not read the card dealt: it must not be dealt either.
    expected.textContent = offline
      ? 'NOT CONNECTED: do not deal until this screen says live'
      : waiting
        ? `WAITING FOR THE DATABASE: stop dealing · do not scan again the ${cardsText(waiting.readings)} read (kept)`
        : readerDown
          ? `SCANNER ${view.scanner.status.toUpperCase()}: do not deal · call the supervisor`
          : expectedText(view);
    expected.classList.toggle('offline', offline || !!waiting || readerDown);
    if (view.expectedCard) expected.dataset.slot = view.expectedCard.slot;
    else delete expected.dataset.slot;
    setFact('phase', phaseText(view));
    setFact(
      'round',
      view.shoe
        ? `Shoe ${view.shoe.number} · round ${view.round?.number ?? view.shoe.roundNumber}${view.shoe.lastRoundNumber ? ' (last of shoe)' : ''}`
        : '—',
    );
    setScanner(view.scanner, offline);
    document.getElementById('cards-title').textContent = CARDS_TITLE[view.cardsOf] ?? 'Cards';
    document
      .getElementById('cards')
      .replaceChildren(
        ...(view.hands.length
          ? handsElement(view.hands)
          : [
              el(
                'p',
                { className: 'hint' },
                readerDown ? 'No card: the scanner is not reading' : awaited(view),
              ),
            ]),
      );
    renderControls(view, offline);
    renderCountdown();
  }

  function renderCountdown() {
    const now = Date.now() + clockOffset;
    const timer = view.timers?.[0];
    setFact(
      'countdown',
      offline
        ? '— (not connected)'
        : view.paused
          ? 'stopped (paused)'
          : timer
            ? `${humanize(timer.name)}: ${secondsLeft(timer.dueAt, now)} s`
            : '—',
    );
  }
}

/** The dealer's two buttons, and in words why one cannot be used now. */
function renderControls(view, offline) {
  const closeBetting = offline || !view.round?.bettingOpen || !!view.paused;
  const cutCard = offline || !view.shoe || view.shoe.lastRoundNumber !== null || !!view.paused;
  document.getElementById('close-betting').disabled = closeBetting;
  document.getElementById('cut-card').disabled = cutCard;
  const why = [];
  if (offline) why.push('Both wait until the screen is connected again.');
  else if (view.paused) why.push('Both wait while the table is paused.');
  else {
    if (closeBetting) why.push('Close betting: betting is not open now.');
    if (cutCard && view.shoe?.lastRoundNumber != null)
      why.push('Cut card: already out, this shoe ends after this round.');
    else if (cutCard) why.push('Cut card: no shoe is open.');
  }
  document.getElementById('controls-why').textContent =
    why.join(' ') || 'Betting opens by itself when a round starts; close it early here.';
}

/** The RESCAN banner: which attempt failed, and whether the supervisor was called. */
function renderRescan(view) {
  const rescan = document.getElementById('rescan');
  if (!view.rescan) {
    rescan.hidden = true;
    rescan.replaceChildren();
    return;
  }
  rescan.hidden = false;
  fill(
    rescan,
    el('strong', { className: 'rescan-word' }, 'RESCAN'),
    el('span', { className: 'rescan-text' }, 'Card not read: scan the same card again'),
    el(
      'span',
      { className: 'rescan-attempts', id: 'rescan-attempts' },
      `Attempt ${view.rescan.attempts}${view.rescanLimit ? ` of ${view.rescanLimit}` : ''} failed`,
    ),
    view.rescan.escalated ? el('span', { className: 'rescan-text' }, 'Supervisor called') : null,
  );
}

/** "1 card" or "3 cards". */
function cardsText(n) {
  return n === 1 ? '1 card' : `${n} cards`;
}

/**
 * The table's reader is not reading (unplugged, its device server gone, silent): a card dealt now
 * would not be read. Only this instance's own reader says so; a table driven elsewhere has none.
 */
function scannerDown(view) {
  return (
    !!view.scanner &&
    !view.drivenElsewhere &&
    (view.scanner.status === 'disconnected' || view.scanner.status === 'stale')
  );
}

/** The big line: the card the table expects, or why none is expected. */
function expectedText(view) {
  // A card scanned while paused is recorded but not applied: never ask for one then.
  if (view.paused) return 'Wait: the table is paused';
  if (view.expectedCard) return view.expectedCard.label;
  // Pok Deng deals while betting is open: once every card is out, closing reveals.
  if (view.game === 'pok-deng' && view.round?.bettingOpen && view.cards.length > 0)
    return 'Every card is dealt: close betting to reveal the hands';
  return view.round
    ? 'No card now: wait for the round to go on'
    : 'No card now: the next round starts by itself';
}

function phaseText(view) {
  if (view.round) return humanize(view.round.phase);
  if (view.shoe) return humanize(view.shoe.phase);
  return view.driven || view.drivenElsewhere ? 'Waiting' : 'Not running here';
}

/** What an empty card area waits for, in words (never an empty felt box). */
function awaited(view) {
  if (view.paused) return 'No card: the table is paused';
  if (view.expectedCard) return `Waiting for the first card: ${view.expectedCard.label}`;
  if (!view.driven && !view.drivenElsewhere) return 'No card: this table is not running here';
  return view.round ? 'No card yet in this round' : 'No card: waiting for the next round to start';
}

/** The reader, short enough for one line: local clock time, the full UTC time on hover. */
function setScanner(scanner, offline) {
  const dd = document.getElementById('fact-scanner');
  if (offline) {
    dd.textContent = 'unknown: this screen is not connected to the service';
    dd.className = 'bad';
    dd.title = '';
    return;
  }
  if (!scanner) {
    dd.textContent = 'Virtual shoe: no scanner needed';
    dd.className = 'neutral';
    dd.title = '';
    return;
  }
  const ok = scanner.status === 'connected';
  dd.textContent = `${scanner.virtual ? 'virtual shoe ' : ''}${scanner.status}${ok ? '' : `: ${reasonText(scanner.reason)}`} since ${formatLocalTime(scanner.since)}`;
  dd.title = formatUtc(scanner.since);
  dd.className = ok ? 'ok' : 'bad';
}

const CARDS_TITLE = {
  round: 'Cards this round',
  burn: 'Burn of the new shoe',
  'last-round': 'Last round (ended)',
  none: 'Cards',
};

function fact(label, key) {
  return el('div', { className: 'fact' }, [
    el('dt', {}, label),
    el('dd', { id: `fact-${key}` }, '—'),
  ]);
}

function setFact(key, text, tone) {
  const dd = document.getElementById(`fact-${key}`);
  dd.textContent = text;
  dd.className = tone ?? '';
}
