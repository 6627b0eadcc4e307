// One round for the auditor: its facts and replay verdict, its cards drawn as cards, its hands
// named as the game names them, and its timeline, long runs of bets, decisions and settlements
// summarised so that a round reads on a screen or two.
import { cardElement } from './cards.js';
import { el, fill, humanize } from './console.js';
import { formatAmount, formatLocal, formatLocalTime, formatUtc } from './format.js';
import { handName, outcomeText, plural, reasonText, slotText, totalText } from './names.js';
import { platformLabel, playerLabel } from './player-label.js';
import { groupTimeline, inOrder, withCardLines } from './timeline.js';
import { groupTitle, partText } from './timeline-words.js';

/** Rounds still being played: their face-down cards are not revealed yet, replay waits. */
const UNFINISHED = new Set(['in-progress', 'paused']);

/** A time as the screen's local time, with the UTC time on hover. */
function time(iso) {
  return el('time', { dateTime: iso ?? '', title: formatUtc(iso) }, formatLocal(iso));
}

/** A timeline line's time: the clock time (the round's date is in its facts), UTC on hover. */
function clock(iso) {
  return el('time', { dateTime: iso ?? '', title: formatUtc(iso) }, formatLocalTime(iso));
}

/** Draws a round. Each bet and settlement is shown in its own currency (a table takes several). */
export function renderRound(box, data, replay, tableName) {
  const r = data.round;
  const unfinished = UNFINISHED.has(r.status);
  const cards = data.timeline.filter((e) => e.kind === 'card');
  fill(
    box,
    // The table's title names its game (tableTitle): no fact of its own.
    el(
      'h2',
      { id: 'round-title' },
      `Round ${r.roundNumber} of shoe ${r.shoeNumber} · ${tableName}`,
    ),
    unfinished
      ? el(
          'p',
          { className: 'flash warn', id: 'round-unfinished' },
          'This round is still being played: its face-down cards, hands and settlements come once it ends.',
        )
      : null,
    el('dl', { className: 'facts round-facts' }, [
      fact(
        'Status',
        humanize(r.status) + (r.voidReason ? `: ${reasonText(r.voidReason)}` : ''),
        'round-status',
      ),
      fact('Played', [time(r.startedAt), ' to ', r.endedAt ? clock(r.endedAt) : 'not ended']),
      fact(
        'Replay',
        replayText(replay, unfinished),
        'replay',
        replay.verdict === 'match' ? 'ok' : replay.verdict === 'skipped' ? '' : 'bad',
      ),
    ]),
    el('p', { className: 'hint', id: 'round-id' }, `Round id ${r.id}`),
    el('h3', {}, 'Cards'),
    el(
      'div',
      { className: 'cards', id: 'round-cards' },
      cards.length
        ? cards.map((c) =>
            el('figure', { className: `slotted${c.correctedByCardRowId ? ' corrected' : ''}` }, [
              cardElement(c.card, { slot: c.slot }),
              el('figcaption', {}, cardCaption(c, unfinished)),
            ]),
          )
        : [el('p', { className: 'hint' }, 'No card was dealt in this round')],
    ),
    data.hands.length ? handsList(data.hands, r.game) : null,
    el('h3', {}, 'Timeline'),
    el(
      'ol',
      { className: 'timeline', id: 'timeline' },
      withCardLines(groupTimeline(inOrder(data.timeline))).map((item) =>
        'entry' in item ? entryLine(item.entry, item) : groupLine(item),
      ),
    ),
  );
}

function cardCaption(c, unfinished) {
  const faceDown = c.faceDown
    ? c.revealedAt
      ? ' · revealed'
      : unfinished
        ? ' · face down, not revealed yet'
        : ' · never revealed'
    : '';
  return `${slotText(c.slot)}${faceDown}${c.correctedByCardRowId ? ' · corrected' : ''}${c.correctionReason ? ` · correction: ${c.correctionReason}` : ''}`;
}

/** The hands of the finished round, named as the game names them. */
function handsList(hands, game) {
  // A seat (or a group of Infinite Blackjack players) with more than one hand split.
  const owners = new Map();
  for (const h of hands) {
    const holder = h.hand.replace(/\/\d+$/, '');
    owners.set(holder, (owners.get(holder) ?? 0) + 1);
  }
  return el('div', {}, [
    el('h3', {}, 'Hands'),
    el(
      'ul',
      { className: 'round-hands', id: 'round-hands' },
      hands.map((h) => {
        // A seat's player is named in the hand's name; its platform follows as a label.
        const platform = h.player ? platformLabel(h.player) : null;
        return el('li', { 'data-hand': h.hand }, [
          el('span', { className: 'hand-name' }, [
            handName(h, owners.get(h.hand.replace(/\/\d+$/, '')) > 1),
            platform ? ' ' : null,
            platform,
            ': ',
          ]),
          ...(h.cards.length ? h.cards.map((c) => cardElement(c)) : ['no card']),
          h.total ? ` ${totalText(h.total, game)}` : '',
          h.result ? ` · ${outcomeText(h.result)}` : '',
        ]);
      }),
    ),
  ]);
}

