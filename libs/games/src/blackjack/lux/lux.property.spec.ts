import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { CardCode, cardCode, decks } from '@studio/cards';
import { currentHandIndex, legalActions, PLAYER_ACTIONS } from '../core';
import {
  currentSeat,
  luxExpectedCard,
  LuxEffect,
  LuxInput,
  luxPublicView,
  LuxState,
  newLuxTable,
  stepLux,
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

const STARTS = [
  '',
  'AS AD 9H KC AH KD',
  'TS AD 8H KH 7C',
  'AS KD 9H TH QC 6C',
  '8S 8D AH 8H 8C KC',
];

/** The given first cards, then eight shuffled decks. */
function shoeStartingWith(start: string, random: () => number): CardCode[] {
  const shoe = [...(start ? (start.split(' ') as CardCode[]) : [])];
  const rest = decks(8).map(cardCode);
  for (let i = rest.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  return [...shoe, ...rest];
}

function playRandomLuxRound(seed: number, start: string) {
  const random = mulberry32(seed);
  const shoe = shoeStartingWith(start, random);
  let state = newLuxTable();
  const cardsIn: CardCode[] = [];
  const published: string[] = [];
  const placed: { playerId: string; seat: number; role: string; bet: string; amount: number }[] =
    [];
  const step = (input: LuxInput, mayReject = false): void => {
    const r = stepLux(state, input);
    if ('rejected' in r) {
      if (mayReject) return;
      throw new Error(`${input.type}: ${r.rejected.message}`);
    }
    const json = JSON.parse(JSON.stringify(r.state)) as LuxState;
    expect(isDeepStrictEqual(json, r.state)).toBe(true); // plain JSON: nothing lost or changed
    state = json;
    checkHidden(state, r.effects, published);
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

  const seated: number[] = [];
  for (let seat = 1; seat <= 7; seat += 1) {
    if (random() < 0.6) {
      step({
        type: 'take-seat',
        seat,
        account: { playerId: `S${seat}`, demo: false, funCurrency: false },
      });
      seated.push(seat);
    }
  }
  step({ type: 'open-betting', roundId: `r${seed}`, roundOfShoe: 1 });
  for (const seat of seated) {
    const x = random();
    if (x < 0.8) {
      const main = 100 + Math.floor(random() * 900);
      const pairs = random() < 0.4 ? 100 + Math.floor(random() * 100) : 0;
      step({ type: 'seat-bet', seat, playerId: `S${seat}`, main, pairs });
      if (x < 0.75) {
        placed.push({ playerId: `S${seat}`, seat, role: 'seat', bet: 'main', amount: main });
        if (pairs)
          placed.push({ playerId: `S${seat}`, seat, role: 'seat', bet: 'pairs', amount: pairs });
      } else {
        step({ type: 'seat-bet-failed', seat, playerId: `S${seat}` });
      }
    }
    for (let b = 0; b < 3; b += 1) {
      if (random() < 0.5) continue;
      const playerId = `B${b}`;
      const main = 100 + Math.floor(random() * 900);
      const pairs = random() < 0.3 ? 100 : 0;
      step({ type: 'behind-bet', seat, playerId, main, pairs });
      placed.push({ playerId, seat, role: 'behind', bet: 'main', amount: main });
      if (pairs) placed.push({ playerId, seat, role: 'behind', bet: 'pairs', amount: pairs });
      step({
        type: 'follow-choice',
        seat,
        playerId,
        followDouble: pick([true, false, undefined]),
        followSplit: pick([true, false, undefined]),
      });
    }
  }
  step({ type: 'close-betting' });
  for (const seat of seated) {
    if (random() < 0.3) {
      step(
        { type: 'pre-decision', seat, playerId: `S${seat}`, action: pick(PLAYER_ACTIONS) },
        true,
      );
    }
  }
  for (let guard = 0; guard < 300 && state.phase !== 'settled'; guard += 1) {
    if (random() < 0.02) {
      step({ type: 'void', reason: 'supervisor' }); // a voided round refunds every bet
      break;
    }
    if (luxExpectedCard(state)) {
      const card = shoe[cardsIn.length];
      cardsIn.push(card);
      step({ type: 'card', card });
    } else if (state.phase === 'insurance') {
      for (const s of state.seats.filter((x) => x.active)) {
        for (const id of [s.playerId!, ...s.behind.map((b) => b.playerId)]) {
          if (random() < 0.5)
            step({ type: 'insurance', seat: s.seat, playerId: id, take: random() < 0.5 }, true);
        }
      }
      step({ type: 'timeout', timer: 'insurance', window: state.window });
    } else if (state.phase === 'playing') {
      const seat = currentSeat(state)!;
      if (random() < 0.2) {
        step({ type: 'timeout', timer: 'decision', window: state.window });
      } else {
        const hand = seat.hands[currentHandIndex(seat)];
        const legal = legalActions(hand, { handCount: seat.hands.length }, state.config.rules);
        step({ type: 'decision', seat: seat.seat, playerId: seat.playerId!, action: pick(legal) });
      }
    } else {
      throw new Error(`stuck in ${state.phase}`);
    }
  }
  expect(['settled', 'voided']).toContain(state.phase);
  return { state, cardsIn, placed };
}

function checkHidden(state: LuxState, effects: LuxEffect[], published: string[]): void {
  for (const e of effects)
    if (e.type === 'event' && !e.hidden) published.push(JSON.stringify(e.payload));
  const hole = state.dealer.hole;
  if (!hole || state.dealer.holeRevealed) return;
  const view = luxPublicView(state);
  expect(view.dealer.cards).toEqual([state.dealer.up]);
  const visible = new Set<string>([
    state.dealer.up!,
    ...state.seats.flatMap((s) => s.hands.flatMap((h) => h.cards)),
  ]);
  if (!visible.has(hole)) {
    expect(JSON.stringify(view)).not.toContain(`"${hole}"`);
    for (const p of published) expect(p).not.toContain(`"${hole}"`);
  }
  published.length = 0;
}

describe('Blackjack Lux properties (random rounds, every step through JSON)', () => {
  it('conserves money per bet, settles every bet once, deals no card twice, hides the hole card', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.constantFrom(...STARTS),
        (seed, start) => {
          const { state, cardsIn, placed } = playRandomLuxRound(seed, start);
          // Every card read is in exactly one hand or the dealer's cards.
          const dealer = [state.dealer.up, state.dealer.hole, ...state.dealer.draws].filter(
            (c): c is CardCode => c !== null,
          );
          const seatCards = state.seats.flatMap((s) =>
            s.active ? s.hands.flatMap((h) => h.cards) : [],
          );
          expect([...seatCards, ...dealer].sort()).toEqual([...cardsIn].sort());
          const records = state.settlement!.records;
          for (const r of records) {
            expect(r.staked).toBe(r.refunded + r.paid + r.houseResult);
            if (state.phase === 'voided') expect(r.houseResult).toBe(0);
          }
          // Every placed main and pair bet is settled exactly once (grown by follows/doubles).
          for (const p of placed) {
            const matching = records.filter(
              (r) =>
                r.playerId === p.playerId &&
                r.seat === p.seat &&
                r.role === p.role &&
                r.bet === p.bet,
            );
            expect(matching).toHaveLength(1);
            expect(matching[0].staked).toBeGreaterThanOrEqual(p.amount);
          }
          for (const s of state.seats.filter((x) => x.active)) {
            const main = records.find(
              (r) => r.seat === s.seat && r.role === 'seat' && r.bet === 'main',
            )!;
            expect(main.staked).toBe(s.hands.reduce((x, h) => x + h.stake, 0));
            for (const b of s.behind) {
              const rec = records.find(
                (r) => r.seat === s.seat && r.playerId === b.playerId && r.bet === 'main',
              )!;
              expect(rec.staked).toBe(b.stakes.reduce((x, y) => x + y, 0));
              const ins = records.find(
                (r) => r.seat === s.seat && r.playerId === b.playerId && r.bet === 'insurance',
              );
              if (ins) expect(ins.staked).toBe(Math.floor(b.main / 2));
            }
          }
          expect(records.filter((r) => r.bet !== 'insurance')).toHaveLength(placed.length);
        },
      ),
      { numRuns: 100 },
    );
  });
});
