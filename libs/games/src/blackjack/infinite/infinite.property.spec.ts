import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { CardCode, cardCode, decks } from '@studio/cards';
import {
  currentHandIndex,
  legalActions,
  PlayerHand,
  playerStatus,
  settleHand,
  settleInsurance,
} from '../core';
import {
  evaluateBustBonus,
  evaluateLuckyTrio,
  evaluatePairs,
  evaluatePokerTrio,
  isSideBetOffered,
} from '../side-bets';
import {
  expandInfiniteSettlement,
  INFINITE_BETS,
  infiniteExpectedCard,
  InfiniteEffect,
  InfiniteInput,
  infinitePlayerSettlements,
  infinitePlayerView,
  InfiniteState,
  newInfiniteTable,
  stepInfinite,
} from '.';

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

function shuffled(random: () => number): CardCode[] {
  const shoe = decks(8).map(cardCode);
  for (let i = shoe.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [shoe[i], shoe[j]] = [shoe[j], shoe[i]];
  }
  return shoe;
}

/** Cards a ten-heavy or ace-up start makes interesting: sometimes force the first four. */
const STARTS = ['', 'AS 9D AH KC', '8S AD 8H 7C', 'TS TD KH 6C', '2S 9D 3H 8C', 'AS TD KH 7C'];

interface Run {
  state: InfiniteState;
  cardsIn: CardCode[];
  placed: Map<string, { main: number; side: Record<string, number> }>;
}

/**
 * Plays one random round. Every step is taken from a JSON copy of the previous state (as the
 * orchestrator resumes from the database) and the invariants are checked after each step.
 */
function playRandomRound(seed: number, players: number, start: string, roundOfShoe: number): Run {
  const random = mulberry32(seed);
  const shoe = [...(start ? (start.split(' ') as CardCode[]) : []), ...shuffled(random)];
  let state = newInfiniteTable();
  const cardsIn: CardCode[] = [];
  const publicPayloads: string[] = [];
  const placed = new Map<string, { main: number; side: Record<string, number> }>();

  const step = (input: InfiniteInput): void => {
    const r = stepInfinite(state, input);
    if ('rejected' in r) throw new Error(`${input.type}: ${r.rejected.message}`);
    const json = JSON.parse(JSON.stringify(r.state)) as InfiniteState;
    expect(isDeepStrictEqual(json, r.state)).toBe(true); // plain JSON: nothing lost or changed
    state = json;
    checkHidden(state, r.effects, publicPayloads);
  };

  step({ type: 'open-betting', roundId: `r${seed}`, roundOfShoe });
  const bets = Array.from({ length: players }, (_, i) => {
    const side: Record<string, number> = {};
    for (const kind of ['pairs', 'bust-bonus', 'lucky-trio', 'poker-trio'] as const) {
      if (random() < 0.4 && isSideBetOffered(kind, roundOfShoe)) {
        side[kind] = 1 + Math.floor(random() * 500);
      }
    }
    const main = 1 + Math.floor(random() * 999); // odd amounts too: 3:2 and halves round
    placed.set(`p${i}`, { main, side });
    return { playerId: `p${i}`, main, side };
  });
  // Half the players bet one by one, the rest in one batch.
  const half = Math.floor(players / 2);
  for (const b of bets.slice(0, half)) step({ type: 'bet', ...b });
  step({ type: 'bets', bets: bets.slice(half) });
  step({ type: 'close-betting' });

  for (let guard = 0; guard < 200 && state.phase !== 'settled'; guard += 1) {
    if (random() < 0.02) {
      step({ type: 'void', reason: 'supervisor' }); // a voided round refunds every bet
      break;
    }
    if (infiniteExpectedCard(state)) {
      const card = shoe[cardsIn.length];
      cardsIn.push(card);
      step({ type: 'card', card });
    } else if (state.phase === 'insurance') {
      for (let i = 0; i < players; i += 1) {
        const x = random();
        if (x < 0.3) step({ type: 'decision', playerId: `p${i}`, action: 'insurance' });
        else if (x < 0.5) step({ type: 'decision', playerId: `p${i}`, action: 'no-insurance' });
      }
      step({ type: 'timeout', timer: 'insurance', window: state.window });
    } else if (state.phase === 'deciding') {
      const decisions = [];
      for (let i = 0; i < players; i += 1) {
        const node = state.nodes[state.players.node[i]];
        if (playerStatus(node) !== 'acting' || random() < 0.15) continue; // no answer: auto-play
        const hand = node.hands[currentHandIndex(node)];
        const legal = legalActions(hand, { handCount: node.hands.length }, state.config.rules);
        decisions.push({ playerId: `p${i}`, action: legal[Math.floor(random() * legal.length)] });
      }
      step({ type: 'decisions', decisions });
      step({ type: 'close-window' });
    } else {
      throw new Error(`stuck in ${state.phase}`);
    }
  }
  expect(['settled', 'voided']).toContain(state.phase);
  return { state, cardsIn, placed };
}

