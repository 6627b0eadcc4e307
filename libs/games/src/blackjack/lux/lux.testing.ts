import { LuxEffect, LuxInput, LuxState, newLuxTable, stepLux } from '.';

/** Inputs and readings the Lux engine's specs share: rounds played from lists of inputs. */

export function run(state: LuxState, inputs: LuxInput[]) {
  const effects: LuxEffect[] = [];
  for (const input of inputs) {
    const r = stepLux(state, input);
    if ('rejected' in r) throw new Error(`${input.type} rejected: ${r.rejected.message}`);
    state = r.state;
    effects.push(...r.effects);
  }
  return { state, effects };
}

export const cards = (codes: string): LuxInput[] =>
  codes.split(' ').map((card) => ({ type: 'card', card }));
export const real = (playerId: string) => ({ playerId, demo: false, funCurrency: false });
export const sit = (seat: number, playerId: string): LuxInput => ({
  type: 'take-seat',
  seat,
  account: real(playerId),
});
export const seatBet = (seat: number, playerId: string, main: number, pairs = 0): LuxInput => ({
  type: 'seat-bet',
  seat,
  playerId,
  main,
  pairs,
});
export const behind = (seat: number, playerId: string, main: number, pairs = 0): LuxInput => ({
  type: 'behind-bet',
  seat,
  playerId,
  main,
  pairs,
});
export const decide = (seat: number, playerId: string, action: string): LuxInput =>
  ({ type: 'decision', seat, playerId, action }) as LuxInput;
export const open: Extract<LuxInput, { type: 'open-betting' }> = {
  type: 'open-betting',
  roundId: 'r',
  roundOfShoe: 1,
};
export const close: LuxInput = { type: 'close-window' };

/** player -> "seat/role/bet" -> [staked, returned, result] */
export function results(state: LuxState) {
  const out: Record<string, [number, number, unknown]> = {};
  for (const r of state.settlement!.records) {
    out[`${r.playerId} ${r.seat}/${r.role}/${r.bet}`] = [r.staked, r.refunded + r.paid, r.result];
  }
  return out;
}

export function code(state: LuxState, input: LuxInput) {
  const r = stepLux(state, input);
  return 'rejected' in r ? r.rejected.code : 'accepted';
}
/** P1 on seat 1 and P3 on seat 3, betting open. */
export const twoSeats = () => run(newLuxTable(), [sit(1, 'P1'), sit(3, 'P3'), open]).state;
