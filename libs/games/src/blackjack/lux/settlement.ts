import { dealerCards } from '../core/dealer';
import { CardCode } from '@studio/cards';
import { isBlackjack } from '../core/hand';
import { NO_ROUNDING, RoundingRecord, winningsFor } from '../core/money';
import { PlayerHand } from '../core/player-hands';
import {
  applySettlementRule,
  betSettlement,
  BetSettlement,
  handSettlementRule,
  settleInsurance,
} from '../core/settle';
import { evaluateLuxPairs } from '../side-bets/side-bets';
import { LuxBet, LuxSeat, LuxSettlement, LuxSettlementRecord, LuxState } from './state';

function record(
  playerId: string,
  seat: number,
  role: 'seat' | 'behind',
  bet: LuxBet,
  s: BetSettlement,
  result: string | string[],
  rounding: RoundingRecord[] = [s.rounding],
): LuxSettlementRecord {
  return {
    playerId,
    seat,
    role,
    bet,
    staked: s.staked,
    refunded: s.refunded,
    paid: s.paid,
    houseResult: s.houseResult,
    result,
    rounding: rounding.filter((r) => r.numerator !== 0),
  };
}

/** Main bet over several hands: one record, outcome and rounding per hand with a stake. */
function mainRecord(
  state: LuxState,
  playerId: string,
  seat: LuxSeat,
  role: 'seat' | 'behind',
  hands: readonly PlayerHand[],
  stakes: readonly number[],
  dealer: CardCode[],
  /** For a bet behind: whether it followed each double (its stake is what it is either way). */
  followedDouble?: readonly boolean[],
): LuxSettlementRecord {
  const rules = state.config.rules;
  let staked = 0;
  let refunded = 0;
  let paid = 0;
  const outcomes: string[] = [];
  const rounding: RoundingRecord[] = [];
  hands.forEach((hand, h) => {
    const stake = stakes[h] ?? 0;
    if (stake === 0) return;
    const own = followedDouble ? { ...hand, doubled: followedDouble[h] ?? false } : hand;
    const rule = handSettlementRule(own, dealer, rules);
    const s = applySettlementRule(rule, stake, rules.rounding);
    staked += s.staked;
    refunded += s.refunded;
    paid += s.paid;
    outcomes.push(rule.outcome);
    rounding.push(s.rounding);
  });
  return record(
    playerId,
    seat.seat,
    role,
    'main',
    betSettlement(staked, refunded, paid),
    outcomes,
    rounding,
  );
}

function pairsRecord(
  state: LuxState,
  playerId: string,
  seat: LuxSeat,
  role: 'seat' | 'behind',
  stake: number,
): LuxSettlementRecord {
  const [a, b] = seat.initialCards;
  const up = state.dealer.up;
  const win = a && b && up ? evaluateLuxPairs(a, b, up) : null;
  if (!win) return record(playerId, seat.seat, role, 'pairs', betSettlement(stake, 0, 0), 'lose');
  const w = winningsFor(stake, win.pays, state.config.rules.rounding);
  return record(
    playerId,
    seat.seat,
    role,
    'pairs',
    betSettlement(stake, 0, stake + w.amount, w.rounding),
    win.pattern,
  );
}

function insuranceRecord(
  state: LuxState,
  playerId: string,
  seat: LuxSeat,
  role: 'seat' | 'behind',
  stake: number,
  dealer: CardCode[],
): LuxSettlementRecord {
  const s = settleInsurance(stake, dealer, state.config.rules);
  return record(
    playerId,
    seat.seat,
    role,
    'insurance',
    s,
    isBlackjack(dealer.slice(0, 2)) ? 'win' : 'lose',
  );
}

function refund(
  playerId: string,
  seat: number,
  role: 'seat' | 'behind',
  bet: LuxBet,
  amount: number,
): LuxSettlementRecord {
  return record(playerId, seat, role, bet, betSettlement(amount, amount, 0, NO_ROUNDING), 'void');
}

/**
 * Every bet of the round, one record per player, seat, role and bet. Bets returned when betting
 * closed (a seat removed or sitting out) were recorded then and are carried over.
 */
export function settleLux(state: LuxState): LuxSettlement {
  const dealer = dealerCards(state.dealer);
  const records: LuxSettlementRecord[] = [...(state.settlement?.records ?? [])];
  const voided = state.phase === 'voided';
  for (const seat of state.seats) {
    if (voided) {
      if (seat.playerId && seat.bet?.status === 'placed') {
        // Once play started the stake may have grown by doubles and splits.
        const main = seat.hands.length
          ? seat.hands.reduce((x, h) => x + h.stake, 0)
          : seat.bet.main;
        records.push(refund(seat.playerId, seat.seat, 'seat', 'main', main));
        if (seat.bet.pairs)
          records.push(refund(seat.playerId, seat.seat, 'seat', 'pairs', seat.bet.pairs));
        if (seat.insurance)
          records.push(refund(seat.playerId, seat.seat, 'seat', 'insurance', seat.insurance));
      }
      for (const b of seat.behind) {
        // Stakes may have grown by following a double or a split.
        const main = b.stakes.length ? b.stakes.reduce((x, y) => x + y, 0) : b.main;
        if (main) records.push(refund(b.playerId, seat.seat, 'behind', 'main', main));
        if (b.pairs) records.push(refund(b.playerId, seat.seat, 'behind', 'pairs', b.pairs));
        if (b.insurance)
          records.push(refund(b.playerId, seat.seat, 'behind', 'insurance', b.insurance));
      }
      continue;
    }
    if (!seat.active || !seat.playerId) continue;
    const bet = seat.bet!;
    records.push(
      mainRecord(
        state,
        seat.playerId,
        seat,
        'seat',
        seat.hands,
        seat.hands.map((h) => h.stake),
        dealer,
      ),
    );
    if (bet.pairs) records.push(pairsRecord(state, seat.playerId, seat, 'seat', bet.pairs));
    if (seat.insurance) {
      records.push(insuranceRecord(state, seat.playerId, seat, 'seat', seat.insurance, dealer));
    }
    for (const b of seat.behind) {
      if (b.main) {
        records.push(
          mainRecord(state, b.playerId, seat, 'behind', seat.hands, b.stakes, dealer, b.doubled),
        );
      }
      if (b.pairs) records.push(pairsRecord(state, b.playerId, seat, 'behind', b.pairs));
      if (b.insurance) {
        records.push(insuranceRecord(state, b.playerId, seat, 'behind', b.insurance, dealer));
      }
    }
  }
  return { voided, dealerCards: dealer, records };
}
