// The rule of what a report says (RFC 3464 delivery status, RFC 5965 feedback report), as a table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyReport, fieldGroups, type ReportMessage } from './reports';

const DSN = 'multipart/report; report-type=delivery-status; boundary="b1"';
const ARF = 'multipart/report; report-type="feedback-report"; boundary=b2';

function dsn(...recipients: string[]): ReportMessage {
  const perMessage = 'Reporting-MTA: dns; mx.example.net\nArrival-Date: Sun, 29 Nov 2026 10:00:00 +0000';
  return {
    contentType: DSN,
    parts: [{ mimeType: 'message/delivery-status', content: [perMessage, ...recipients].join('\n\n') }],
  };
}

function arf(type: string): ReportMessage {
  return {
    contentType: ARF,
    parts: [
      { mimeType: 'message/feedback-report', content: `Feedback-Type: ${type}\nUser-Agent: FBL/1.0\nVersion: 1\n` },
    ],
  };
}

const failed = (status: string, diagnostic = 'smtp; 550 5.1.1 <a@example.org>: user unknown') =>
  `Final-Recipient: rfc822; a@example.org\nAction: failed\nStatus: ${status}\nDiagnostic-Code: ${diagnostic}`;

describe('classifyReport', () => {
  const rows: [string, ReportMessage, string, RegExp?][] = [
    [
      'a permanent failure is a hard bounce',
      dsn(failed('5.1.1')),
      'hard-bounce',
      /^5\.1\.1 550 5\.1\.1 <a@example\.org>: user unknown$/,
    ],
    [
      'a failure without a status is hard',
      dsn('Final-Recipient: rfc822; a@example.org\nAction: failed'),
      'hard-bounce',
    ],
    [
      'a status with a comment is read',
      dsn(failed('5.2.2 (mailbox full)', 'smtp; 552 full')),
      'hard-bounce',
      /^5\.2\.2 552 full$/,
    ],
    [
      'a failure with a temporary status is soft',
      dsn(failed('4.4.7', 'smtp; 421 timeout')),
      'soft-bounce',
      /^4\.4\.7 421 timeout$/,
    ],
    [
      'a delay is soft',
      dsn('Final-Recipient: rfc822; a@example.org\nAction: delayed\nStatus: 4.7.0\nWill-Retry-Until: Mon, 30 Nov 2026'),
      'soft-bounce',
      /^4\.7\.0$/,
    ],
    [
      'a delivered notice says nothing',
      dsn('Final-Recipient: rfc822; a@example.org\nAction: delivered\nStatus: 2.0.0'),
      'none',
    ],
    ['relayed says nothing', dsn('Final-Recipient: rfc822; a@example.org\nAction: relayed\nStatus: 2.0.0'), 'none'],
    [
      'the strongest of several recipients wins',
      dsn('Action: delayed\nStatus: 4.0.0', failed('5.7.1', 'smtp; 550 policy')),
      'hard-bounce',
      /^5\.7\.1 550 policy$/,
    ],
    [
      'folded fields and upper-case names are read',
      dsn(
        'FINAL-RECIPIENT: rfc822; a@example.org\nACTION: Failed\nSTATUS: 5.1.1\nDiagnostic-Code: smtp; 550 5.1.1\n  user unknown',
      ),
      'hard-bounce',
      /^5\.1\.1 550 5\.1\.1 user unknown$/,
    ],
    [
      'a global delivery status (RFC 6533) is read',
      {
        contentType: 'multipart/report; report-type=global-delivery-status',
        parts: [{ mimeType: 'message/global-delivery-status', content: failed('5.1.1') }],
      },
      'hard-bounce',
    ],
    ['a DSN without its status part says nothing', { contentType: DSN, parts: [] }, 'none'],
    ['a complaint (abuse)', arf('abuse'), 'complaint', /^Feedback-Type: abuse; User-Agent: FBL\/1\.0$/],
    ['fraud is a complaint', arf('fraud'), 'complaint'],
    ['not-spam is not a complaint', arf('not-spam'), 'none'],
    ['an authentication failure report (RFC 6591) is not a complaint', arf('auth-failure'), 'none'],
    [
      'a plain message (an auto-reply) says nothing',
      {
        contentType: 'text/plain; charset=utf-8',
        parts: [{ mimeType: 'message/delivery-status', content: failed('5.1.1') }],
      },
      'none',
    ],
    [
      'another report type says nothing',
      { contentType: 'multipart/report; report-type=disposition-notification', parts: [] },
      'none',
    ],
  ];
  for (const [name, message, kind, detail] of rows) {
    it(name, () => {
      const outcome = classifyReport(message);
      assert.equal(outcome.kind, kind);
      if (detail && 'detail' in outcome) assert.match(outcome.detail, detail);
    });
  }

  it('reads a bounded number of recipient groups and clips the detail', () => {
    const many = Array.from({ length: 5_000 }, () => 'Action: delayed\nStatus: 4.0.0').join('\n\n');
    assert.ok(fieldGroups(many).length <= 101);
    const long = classifyReport(dsn(failed('5.1.1', `smtp; 550 ${'x'.repeat(5_000)}`)));
    assert.ok('detail' in long && long.detail.length <= 1000);
  });
});
