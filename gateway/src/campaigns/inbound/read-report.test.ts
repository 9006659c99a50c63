// The receiver's bounded reader: top headers and the report part of a multipart/report, whatever
// the line endings, transfer encodings and parts around it; the returned message is not decoded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readReport, UnreadableMessage } from './read-report';

const lines = (...l: string[]) => Buffer.from(l.join('\r\n'));

describe('readReport', () => {
  it('finds the delivery status after a preamble and the text part; decodes the subject', async () => {
    const read = await readReport(
      lines(
        'Subject: =?UTF-8?Q?Undeliverable=3A_unsubscribe-abc?=',
        'Content-Type: multipart/report; report-type=delivery-status;',
        ' boundary="=_b 1"',
        '',
        'This is a MIME message.',
        '--=_b 1',
        'Content-Type: text/plain',
        '',
        'Sorry.',
        '--=_b 1',
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns; mx.example.org',
        '',
        'Action: failed',
        'Status: 5.1.1',
        '--=_b 1',
        'Content-Type: message/rfc822',
        '',
        'Subject: the original',
        '',
        'body',
        '--=_b 1--',
        '',
      ),
    );
    assert.equal(read.subject, 'Undeliverable: unsubscribe-abc');
    assert.match(read.contentType, /^multipart\/report;/);
    assert.equal(read.parts.length, 1);
    assert.equal(read.parts[0]?.mimeType, 'message/delivery-status');
    assert.match(read.parts[0]?.content ?? '', /Action: failed\r?\nStatus: 5\.1\.1/);
  });

  it('reads LF-only mail and a base64 feedback report', async () => {
    const encoded = Buffer.from('Feedback-Type: abuse\r\nVersion: 1\r\n').toString('base64');
    const raw = [
      'Content-Type: multipart/report; report-type=feedback-report; boundary=B',
      '',
      '--B',
      'Content-Type: text/plain',
      '',
      'A complaint.',
      '--B',
      'Content-Type: message/feedback-report',
      'Content-Transfer-Encoding: base64',
      '',
      encoded,
      '--B',
      'Content-Type: text/rfc822-headers',
      '',
      'Subject: x',
      '--B--',
    ].join('\n');
    const read = await readReport(Buffer.from(raw));
    assert.deepEqual(
      read.parts.map((p) => [p.mimeType, p.content]),
      [['message/feedback-report', 'Feedback-Type: abuse\r\nVersion: 1\r\n']],
    );
  });

  it('reads no parts of a message that is not a report, and refuses a header block past 64 KB', async () => {
    const plain = await readReport(lines('Subject: Out of office', 'Content-Type: text/plain', '', 'Away.'));
    assert.deepEqual(plain.parts, []);
    assert.equal(plain.subject, 'Out of office');
    await assert.rejects(readReport(lines(`X-Filler: ${'y'.repeat(70_000)}`, '', 'x')), UnreadableMessage);
  });
});
