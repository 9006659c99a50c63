import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { recipientToken, trackingUrls, verifyClick, verifyRecipientToken } from './links';

const SECRET = 'test-secret';
const BASE = 'https://t.example';

describe('tracking links', () => {
  it('verifies a recipient token for its purpose only', () => {
    const token = recipientToken(SECRET, 'open', 12345);
    assert.match(token, /^[0-9a-z]+\.[A-Za-z0-9_-]{22}$/);
    assert.equal(verifyRecipientToken(SECRET, 'open', token), 12345);
    assert.equal(verifyRecipientToken(SECRET, 'unsubscribe', token), null, 'another purpose');
    assert.equal(verifyRecipientToken('other-secret', 'open', token), null, 'another secret');
  });

  it('refuses forged, altered and malformed tokens', () => {
    const token = recipientToken(SECRET, 'view', 77);
    const [id, sig] = token.split('.') as [string, string];
    assert.equal(verifyRecipientToken(SECRET, 'view', `${(78).toString(36)}.${sig}`), null, 'another recipient');
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    assert.equal(verifyRecipientToken(SECRET, 'view', `${id}.${flipped}`), null, 'a changed signature');
    for (const bad of [
      '',
      '.',
      id,
      `${id}.`,
      `${id}.short`,
      `0.${sig}`,
      `${id}.${sig}x`,
      `${id.toUpperCase()}X.${sig}`,
    ])
      assert.equal(verifyRecipientToken(SECRET, 'view', bad), null, bad);
  });

  it('builds every address of a recipient under the base', () => {
    const urls = trackingUrls(BASE, SECRET, 42);
    assert.match(urls.open, /^https:\/\/t\.example\/email\/open\/[0-9a-z]+\.[A-Za-z0-9_-]{22}\.gif$/);
    assert.match(urls.unsubscribe, /^https:\/\/t\.example\/email\/unsubscribe\//);
    assert.match(urls.view, /^https:\/\/t\.example\/email\/view\//);
    const open =
      urls.open
        .split('/')
        .pop()
        ?.replace(/\.gif$/, '') ?? '';
    assert.equal(verifyRecipientToken(SECRET, 'open', open), 42);
    assert.equal(verifyRecipientToken(SECRET, 'view', urls.view.split('/').pop() ?? ''), 42);
  });

  it('signs a click for exactly one URL and one recipient', () => {
    const target = 'https://shop.example/a?b=1&c=%20d#e';
    const click = new URL(trackingUrls(BASE, SECRET, 42).click(target));
    assert.equal(click.pathname.split('/')[1], 'email');
    const token = click.pathname.split('/').pop() ?? '';
    assert.equal(click.searchParams.get('u'), target, 'the target travels intact');
    assert.equal(verifyClick(SECRET, token, target), 42);
    assert.equal(verifyClick(SECRET, token, 'https://evil.example/'), null, 'another URL');
    assert.equal(verifyClick(SECRET, token, `${target}x`), null, 'a longer URL');
    const other = new URL(trackingUrls(BASE, SECRET, 43).click(target)).pathname.split('/').pop() ?? '';
    const [, otherSig] = other.split('.');
    assert.equal(
      verifyClick(SECRET, `${(42).toString(36)}.${otherSig}`, target),
      null,
      "another recipient's signature",
    );
    assert.equal(verifyClick('other-secret', token, target), null);
    assert.equal(verifyClick(SECRET, 'nonsense', target), null);
  });

  it('accepts only the canonical recipient id: no leading zero, no upper case', () => {
    // A genuine signature over the non-canonical text itself, as if the secret had signed '0' + id.
    const signed = (purpose: string, payload: string) =>
      createHmac('sha256', createHmac('sha256', SECRET).update(`campaign-link:${purpose}`).digest())
        .update(payload)
        .digest()
        .subarray(0, 16)
        .toString('base64url');
    assert.equal(verifyRecipientToken(SECRET, 'view', `1.${signed('view', '1')}`), 1, 'the canonical form');
    for (const id of ['01', '001', '0a', 'A']) {
      assert.equal(verifyRecipientToken(SECRET, 'view', `${id}.${signed('view', id)}`), null, id);
      assert.equal(verifyRecipientToken(SECRET, 'open', `${id}.${signed('open', id)}`), null, id);
    }
    const target = 'https://shop.example/';
    const token = new URL(trackingUrls(BASE, SECRET, 12345).click(target)).pathname.split('/').pop() ?? '';
    const [id = '', sig = ''] = token.split('.');
    assert.equal(id, '9ix');
    assert.equal(verifyClick(SECRET, token, target), 12345);
    assert.equal(verifyClick(SECRET, `0${id}.${sig}`, target), null, 'a leading zero');
    assert.equal(verifyClick(SECRET, `00${id}.${sig}`, target), null, 'two leading zeros');
    assert.equal(verifyClick(SECRET, `${id.toUpperCase()}.${sig}`, target), null, 'upper case');
  });

  it('keeps click signatures apart from recipient tokens', () => {
    const token = recipientToken(SECRET, 'click', 5);
    assert.equal(verifyClick(SECRET, token, '5'), null);
  });
});