/** Before the reveal, no view and no published event carries the hole card. */
function checkHidden(state: InfiniteState, effects: InfiniteEffect[], published: string[]): void {
  for (const e of effects) {
    if (e.type === 'event' && !e.hidden) published.push(JSON.stringify(e.payload));
  }
  const hole = state.dealer.hole;
  if (!hole || state.dealer.holeRevealed) return;
  const view = infinitePlayerView(state, 'p0');
  expect(view.dealer.cards).toEqual([state.dealer.up]);
  const visible = new Set<string>([
    ...state.playerCards,
    ...state.commonDraws,
    state.dealer.up as string,
  ]);
  if (!visible.has(hole)) {
    expect(JSON.stringify(view)).not.toContain(`"${hole}"`);
    for (const p of published) expect(p).not.toContain(`"${hole}"`);
  }
  published.length = 0;
}

/** Every card read lands in exactly one place; a hand takes each common card at most once. */
function checkCards({ state, cardsIn }: Run): void {
  const dealer = [state.dealer.up, state.dealer.hole, ...state.dealer.draws].filter(
    (c): c is CardCode => c !== null,
  );
  expect([...state.playerCards, ...dealer, ...state.commonDraws].sort()).toEqual(
    [...cardsIn].sort(),
  );
  for (const node of state.nodes) {
    if (node.players === 0) continue;
    const fromDraws = node.hands.flatMap((h) => h.cards.slice(h.fromSplit ? 1 : 2));
    let k = 0;
    for (const c of fromDraws) {
      while (k < state.commonDraws.length && state.commonDraws[k] !== c) k += 1;
      expect(k).toBeLessThan(state.commonDraws.length); // in draw order, each draw once
      k += 1;
    }
  }
}

/** Money conservation per bet, against an independent per-player computation with core rules. */
function checkMoney({ state, placed }: Run): void {
  const s = state.settlement!;
  const dealer = s.dealerCards;
  const [p1, p2] = state.playerCards;
  const up = state.dealer.up!;
  const rules = state.config.rules;
  const sums = Object.fromEntries(INFINITE_BETS.map((b) => [b, { staked: 0, returned: 0 }]));
  const arrays = expandInfiniteSettlement(state);
  const n = arrays.playerCount;
  let i = 0;
  for (const rec of infinitePlayerSettlements(state)) {
    const bet = placed.get(rec.playerId)!;
    const node = state.nodes[rec.node];
    for (const b of rec.bets) {
      expect(b.staked).toBe(b.refunded + b.paid + b.houseResult);
      sums[b.bet].staked += b.staked;
      sums[b.bet].returned += b.refunded + b.paid;
      const k = INFINITE_BETS.indexOf(b.bet) * n + i;
      expect([arrays.staked[k], arrays.refunded[k], arrays.paid[k]]).toEqual([
        b.staked,
        b.refunded,
        b.paid,
      ]);
      let expected: { staked: number; returned: number };
      if (s.voided) {
        const units = b.bet === 'main' ? node.hands.reduce((x, h) => x + h.stake, 0) : 1;
        const stake =
          b.bet === 'main'
            ? bet.main * units
            : b.bet === 'insurance'
              ? Math.floor(bet.main / 2)
              : bet.side[b.bet];
        expected = { staked: stake, returned: stake };
      } else if (b.bet === 'main') {
        const per = node.hands.map((h) =>
          settleHand({ ...h, stake: h.stake * bet.main } as PlayerHand, dealer, rules),
        );
        expected = {
          staked: per.reduce((x, h) => x + h.staked, 0),
          returned: per.reduce((x, h) => x + h.refunded + h.paid, 0),
        };
      } else if (b.bet === 'insurance') {
        const ins = settleInsurance(b.staked, dealer, rules);
        expected = { staked: Math.floor(bet.main / 2), returned: ins.paid };
      } else {
        const stake = bet.side[b.bet];
        const win =
          b.bet === 'pairs'
            ? evaluatePairs(p1, p2)
            : b.bet === 'lucky-trio'
              ? evaluateLuckyTrio(p1, p2, up)
              : b.bet === 'poker-trio'
                ? evaluatePokerTrio(p1, p2, up)
                : evaluateBustBonus(dealer);
        expected = { staked: stake, returned: win ? stake + (stake * win.pays.a) / win.pays.b : 0 };
      }
      expect({ staked: b.staked, returned: b.refunded + b.paid }).toEqual(expected);
    }
    i += 1;
  }
  for (const b of INFINITE_BETS) {
    expect(s.totals[b].staked).toBe(sums[b].staked);
    expect(s.totals[b].refunded + s.totals[b].paid).toBe(sums[b].returned);
    expect(s.totals[b].houseResult).toBe(sums[b].staked - sums[b].returned);
  }
}

describe('Infinite Blackjack properties (random rounds, every step through JSON)', () => {
  it('conserves money per bet, deals no card twice, round-trips JSON, hides the hole card', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(...STARTS),
        fc.constantFrom(1, 40, 41, 45, 46),
        (seed, players, start, round) => {
          const run = playRandomRound(seed, players, start, round);
          checkCards(run);
          checkMoney(run);
        },
      ),
      { numRuns: 100 },
    );
  });
});
