// Live hold monitoring for the pit: per table and per game, the players' observed return over the
// last rounds against the expected return with its 99% band, rounds per hour, rescans and scanner
// outages, and an alert when a table leaves its band. Plots by uPlot, served with the consoles.
import uPlot from '/console/uPlot.esm.js';
import { api, el, fill, flash, requireRole } from './console.js';
import { formatAmount, formatLocal, formatUtc } from './format.js';
import { gameName, plural, tableTitle } from './names.js';

const REFRESH_MS = 15_000;
const pct = (share) =>
  share === null || share === undefined ? '—' : `${(share * 100).toFixed(2)}%`;

const user = await requireRole(['supervisor'], 'hold monitoring');
if (user) start();

function start() {
  const rounds = el('select', { id: 'rounds', name: 'rounds' }, [
    ...[100, 200, 500, 1000].map((n) =>
      el('option', { value: n, selected: n === 200 }, `${n} rounds`),
    ),
  ]);
  const main = document.getElementById('main');
  main.replaceChildren(
    el('div', { className: 'table-head' }, [
      el('h2', {}, 'Return to players, rescans and pace'),
      el('label', { for: 'rounds' }, 'Measured over the last'),
      rounds,
      el('span', { id: 'updated', className: 'hint' }, ''),
    ]),
    el('section', { className: 'panel', 'aria-labelledby': 'hold-alerts-title' }, [
      el('h3', { id: 'hold-alerts-title' }, 'Alerts'),
      el('ul', { id: 'hold-alerts', className: 'alerts', 'aria-live': 'assertive' }),
    ]),
    el('section', { className: 'panel', 'aria-labelledby': 'games-title' }, [
      el('h3', { id: 'games-title' }, 'Per game'),
      el('div', { id: 'games' }),
    ]),
    el('section', { 'aria-labelledby': 'hold-tables-title' }, [
      el('h3', { id: 'hold-tables-title' }, 'Per table'),
      el('div', { id: 'hold-tables', className: 'hold-tables' }),
    ]),
    el('p', { id: 'flash', className: 'flash', role: 'status', 'aria-live': 'polite' }),
    el('p', { className: 'hint', id: 'band-explained' }, [
      'The 99% band is where a fair table’s return lies 99 times in 100 after this many rounds, ',
      'around the return its rules give; it narrows as rounds add up. A table is judged once its ',
      'band is no wider than ±25 points (about 54 rounds of Pok Deng, 141 of blackjack); before ',
      'that it reads “too few rounds to judge”. No band goes below 0% or above the most the bets ',
      'can pay.',
    ]),
  );
  rounds.addEventListener('change', () => void load());
  void load();
  setInterval(() => void load(), REFRESH_MS);
  // uPlot draws at a fixed width: a resized window (a rotated screen) gets plots that fit it.
  let last = null;
  let resizes = 0;
  window.addEventListener('resize', () => {
    const resize = ++resizes;
    setTimeout(() => resize === resizes && last && render(last), 200);
  });

  async function load() {
    try {
      const report = await api(`/console/api/hold?rounds=${rounds.value}`);
      last = report;
      render(report);
    } catch (error) {
      flash(`Hold monitoring: ${error.message}`, 'error');
    }
  }
}

