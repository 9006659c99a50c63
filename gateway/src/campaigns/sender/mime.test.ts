// The campaign MIME builder (mime.ts): what postal-mime (a mail client's parser) reads back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import PostalMime from 'postal-mime';
import { buildMime, quotedPrintable, sharedHeaders } from './mime';

describe('quoted-printable', () => {
  it('keeps lines within 76 characters, never splits an =XX, encodes a trailing space', () => {
    const samples = [
      'plain ascii line',
      'é'.repeat(200),
      `${'a'.repeat(74)}é${'b'.repeat(100)}`,
      'trailing space \nnext\t',
      '= equals = everywhere ==='.repeat(10),
      '🎉 emoji and Ünïcode '.repeat(20),
      '.a line that starts with a dot\n..two\r\n.',
      `${'a'.repeat(75)}.after a soft break`,
      'line\rwith a lone CR, \ud83c alone',
    ];
    for (const sample of samples) {
      const encoded = quotedPrintable(sample);
      for (const line of encoded.split('\r\n')) {
        assert.ok(line.length <= 76, `${line.length}: ${line}`);
        assert.ok(!/[ \t]$/.test(line), 'no bare trailing white space');
        assert.match(line, /^[\x20-\x7e]*$/);
        assert.ok(!line.startsWith('.'), 'a line never starts with a dot (no SMTP dot-stuffing needed)');
      }
      // Decoded as a reader would: soft breaks removed, =XX bytes.
      const decoded = Buffer.from(
        encoded
          .replace(/=\r\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
        'latin1',
      ).toString('utf8');
      assert.equal(decoded, Buffer.from(sample.replace(/\r\n|\r|\n/g, '\r\n'), 'utf8').toString('utf8'));
    }
  });
});

describe('buildMime', () => {
  it('reads back as the same message: headers encoded, both parts, Unicode intact', async () => {
    const shared = sharedHeaders({
      from: { name: 'Grüße DAO, "Inc."', address: 'news@dao.test' },
      replyTo: 'reply@dao.test',
    });
    const html = `<p>Hello Ünïcode 🎉 <a href="https://example.org/?a=1&amp;b=2">link</a></p>${'<p>long '.repeat(300)}`;
    const raw = buildMime(shared, {
      to: 'reader@bücher.test',
      subject: 'Hello Zoë 🎉 — news from the DAO, a rather long subject line that needs folding',
      messageId: '<c1.42@dao.test>',
      html,
      text: 'Hello Zoë\nhttps://example.org/?a=1&b=2\n',
      headers: { 'List-Unsubscribe': '<https://t.test/u/x>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      date: new Date('2026-11-26T10:00:00Z'),
    });
    const text = raw.toString('utf8');
    for (const line of text.split('\r\n')) assert.ok(line.length <= 998, 'RFC 5322 line limit');
    const mail = await PostalMime.parse(raw);
    assert.deepEqual(mail.from, { address: 'news@dao.test', name: 'Grüße DAO, "Inc."' });
    assert.equal(mail.to?.[0]?.address, 'reader@xn--bcher-kva.test');
    assert.equal(mail.replyTo?.[0]?.address, 'reply@dao.test');
    assert.equal(mail.subject, 'Hello Zoë 🎉 — news from the DAO, a rather long subject line that needs folding');
    assert.equal(mail.messageId, '<c1.42@dao.test>');
    assert.equal(mail.date, '2026-11-26T10:00:00.000Z');
    // postal-mime keeps a part's last line break (the one before the boundary belongs to the boundary).
    assert.equal(mail.html?.replace(/\r?\n$/, ''), html);
    assert.equal(mail.text?.replace(/\r?\n$/, ''), 'Hello Zoë\nhttps://example.org/?a=1&b=2\n');
    const names = mail.headers.map((h) => h.key);
    for (const name of ['list-unsubscribe', 'list-unsubscribe-post', 'mime-version', 'content-type']) {
      assert.ok(names.includes(name), name);
    }
    assert.equal(names.filter((n) => n === 'from').length, 1);
    assert.ok(!names.includes('content-transfer-encoding'), 'no encoding header at the top (multipart)');
  });
});
