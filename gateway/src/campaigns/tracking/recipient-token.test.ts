import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recipientOfSignedToken, recipientOfToken, recipientToken, signedRecipientToken } from './recipient-token';

describe('recipient tokens', () => {
  it('are opaque, 22 characters, and read back to the row id with the same secret only', () => {
    const a = recipientToken('secret', 1);
    const b = recipientToken('secret', 2);
    assert.match(a, /^[A-Za-z0-9_-]{22}$/);
    assert.notEqual(a.slice(0, 4), b.slice(0, 4), 'neighbouring ids share nothing visible');
    assert.equal(recipientOfToken('secret', a), 1);
    assert.equal(recipientOfToken('secret', b), 2);
    assert.equal(
      recipientOfToken('secret', recipientToken('secret', Number.MAX_SAFE_INTEGER)),
      Number.MAX_SAFE_INTEGER,
    );
    assert.equal(recipientOfToken('other', a), null);
  });

  it('refuse anything else: base-36 ids, altered or short tokens', () => {
    const t = recipientToken('secret', 42);
    const altered = (t[0] === 'A' ? 'B' : 'A') + t.slice(1);
    for (const bad of ['16', '', altered, t.slice(1), `${t}A`, 'A'.repeat(22), t.replace(/./, '+')]) {
      assert.equal(recipientOfToken('secret', bad), null, bad);
    }
  });

  it('signed for a purpose: lower-case base32, read back in any case, refused for another purpose or secret', () => {
    const t = signedRecipientToken('secret', 'bounce', 42);
    assert.match(t, /^[a-z2-7]{39}$/);
    assert.equal(recipientOfSignedToken('secret', 'bounce', t), 42);
    assert.equal(recipientOfSignedToken('secret', 'bounce', t.toUpperCase()), 42);
    assert.equal(recipientOfSignedToken('secret', 'unsubscribe', t), null);
    assert.equal(recipientOfSignedToken('other', 'bounce', t), null);
    assert.equal(recipientOfSignedToken('secret', 'unsubscribe', signedRecipientToken('secret', 'unsubscribe', 7)), 7);
  });

  it('signed: a changed character, a short or long token, or a bare token is refused', () => {
    const t = signedRecipientToken('secret', 'bounce', 42);
    const flip = (i: number) => t.slice(0, i) + (t[i] === 'a' ? 'b' : 'a') + t.slice(i + 1);
    for (const bad of [flip(0), flip(20), flip(30), flip(38), t.slice(1), `${t}a`, '', recipientToken('secret', 42)]) {
      assert.equal(recipientOfSignedToken('secret', 'bounce', bad), null, bad);
    }
  });
});
