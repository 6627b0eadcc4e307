/**
 * The number a platform's `spot` or `seat` names: plain decimal digits only, so "1e0", "0x1",
 * " 1" and "" are not seat 1 (Number() would read them so). NaN for anything else.
 */
export function spotNumber(spot: string | undefined): number {
  return typeof spot === 'string' && /^[1-9][0-9]{0,2}$/.test(spot) ? Number(spot) : Number.NaN;
}
