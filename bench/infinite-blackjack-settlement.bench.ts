/**
 * One Infinite Blackjack round with 1,000,000 players (random bets, side bets and decisions),
 * from betting to per-player settlement records. Prints times and peak memory; asserts nothing.
 *
 *   npm run bench -- infinite-blackjack-settlement        (PLAYERS=200000 to try another size)
 *   START='8S 6D 8H TC' npm run bench -- infinite-blackjack   (fixes the first four cards: player,
 *   dealer up, player, dealer hole; a pair against a 6 makes many decision paths)
 */
import { CardCode, cardCode, decks } from '@studio/cards';
import {
  currentHandIndex,
  expandInfiniteSettlement,
  InfiniteBetInput,
  InfiniteDecisionInput,
  infiniteExpectedCard,
  InfiniteInput,
  InfiniteState,
  legalActions,
  newInfiniteTable,
  playerStatus,
  stepInfinite,
} from '@studio/games/blackjack';

const PLAYERS = Number(process.env.PLAYERS ?? 1_000_000);
const SEED = Number(process.env.SEED ?? 20261129);

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

const gc = (globalThis as { gc?: () => void }).gc;
let peakRss = 0;
let peakHeap = 0;
function sample(): void {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (t: bigint) => `${(Number(t) / 1e6).toFixed(1)} ms`;

/** CPU time of this process (all its threads, GC helpers included) since `since`, in ms. */
const cpuMs = (since: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(since);
  return `${((c.user + c.system) / 1000).toFixed(1)} ms`;
};

// Wall time and CPU time per step: on a shared machine the wall time includes waiting for a core.
const timings: [string, bigint, string][] = [];
let state = newInfiniteTable();
function step(label: string, input: InfiniteInput): void {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = stepInfinite(state, input);
  const dt = process.hrtime.bigint() - t0;
  const cpu = cpuMs(c0);
  if ('rejected' in r) throw new Error(`${label}: ${r.rejected.code} ${r.rejected.message}`);
  state = r.state;
  timings.push([label, dt, cpu]);
  sample();
}

// A shuffled 8-deck shoe (the orchestrator's job; the engine never shuffles).
const shuffled: CardCode[] = decks(8).map(cardCode);
for (let i = shuffled.length - 1; i > 0; i -= 1) {
  const j = Math.floor(random() * (i + 1));
  [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
}
const start = (process.env.START ?? '').split(/\s+/).filter(Boolean) as CardCode[];
const shoe: CardCode[] = [...start, ...shuffled];

function randomDecisions(s: InfiniteState): InfiniteDecisionInput[] {
  const out: InfiniteDecisionInput[] = [];
  const { ids, node } = s.players;
  if (s.phase === 'insurance') {
    for (let i = 0; i < ids.length; i += 1) {
      if (random() < 0.2) out.push({ playerId: ids[i], action: 'insurance' });
    }
    return out;
  }
  const legal = s.nodes.map((n) => {
    if (n.players === 0 || playerStatus(n) !== 'acting') return [];
    return legalActions(
      n.hands[currentHandIndex(n)],
      { handCount: n.hands.length },
      s.config.rules,
    );
  });
  for (let i = 0; i < ids.length; i += 1) {
    const options = legal[node[i]];
    // one player in ten sends nothing and is auto-played
    if (options.length && random() < 0.9) out.push({ playerId: ids[i], action: pick(options) });
  }
  return out;
}

sample();
const tSetup = process.hrtime.bigint();
const bets: InfiniteBetInput[] = [];
for (let i = 0; i < PLAYERS; i += 1) {
  const side: Record<string, number> = {};
  if (random() < 0.3) side.pairs = 100 * (1 + Math.floor(random() * 10));
  if (random() < 0.3) side['bust-bonus'] = 100 * (1 + Math.floor(random() * 10));
  if (random() < 0.3) side['lucky-trio'] = 100 * (1 + Math.floor(random() * 10));
  if (random() < 0.3) side['poker-trio'] = 100 * (1 + Math.floor(random() * 10));
  // odd amounts too, so 3:2 and surrender halves round
  bets.push({ playerId: `player-${i}`, main: 100 + Math.floor(random() * 10_000), side });
}
const setupTime = process.hrtime.bigint() - tSetup;
sample();

const tRound = process.hrtime.bigint();
step('open-betting', { type: 'open-betting', roundId: 'bench', roundOfShoe: 12 });
step('bets (batch)', { type: 'bets', bets });
bets.length = 0;
step('close-betting', { type: 'close-betting' });
let drawn = 0;
let windows = 0;
let decisionGenTime = 0n;
for (let guard = 0; guard < 100 && state.phase !== 'settled'; guard += 1) {
  if (infiniteExpectedCard(state)) {
    const slot = infiniteExpectedCard(state)!.slot;
    step(`card ${shoe[drawn]} -> ${slot}`, { type: 'card', card: shoe[drawn] });
    drawn += 1;
  } else if (state.phase === 'deciding' || state.phase === 'insurance') {
    windows += 1;
    const t0 = process.hrtime.bigint();
    const decisions = randomDecisions(state);
    decisionGenTime += process.hrtime.bigint() - t0;
    step(`${state.phase} window ${windows}: ${decisions.length} decisions`, {
      type: 'decisions',
      decisions,
    });
    step(`close window ${windows}`, { type: 'close-window' });
  } else {
    throw new Error(`stuck in ${state.phase}`);
  }
}
const roundTime = process.hrtime.bigint() - tRound - decisionGenTime;
const settleStep = timings[timings.length - 1];

const cExpand = process.cpuUsage();
const tExpand = process.hrtime.bigint();
const records = expandInfiniteSettlement(state);
const expandTime = process.hrtime.bigint() - tExpand;
const expandCpu = cpuMs(cExpand);
sample();

// Cross-check: the expanded records add up to the totals of the settlement event.
let expandedReturned = 0;
let expandedStaked = 0;
for (let k = 0; k < records.staked.length; k += 1) {
  expandedStaked += records.staked[k];
  expandedReturned += records.refunded[k] + records.paid[k];
}
const totals = state.settlement!.totals;
let summaryStaked = 0;
let summaryReturned = 0;
for (const t of Object.values(totals)) {
  summaryStaked += t.staked;
  summaryReturned += t.refunded + t.paid;
}

gc?.();
sample();
const liveNodes = state.nodes.filter((n) => n.players > 0).length;
console.log(
  `players: ${PLAYERS.toLocaleString('en-US')}   seed: ${SEED}   start: ${start.join(' ') || '(shuffled)'}   gc exposed: ${!!gc}`,
);
console.log(
  `player cards: ${state.playerCards.join(' ')}   dealer: ${state.settlement!.dealerCards.join(' ')}`,
);
console.log(
  `common draws: ${state.commonDraws.length}   windows: ${windows}   trie nodes: ${state.nodes.length} (${liveNodes} holding players)`,
);
console.log('engine steps (wall, cpu):');
for (const [label, t, cpu] of timings) {
  console.log(`  ${ms(t).padStart(10)} ${cpu.padStart(10)}  ${label}`);
}
console.log(`bet generation (bench side, not engine): ${ms(setupTime)}`);
console.log(`decision generation (bench side, not engine): ${ms(decisionGenTime)}`);
console.log(
  `settlement step (per node x bet, totals over every player): ${ms(settleStep[1])} (cpu ${settleStep[2]})`,
);
console.log(
  `per-player expansion to typed arrays (${records.bets.length} bets x players): ${ms(expandTime)} (cpu ${expandCpu})`,
);
console.log(`settle + expand: ${ms(settleStep[1] + expandTime)}`);
console.log(
  `whole round in the engine (bets to settlement, excluding bench-side generation): ${ms(roundTime)}`,
);
console.log(
  `totals: staked ${summaryStaked}  returned ${summaryReturned}  house ${summaryStaked - summaryReturned}   expanded arrays agree: ${expandedStaked === summaryStaked && expandedReturned === summaryReturned}`,
);
console.log(`peak rss: ${mb(peakRss)}   peak heapUsed: ${mb(peakHeap)}`);
