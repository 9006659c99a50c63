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

/** `n` failures from one address, `gapMs` apart, the newest `ageMs` ago. */
function from(address: string, n: number, ageMs = 10 * MIN, gapMs = MIN): Failure[] {
  return Array.from({ length: n }, (_, i) => ({ at: now - ageMs - (n - 1 - i) * gapMs, address, forgiven: false }));
}

type Expected = 'password' | 'link' | number;

describe('the guessing rule', () => {
  it('delays an address after its free failures on the account, doubling each time', () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6].map((n) => strangerDelayMs(n, policy) / 1000),
      [0, 0, 0, 15, 30, 60, 120],
    );
  });

  const SPRAYED = Array.from({ length: 50 }, (_, i) => now - (59 - i) * MIN);
  const rows: [string, Failure[], { knownAddress?: boolean; addressFailures?: number[] }, Expected][] = [
    ['no failures: checked', [], {}, 'password'],
    ['two typos of its own a second ago: checked', from(HOME, 2, 1000), {}, 'password'],
    ['three failures of its own, the last 5 s ago: wait 10 s more', from(HOME, 3, 5000), {}, 10_000],
    ['five of its own, the last a minute ago: their 60 s delay has passed', from(HOME, 5, MIN), {}, 'password'],
    ['five of its own, the last 30 s ago: wait 30 s more', from(HOME, 5, 30_000), {}, 30_000],
    // A throttle slows the guesser, not the owner (docs/auth.md, "Sign-in limits"): one address's failures never hold back another address.
    [
      'six failures from another address a second ago: this clean address is checked',
      from('198.51.100.7', 6, 1000),
      {},
      'password',
    ],
    ['six strangers, one failure each: still checked', strangers(6, 1000, 100), {}, 'password'],
    ['seven failures (the strangers’ share) from many addresses: a sign-in link instead', strangers(7), {}, 'link'],
    ['seven failures, but from a known-good address: checked', strangers(7), { knownAddress: true }, 'password'],
    ['ten failures: even a known-good address gets a link', strangers(10), { knownAddress: true }, 'link'],
    [
      'the share reached, and this address is in its own delay: it waits',
      [...strangers(6), ...from(HOME, 4, 1000)],
      {},
      29_000,
    ],
    ['a busy address (50 failures on other accounts) is refused as a stranger', [], { addressFailures: SPRAYED }, MIN],
    ['...but not where the account knows it', [], { knownAddress: true, addressFailures: SPRAYED }, 'password'],
  ];
  for (const [name, failures, extra, expected] of rows) {
    it(name, () => {
      const decision = decide(failures, extra);
      if (typeof expected === 'number') assert.deepEqual(decision, { allowed: false, retryAfterMs: expected });
      else assert.equal(decision.allowed && decision.mode, expected, JSON.stringify(decision));
    });
  }

  it('a link-mode decision says when the account-wide limit frees', () => {
    const decision = decide(strangers(7));
    assert.ok(decision.allowed && decision.mode === 'link');
    assert.equal(decision.untilMs, now + 44 * MIN, 'when the oldest of the seven leaves the hour');
  });

  it('a known-good address keeps its trust through one typo, not two; a later success forgives them', () => {
    const typo = (forgiven = false): Failure => ({ at: now - MIN, address: HOME, forgiven });
    const base = strangers(6);
    const mode = (failures: Failure[]) => {
      const d = decide(failures, { knownAddress: true });
      return d.allowed ? d.mode : 'held';
    };
    assert.equal(mode([...base, typo()]), 'password');
    assert.equal(mode([...base, typo(), typo()]), 'link', 'a stranger now: the account has its 7 + 1 failures');
    assert.equal(mode([...base, typo(true), typo(true)]), 'password');
  });
});