function render(report) {
  const updated = document.getElementById('updated');
  updated.textContent = `updated ${formatLocal(report.generatedAt)}`;
  updated.title = formatUtc(report.generatedAt);
  const alerts = report.tables.flatMap((t) =>
    t.alerts.map((a) =>
      el('li', { 'data-table': t.tableId, 'data-alert': a.kind }, [
        el('strong', {}, `${tableTitle(t.name, t.game)}: `),
        a.message,
      ]),
    ),
  );
  fill(
    document.getElementById('hold-alerts'),
    ...(alerts.length
      ? alerts
      : [el('li', { className: 'hint' }, 'Every table is inside its band')]),
  );
  fill(
    document.getElementById('games'),
    el('table', { className: 'log', id: 'games-table' }, [
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          [
            'Game',
            'Currency',
            'Tables',
            'Rounds',
            'Observed',
            'Expected',
            '99% band',
            'Expected from',
          ].map((h) => el('th', { scope: 'col' }, h)),
        ),
      ),
      el(
        'tbody',
        {},
        report.games.map((g) =>
          // One line per game and currency: stakes of two currencies are never measured together.
          el(
            'tr',
            { 'data-game': g.game, 'data-currency': g.currency, 'data-verdict': g.returns.verdict },
            [
              el('td', {}, gameName(g.game)),
              el('td', {}, g.currency),
              el('td', {}, String(g.tables)),
              el('td', {}, String(g.returns.rounds)),
              el('td', {}, pct(g.returns.observed)),
              el('td', {}, pct(g.returns.expected)),
              el('td', {}, bandText(g.returns)),
              el('td', {}, g.source),
            ],
          ),
        ),
      ),
    ]),
  );
  const box = document.getElementById('hold-tables');
  box.replaceChildren(...report.tables.map((t) => tableCard(t, report)));
}

/** The band, or why there is none yet: "too few rounds to judge (12 of about 54)". */
function bandText(b) {
  if (b.low === null) return 'no bets yet';
  if (b.verdict === 'too-few-rounds') {
    return `too few rounds to judge (${b.rounds} of about ${b.roundsNeeded})`;
  }
  return `${pct(b.low)} – ${pct(b.high)}`;
}

const VERDICT = {
  inside: ['ok', 'inside its band'],
  above: ['bad', 'ABOVE its band'],
  below: ['bad', 'BELOW its band'],
  'too-few-rounds': ['', 'too few rounds to judge'],
};

function tableCard(t, report) {
  const [tone, verdict] = VERDICT[t.returns.verdict];
  // The table's other currencies, each measured on its own bets (never added to the default's).
  const others = (t.currencies ?? []).filter((c) => c.currency !== t.currency);
  const returnPlot = el('div', { className: 'plot', id: `plot-return-${t.tableId}` });
  const pacePlot = el('div', { className: 'plot', id: `plot-pace-${t.tableId}` });
  const card = el(
    'article',
    {
      className: `panel hold-table${t.alerts.length ? ' alert' : ''}`,
      'data-table': t.tableId,
      'data-verdict': t.returns.verdict,
    },
    [
      el('h4', {}, tableTitle(t.name, t.game)),
      el('dl', { className: 'facts' }, [
        fact(
          // A table of several currencies: these figures are its default currency's bets alone.
          others.length ? `Observed return · ${t.currency}` : 'Observed return',
          t.returns.rounds ? `${pct(t.returns.observed)} · ${verdict}` : 'no bets yet',
          tone,
          'observed',
        ),
        fact('Expected', t.returns.rounds ? pct(t.returns.expected) : '—'),
        fact('99% band', bandText(t.returns), '', 'band'),
        fact(
          'Measured over',
          t.returns.rounds
            ? `${plural(t.returns.rounds, 'round')} · staked ${formatAmount(t.returns.stake, t.currency)}`
            : 'no round with bets yet',
        ),
        ...others.map((c) =>
          fact(
            `Observed return · ${c.currency}`,
            c.returns.rounds
              ? `${pct(c.returns.observed)} · ${VERDICT[c.returns.verdict][1]} · ${plural(c.returns.rounds, 'round')} · staked ${formatAmount(c.returns.stake, c.currency)}`
              : 'no bets yet',
            VERDICT[c.returns.verdict][0],
            `observed-${c.currency}`,
          ),
        ),
        fact(
          'Rescans',
          !t.scanner
            ? 'Virtual shoe: no scanner needed'
            : t.rescans && t.rescans.readings
              ? `${pct(t.rescans.rate)} of ${plural(t.rescans.readings, 'reading')} (norm ${pct(t.rescans.norm)})`
              : 'no reading yet',
          t.rescans?.verdict === 'above' ? 'bad' : '',
        ),
        fact(
          'Scanner outages',
          t.outages === null
            ? 'Virtual shoe: no scanner to lose'
            : t.outages === 0
              ? `none in ${report.hours} hours`
              : `${plural(t.outages, 'outage')} in ${report.hours} hours`,
          t.outages === null ? 'neutral' : t.outages ? 'bad' : 'ok',
          'outages',
        ),
      ]),
      returnPlot,
      pacePlot,
    ],
  );
  // uPlot measures its container: draw once the card is in the page.
  setTimeout(() => {
    drawReturn(returnPlot, t);
    drawPace(pacePlot, t, report);
  }, 0);
  return card;
}

