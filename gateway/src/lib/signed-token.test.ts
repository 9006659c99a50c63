import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signToken, verifyToken } from './signed-token';

const secret = new TextEncoder().encode('a-test-secret-that-is-long-enough-for-hmac');
const now = 1_800_000_000_000;

describe('signed tokens', () => {
  it('round-trips its claims until it expires', () => {
    const token = signToken(secret, 'purpose-a/v1', { s: 'session-1', n: 3 }, now + 1000);
    assert.deepEqual(verifyToken(secret, 'purpose-a/v1', token, now), { s: 'session-1', n: 3, e: now + 1000 });
    assert.equal(verifyToken(secret, 'purpose-a/v1', token, now + 1000), null, 'expired at its expiry');
  });

  it('refuses another purpose, another secret, a tampered payload or signature, and junk', () => {
    const token = signToken(secret, 'purpose-a/v1', { s: 'session-1' }, now + 1000);
    const [payload = '', signature = ''] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ s: 'session-2', e: now + 1000 })).toString('base64url');
    const other = new TextEncoder().encode('another-secret-that-is-long-enough-for-hmac');
    for (const [label, t, key, purpose] of [
      ['other purpose', token, secret, 'purpose-b/v1'],
      ['other secret', token, other, 'purpose-a/v1'],
      ['forged payload', `${forged}.${signature}`, secret, 'purpose-a/v1'],
      ['cut signature', `${payload}.${signature.slice(1)}`, secret, 'purpose-a/v1'],
      ['extra part', `${token}.x`, secret, 'purpose-a/v1'],
      ['no signature', payload, secret, 'purpose-a/v1'],
      ['junk', 'not-a-token', secret, 'purpose-a/v1'],
    ] as const) {
      assert.equal(verifyToken(key, purpose, t, now), null, label);
    }
  });

  it('refuses a genuine signature over a payload without a numeric expiry', () => {
    // Signed by the module itself, so only the payload check can refuse it.
    const token = signToken(secret, 'purpose-a/v1', { e: 'soon' }, Number.NaN);
    assert.equal(verifyToken(secret, 'purpose-a/v1', token, now), null);
  });
});
