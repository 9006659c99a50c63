/**
 * The password-guessing rule (sign-in, and any later check of a current password): may this password
 * check run now, and may its answer be a session, or how long must the caller wait? A pure function of
 * the account's recent failures, the client address's recent failures and whether the address is one
 * the account is known to use. A throttle slows the guesser, never the owner (OWASP Authentication
 * Cheat Sheet, "Account lockout"; NIST SP 800-63B section 5.2.2, rate limiting):
 *
 * - Delays are per (account, address): an address gets `freeFailures` wrong passwords on an account
 *   (typos), then waits a delay that doubles with each further failure of its own. An address that has
 *   not failed on the account is never delayed by what other addresses did.
 * - An address with `addressMax` failures on any accounts (password spraying) is refused as a stranger.
 * - The account-wide limit counts failures from all addresses together, for guesses spread over many
 *   addresses: strangers (addresses the account never signed in from, or that failed on it since) share
 *   `accountMax - trustedReserve` of them; a known-good address (the account signed in or reset its
 *   password there) with no more than `trustedSlips` failures of its own has `accountMax`. Past its
 *   limit the account is under a distributed attack: a password is still checked, but its answer is
 *   the same whether it is right or wrong (mode 'link': a right password e-mails a single-use sign-in
 *   link instead of answering a session), so guessing learns nothing and the owner still gets in.
 * - A check counts as a failure from the moment it starts until it succeeds, so parallel guesses
 *   cannot slip past; nothing here depends on whether the account exists.
 */

import type { GuessPolicy } from '../config';

/** The limits this rule applies: part of the configuration (config.ts, LOGIN_THROTTLE_*). */
export type { GuessPolicy };

export interface Failure {
  /** When the check started (ms since epoch). */
  at: number;
  address: string;
  /** A later sign-in from the same address forgave it (it no longer counts against that address). */
  forgiven: boolean;
}

export interface GuessState {
  now: number;
  /** The client address asking (its throttling key). */
  address: string;
  /** The account's failures within the window (checks in progress included), any order. */
  accountFailures: readonly Failure[];
  /** Start times of the address's failures within the window, on any accounts (at most addressMax needed). */
  addressFailures: readonly number[];
  /** The account signed in (or reset its password) from this address before. */
  knownAddress: boolean;
}

/**
 * 'password': check it and answer a session or a refusal. 'link': the account-wide limit is reached;
 * check it, answer the same either way, and e-mail a sign-in link when it is right (`untilMs`: when
 * the limit frees again).
 */
export type GuessDecision =
  | { allowed: true; trusted: boolean; mode: 'password' }
  | { allowed: true; trusted: boolean; mode: 'link'; untilMs: number }
  | { allowed: false; retryAfterMs: number };

/** Delay after `failures` failures of one address on one account before its next check (0 within the free ones). */
export function strangerDelayMs(failures: number, policy: GuessPolicy): number {
  if (failures < policy.freeFailures) return 0;
  return policy.baseDelayMs * 2 ** Math.min(30, failures - policy.freeFailures);
}

/** When fewer than `max` of these times remain within the window (now or later; `now` when already fewer). */
function freesAt(times: readonly number[], max: number, now: number, windowMs: number): number {
  if (times.length < max) return now;
  if (max <= 0) return Number.POSITIVE_INFINITY;
  const sorted = [...times].sort((a, b) => a - b);
  // The oldest `times.length - max + 1` must leave the window.
  return (sorted[times.length - max] ?? now) + windowMs;
}

/** The address's own unforgiven failures on the account. */
function ownFailures(state: Pick<GuessState, 'address' | 'accountFailures'>): number[] {
  return state.accountFailures.filter((f) => f.address === state.address && !f.forgiven).map((f) => f.at);
}

/** A known-good address with no more unforgiven failures on the account than its slips. */
export function isTrusted(
  state: Pick<GuessState, 'address' | 'accountFailures' | 'knownAddress'>,
  policy: Pick<GuessPolicy, 'trustedSlips'>,
): boolean {
  return state.knownAddress && ownFailures(state).length <= policy.trustedSlips;
}

export function decideGuess(state: GuessState, policy: GuessPolicy): GuessDecision {
  const { now } = state;
  const { windowMs } = policy;
  const trusted = isTrusted(state, policy);
  // Per (account, address): this address's own failures on the account, and, for strangers, its spraying.
  const own = ownFailures(state);
  const ownUntil = own.length > 0 ? Math.max(...own) + strangerDelayMs(own.length, policy) : now;
  const sprayUntil = trusted ? now : freesAt(state.addressFailures, policy.addressMax, now, windowMs);
  const until = Math.max(ownUntil, sprayUntil);
  if (until > now) return { allowed: false, retryAfterMs: until - now };
  // Account-wide, from all addresses together.
  const limit = trusted ? policy.accountMax : Math.max(0, policy.accountMax - policy.trustedReserve);
  const frees = freesAt(
    state.accountFailures.map((f) => f.at),
    limit,
    now,
    windowMs,
  );
  if (frees <= now) return { allowed: true, trusted, mode: 'password' };
  return { allowed: true, trusted, mode: 'link', untilMs: frees };
}