function fact(label, text, tone, key) {
  return el('div', { className: 'fact' }, [
    el('dt', {}, label),
    el('dd', { className: tone ?? '', ...(key ? { 'data-fact': key } : {}) }, text),
  ]);
}

function width(node) {
  return Math.max(280, Math.floor(node.getBoundingClientRect().width) - 8);
}

function drawReturn(node, t) {
  if (!t.series.length) {
    node.append(
      el('p', { className: 'hint' }, 'The return plot starts with the first round with bets'),
    );
    return;
  }
  const x = t.series.map((_, i) => i + 1);
  // The band is drawn from the round it is narrow enough to judge (null before: a gap).
  const percent = (key) => t.series.map((p) => (p[key] === null ? null : p[key] * 100));
  const top = Math.max(...t.series.flatMap((p) => [p.observed, p.expected, p.high ?? 0])) * 100;
  const axisTop = Math.ceil(top / 25) * 25 + 25;
  const judgedFrom = t.series.findIndex((p) => p.low !== null);
  const last = t.series[t.series.length - 1];
  // A canvas says nothing to a screen reader: the plot's gist in words.
  node.setAttribute('role', 'img');
  node.setAttribute(
    'aria-label',
    `Return to players after each of ${plural(t.series.length, 'round')}: observed ${pct(last.observed)}, ` +
      `expected ${pct(last.expected)}, ` +
      (judgedFrom < 0 ? 'no band yet (too few rounds)' : `99% band from round ${judgedFrom + 1}`) +
      `; axis from 0% to ${axisTop}%`,
  );
  new uPlot(
    {
      title: 'Return to players after each round (%)',
      width: width(node),
      height: 200,
      // A return below 0% cannot happen: the axis starts there.
      scales: { x: { time: false }, y: { range: () => [0, axisTop] } },
      legend: { live: false },
      axes: [
        {
          stroke: '#a9b6c4',
          grid: { stroke: '#2c3a4a' },
          label: 'rounds measured',
          incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
        },
        { stroke: '#a9b6c4', grid: { stroke: '#2c3a4a' } },
      ],
      series: [
        {},
        { label: 'observed', stroke: '#3d8bfd', width: 2 },
        { label: 'expected', stroke: '#2fbf71', dash: [6, 4] },
        { label: '99% low', stroke: '#f0a202' },
        { label: '99% high', stroke: '#f0a202' },
      ],
    },
    [x, percent('observed'), percent('expected'), percent('low'), percent('high')],
    node,
  );
}

function drawPace(node, t, report) {
  const end = Date.parse(report.generatedAt) / 1000;
  if (!t.roundsPerHour.length) {
    node.append(el('p', { className: 'hint' }, 'No round completed in the last 24 hours'));
    return;
  }
  new uPlot(
    {
      title: `Rounds per hour (last ${report.hours} hours)`,
      width: width(node),
      height: 160,
      legend: { live: false },
      scales: { x: { range: () => [end - report.hours * 3600, end] } },
      axes: [
        { stroke: '#a9b6c4', grid: { stroke: '#2c3a4a' } },
        { stroke: '#a9b6c4', grid: { stroke: '#2c3a4a' } },
      ],
      series: [
        {},
        {
          label: 'rounds',
          stroke: '#2fbf71',
          fill: 'rgba(47, 191, 113, 0.25)',
          paths: uPlot.paths.bars({ size: [0.6, 40] }),
          points: { show: false },
        },
      ],
    },
    [t.roundsPerHour.map((h) => Date.parse(h.hour) / 1000), t.roundsPerHour.map((h) => h.rounds)],
    node,
  );
}
