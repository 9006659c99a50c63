import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recipientOfToken, recipientToken } from './recipient-token';

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
});
