import { Logger } from '@nestjs/common';

/** Why a sign-in was refused, or what the refusal set off. */
export const SIGN_IN_EVENTS = [
  'unknown-user',
  'wrong-password',
  'user-disabled',
  /** The client address made too many attempts, for any accounts, in a window. */
  'throttled-per-address',
  /** The (account, address) pair must wait before its next attempt (growing delay). */
  'delayed',
  /** The account is over its ceiling of failures: attempts from new addresses are paced. */
  'account-slowed',
  /** The (account, address) pair is locked out. */
  'locked-out',
  /** This failure locked the (account, address) pair out. */
  'locked-out-now',
  /** This failure brought the account over its ceiling. */
  'account-ceiling-reached',
] as const;

export type SignInEvent = (typeof SIGN_IN_EVENTS)[number];

/**
 * One structured warn line per refused sign-in and per throttle or lockout it sets off (context
 * `Security`: who, from where, why; never the password), each also counted for the metric
 * `studio_sign_in_events_total` (this instance's counts, read at scrape time).
 */
export class SecurityLog {
  private readonly logger = new Logger('Security');
  readonly counts: Record<SignInEvent, number> = Object.fromEntries(
    SIGN_IN_EVENTS.map((e) => [e, 0]),
  ) as Record<SignInEvent, number>;

  signInRefused(username: string, address: string, reason: SignInEvent): void {
    this.counts[reason] += 1;
    this.logger.warn({
      msg: 'sign-in refused',
      event: 'sign-in-refused',
      username,
      address,
      reason,
    });
  }
}