/** One line; a card's line also names the reading it came from and the events recording it. */
function entryLine(e, { reading = null, events = [] } = {}) {
  return el('li', { 'data-kind': e.kind, ...(e.type ? { 'data-type': e.type } : {}) }, [
    clock(e.at),
    ' ',
    el('strong', {}, humanize(e.kind)),
    ' ',
    describe(e),
    reading
      ? el(
          'span',
          { className: 'joined' },
          ` · read from bytes ${reading.rawHex}${reading.outcome === 'applied' ? '' : ` (${reading.outcome})`}`,
        )
      : null,
    // The card's own events by number, their types on hover (the line stays one line).
    events.length
      ? el(
          'span',
          {
            className: 'joined',
            'data-events': events.length,
            title: events.map((ev) => describe(ev)).join(', '),
          },
          ` · events ${events.flatMap((ev) => [ev.eventNo, ...(ev.sameAs ?? [])].map((n) => `#${n}`)).join(', ')}`,
        )
      : null,
  ]);
}

/**
 * Many bets, decisions of one window, or settlements as one line: the count, the totals, and a
 * part per bet type, action or outcome; the single entries open on demand.
 */
function groupLine(group) {
  const { entries, parts } = group;
  const summary = el('summary', {}, [
    clock(entries[0].at),
    ' ',
    el('strong', {}, groupTitle(group)),
    ' ',
    parts.map((p) => partText(group.group, p)).join(' · '),
  ]);
  const details = el('details', {}, [summary]);
  // Drawn when opened: a round of a thousand players holds thousands of lines.
  details.addEventListener('toggle', () => {
    if (details.open && details.children.length === 1) {
      details.append(
        el(
          'ol',
          { className: 'timeline' },
          entries.map((e) => entryLine(e)),
        ),
      );
    }
  });
  return el(
    'li',
    {
      className: 'grouped',
      'data-kind': group.group,
      'data-group': group.key,
      'data-count': entries.length,
    },
    details,
  );
}

function replayText(v, unfinished) {
  if (v.verdict === 'match') return `match (${plural(v.settlements, 'settlement')} recomputed)`;
  if (v.verdict === 'skipped' && unfinished)
    return 'not yet: a round is replayed once it has ended';
  if (v.verdict === 'skipped') return `skipped: ${v.reason}`;
  if (v.verdict === 'mismatch')
    return `MISMATCH: ${v.mismatches.map((m) => `${m.field}: stored ${m.stored}, replay gives ${m.replayed}`).join('; ')}`;
  return `replay failed at ${v.step}: ${v.code} ${v.message}`;
}

/** An entry in words; a bet, decision or settlement names its player and platform apart. */
function describe(e) {
  const money = (v) => formatAmount(v, e.currency);
  const bet = () => `${humanize(e.betType)}${e.spot ? ` ${e.spot}` : ''}`;
  switch (e.kind) {
    case 'reading':
      return `${e.readingKind} ${e.decoded?.code ?? ''} → ${e.outcome}${e.rescan ? ' (rescan)' : ''} · bytes ${e.rawHex}`;
    case 'card':
      return el('span', {}, [
        cardElement(e.card, { slot: e.slot }),
        ` ${slotText(e.slot)}${e.faceDown ? ' (face down)' : ''}`,
      ]);
    case 'bet':
      return el('span', {}, [
        playerLabel(e.player),
        ` · ${bet()} · ${money(e.amount)} (deducted ${money(e.deducted)}) · ${e.status}`,
      ]);
    case 'decision':
      return el('span', {}, [
        playerLabel(e.player),
        `${e.hand ? ` hand ${e.hand}` : ''}: ${e.action}${e.automatic ? ' (automatic)' : ''}`,
      ]);
    case 'settlement':
      return el('span', {}, [
        playerLabel(e.player),
        ` · ${bet()} · stake ${money(e.stake)} · returned ${money(e.returned)} · net ${money(e.net)} · ${outcomeText(e.outcome)}`,
      ]);
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
