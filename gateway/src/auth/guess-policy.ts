/**
 * The password-guessing rule (sign-in, and any later check of a current password): may this password
 * check run now, or how long must the caller wait? A pure function of the account's recent failures,
 * the client address's recent failures and whether the address is one the account is known to use.
 *
 * - An account's passwords are checked wrongly at most `accountMax` times per window, from all
 *   addresses together: a check counts as a failure from the moment it starts until it succeeds, so
 *   parallel guesses cannot slip past.
 * - Strangers (addresses the account never signed in from, or that failed on it since) share
 *   `accountMax - trustedReserve` of them, with a delay that doubles with each failure after the first
 *   `freeFailures` (typos); an address with `addressMax` failures on any accounts is refused as a stranger.
 * - A known-good address (the account signed in from it, or reset its password there) that has not failed
 *   on the account beyond `trustedSlips` typos is checked whatever strangers did: the owner signs in at
 *   the office while someone elsewhere guesses, and an office behind one NAT address is not locked out
 *   because one machine there sprays passwords. Such checks draw on the reserve, so the account's limit
 *   holds for everyone together.
 * - Nothing here depends on whether the account exists: unknown e-mails are limited the same way.
 */

import type { GuessPolicy } from '../config';

/** The limits this rule applies: part of the configuration (config.ts, LOGIN_THROTTLE_*). */
export type { GuessPolicy };

export interface Failure {
  /** When the check started (ms since epoch). */
  at: number;
  address: string;
  /** A later sign-in from the same address forgave it (it no longer counts against that address's trust). */
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

export type GuessDecision = { allowed: true; trusted: boolean } | { allowed: false; retryAfterMs: number };

/** Delay after `failures` failures before a stranger's next check (0 within the free ones). */
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

/** A known-good address with no more unforgiven failures on the account than its slips. */
export function isTrusted(
  state: Pick<GuessState, 'address' | 'accountFailures' | 'knownAddress'>,
  policy: Pick<GuessPolicy, 'trustedSlips'>,
): boolean {
  if (!state.knownAddress) return false;
  const own = state.accountFailures.filter((f) => f.address === state.address && !f.forgiven).length;
  return own <= policy.trustedSlips;
}

export function decideGuess(state: GuessState, policy: GuessPolicy): GuessDecision {
  const { now } = state;
  const { windowMs } = policy;
  const account = state.accountFailures.map((f) => f.at);
  const trusted = isTrusted(state, policy);
  let until: number;
  if (trusted) {
    until = freesAt(account, policy.accountMax, now, windowMs);
  } else {
    const strangersMax = Math.max(0, policy.accountMax - policy.trustedReserve);
    const newest = account.length > 0 ? Math.max(...account) : now;
    until = Math.max(
      freesAt(account, strangersMax, now, windowMs),
      freesAt(state.addressFailures, policy.addressMax, now, windowMs),
      account.length > 0 ? newest + strangerDelayMs(account.length, policy) : now,
    );
  }
  if (until <= now) return { allowed: true, trusted };
  return { allowed: false, retryAfterMs: until - now };
}
