import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideGuess, type Failure, type GuessPolicy, strangerDelayMs } from './guess-policy';

const MIN = 60_000;
const policy: GuessPolicy = {
  windowMs: 60 * MIN,
  accountMax: 10,
  trustedReserve: 3,
  trustedSlips: 1,
  addressMax: 50,
  freeFailures: 3,
  baseDelayMs: 15_000,
};
const now = 1_000 * 60 * MIN;
const HOME = '203.0.113.9';

/** `n` failures from strangers, `gapMs` apart, the newest `ageMs` ago. */
function strangers(n: number, ageMs = 10 * MIN, gapMs = MIN): Failure[] {
  return Array.from({ length: n }, (_, i) => ({
    at: now - ageMs - (n - 1 - i) * gapMs,
    address: `198.51.100.${i}`,
    forgiven: false,
  }));
}

const decide = (accountFailures: Failure[], extra: { knownAddress?: boolean; addressFailures?: number[] } = {}) =>
  decideGuess(
    {
      now,
      address: HOME,
      accountFailures,
      addressFailures: extra.addressFailures ?? [],
      knownAddress: extra.knownAddress ?? false,
    },
    policy,
  );

describe('the guessing rule', () => {
  it('delays strangers after the free failures, doubling each time', () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6].map((n) => strangerDelayMs(n, policy) / 1000),
      [0, 0, 0, 15, 30, 60, 120],
    );
  });

  const rows: [string, Failure[], { knownAddress?: boolean; addressFailures?: number[] }, number | 'allowed'][] = [
    ['no failures: checked', [], {}, 'allowed'],
    ['two typos a second ago: checked', strangers(2, 1000), {}, 'allowed'],
    ['three failures, the last 5 s ago: wait 10 s more', strangers(3, 5000), {}, 10_000],
    ['five failures, the last a minute ago: their 60 s delay has passed', strangers(5, MIN), {}, 'allowed'],
    ['five failures, the last 30 s ago: wait 30 s more', strangers(5, 30_000), {}, 30_000],
    ['seven failures (the strangers’ share): wait for the oldest to leave the hour', strangers(7), {}, 44 * MIN],
    ['seven failures, but from a known-good address: checked', strangers(7), { knownAddress: true }, 'allowed'],
    ['ten failures: even a known-good address waits', strangers(10), { knownAddress: true }, 41 * MIN],
    [
      'a busy address (50 failures on other accounts) is refused as a stranger',
      [],
      { addressFailures: Array.from({ length: 50 }, (_, i) => now - (59 - i) * MIN) },
      MIN,
    ],
    [
      '...but not where the account knows it',
      [],
      { knownAddress: true, addressFailures: Array.from({ length: 50 }, (_, i) => now - (59 - i) * MIN) },
      'allowed',
    ],
  ];
  for (const [name, failures, extra, expected] of rows) {
    it(name, () => {
      const decision = decide(failures, extra);
      if (expected === 'allowed') assert.equal(decision.allowed, true, JSON.stringify(decision));
      else assert.deepEqual(decision, { allowed: false, retryAfterMs: expected });
    });
  }

  it('a known-good address keeps its trust through one typo, not two; a later success forgives them', () => {
    const typo = (forgiven = false): Failure => ({ at: now - MIN, address: HOME, forgiven });
    const base = strangers(6);
    assert.equal(decide([...base, typo()], { knownAddress: true }).allowed, true);
    assert.equal(decide([...base, typo(), typo()], { knownAddress: true }).allowed, false);
    assert.equal(decide([...base, typo(true), typo(true)], { knownAddress: true }).allowed, true);
  });
});
