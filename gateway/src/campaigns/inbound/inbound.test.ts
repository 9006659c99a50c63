// The inbound SMTP receiver over real SMTP (nodemailer as the sending server): delivery status
// notifications (RFC 3464) and complaint reports (RFC 5965) sent to a recipient's VERP address mark the
// contact and the delivery log's row; a soft bounce is only counted; forged addresses are refused at
// RCPT; the List-Unsubscribe mailbox unsubscribes by the subject's signed token.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import nodemailer from 'nodemailer';
import type { DeliveryRecipientPage } from '../../contracts';
import { startGateway, type TestGateway } from '../../../test/helpers';
import { tenantId } from '../../../test/audience-helpers';
import {
  campaignFigures,
  contactStatusOf,
  eventsOf,
  insertCampaign,
  insertContact,
  insertRecipients,
  recipientRow,
} from '../log/test-fixtures';
import { unsubscribeMailto, verpAddress } from './addresses';
import { startInboundReceiver, type InboundReceiver } from './receiver';

let gw: TestGateway;
let acme: string;
let receiver: InboundReceiver;
let transport: nodemailer.Transporter;

before(async () => {
  gw = await startGateway({ MAIL_FROM: 'Console <no-reply@console.test>', INBOUND_MAX_BYTES: '200000' });
  acme = await tenantId(gw, 'Acme DAO');
  receiver = await startInboundReceiver({
    db: gw.handle.db,
    config: gw.config,
    log: gw.app.log,
    clock: () => new Date(),
  });
  transport = nodemailer.createTransport({ host: '127.0.0.1', port: receiver.port, secure: false, ignoreTLS: true });
});
after(async () => {
  transport?.close();
  await receiver?.close();
  await gw?.close();
});

async function setup(address: string) {
  const contact = await insertContact(gw.handle.db, acme, address);
  const campaign = await insertCampaign(gw.handle.db, acme);
  const [rid = 0] = await insertRecipients(gw.handle.db, acme, campaign, [{ address, contactId: contact }]);
  return { contact, campaign, rid, verp: verpAddress(gw.config.campaigns, rid) };
}

/** Sends `raw` as a bounce does (null envelope sender); the server's answer, or its refusal. */
async function deliver(to: string, raw: string): Promise<{ code: number; text: string }> {
  try {
    const info = await transport.sendMail({ envelope: { from: '', to }, raw });
    return { code: 250, text: info.response };
  } catch (error) {
    const e = error as { responseCode?: number; response?: string; message: string };
    return { code: e.responseCode ?? 0, text: e.response ?? e.message };
  }
}

function report(to: string, reportType: string, partType: string, fields: string, original = ''): string {
  return [
    'From: Mail Delivery System <mailer-daemon@mx.example.org>',
    `To: ${to}`,
    'Subject: Delivery Status Notification',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=${reportType}; boundary="REPORT"`,
    '',
    '--REPORT',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Your message could not be delivered.',
    '',
    '--REPORT',
    `Content-Type: ${partType}`,
    '',
    fields,
    '',
    '--REPORT',
    'Content-Type: message/rfc822',
    '',
    original || 'From: Acme <news@acme.example>\r\nSubject: Hello\r\n\r\nHi',
    '--REPORT--',
    '',
  ].join('\r\n');
}

const dsn = (to: string, recipient: string, action: string, status: string, diagnostic: string) =>
  report(
    to,
    'delivery-status',
    'message/delivery-status',
    `Reporting-MTA: dns; mx.example.org\r\n\r\nFinal-Recipient: rfc822; ${recipient}\r\nAction: ${action}\r\n` +
      `Status: ${status}\r\nDiagnostic-Code: smtp; ${diagnostic}`,
  );

describe('inbound receiver', () => {
  it('a hard bounce (DSN 5.1.1) marks the contact and the delivery log row bounced', async () => {
    const { contact, campaign, rid, verp } = await setup('gone@example.org');
    const answer = await deliver(verp, dsn(verp, 'gone@example.org', 'failed', '5.1.1', '550 5.1.1 user unknown'));
    assert.equal(answer.code, 250, answer.text);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'bounced');
    const row = await recipientRow(gw.handle.db, rid);
    assert.equal(row.status, 'bounced');
    assert.equal(row.error, '5.1.1 550 5.1.1 user unknown');
    const figures = await campaignFigures(gw.handle.db, campaign);
    assert.equal(figures.bounced, 1);
    assert.equal(figures.delivered, 0, 'no longer counted as delivered');
    assert.deepEqual(await eventsOf(gw.handle.db, rid), [
      { type: 'bounced', machine: false, detail: '5.1.1 550 5.1.1 user unknown' },
    ]);
  });

  it('offers STARTTLS only with a certificate, and takes a bounce over TLS', async () => {
    const fixtures = fileURLToPath(new URL('../../../test/fixtures/inbound-tls/', import.meta.url));
    const [keyFile, certFile] = [`${fixtures}key.pem`, `${fixtures}cert.pem`];
    const inbound = { ...gw.config.campaigns.inbound, tls: { keyFile, certFile } };
    const withTls = await startInboundReceiver({
      db: gw.handle.db,
      config: { ...gw.config, campaigns: { ...gw.config.campaigns, inbound } },
      log: gw.app.log,
      clock: () => new Date(),
    });
    const ca = await readFile(certFile);
    const tlsOnly = (port: number) =>
      nodemailer.createTransport({
        host: '127.0.0.1',
        port,
        secure: false,
        requireTLS: true,
        tls: { ca, servername: 'localhost' },
      });
    try {
      const { contact, verp } = await setup('tls-gone@example.org');
      const secured = tlsOnly(withTls.port);
      const info = await secured.sendMail({
        envelope: { from: '', to: verp },
        raw: dsn(verp, 'tls-gone@example.org', 'failed', '5.1.1', '550 5.1.1 user unknown'),
      });
      secured.close();
      assert.match(info.response, /^250/);
      assert.equal(await contactStatusOf(gw.handle.db, contact), 'bounced');
      // Without a certificate the receiver offers no STARTTLS: a client that requires it gives up.
      const refused = tlsOnly(receiver.port);
      await assert.rejects(
        refused.sendMail({ envelope: { from: '', to: verp }, raw: 'Subject: x\r\n\r\nx' }),
        /STARTTLS/,
      );
      refused.close();
    } finally {
      await withTls.close();
    }
  });

  it('a complaint (ARF abuse report) marks the contact complained and counts it', async () => {
    const { contact, campaign, rid, verp } = await setup('angry@example.org');
    const arf = report(
      verp,
      'feedback-report',
      'message/feedback-report',
      'Feedback-Type: abuse\r\nUser-Agent: ExampleFBL/1.0\r\nVersion: 1\r\nOriginal-Rcpt-To: angry@example.org',
    );
    assert.equal((await deliver(verp, arf)).code, 250);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'complained');
    assert.equal((await campaignFigures(gw.handle.db, campaign)).complained, 1);
    assert.deepEqual(await eventsOf(gw.handle.db, rid), [
      { type: 'complained', machine: false, detail: 'Feedback-Type: abuse; User-Agent: ExampleFBL/1.0' },
    ]);
  });

  it('a soft bounce (delayed, 4.x.x) is counted on the row and marks nobody', async () => {
    const { contact, campaign, rid, verp } = await setup('full@example.org');
    const delayed = dsn(verp, 'full@example.org', 'delayed', '4.2.2', '452 4.2.2 mailbox full');
    assert.equal((await deliver(verp, delayed)).code, 250);
    assert.equal((await deliver(verp, delayed)).code, 250);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'subscribed');
    const row = await recipientRow(gw.handle.db, rid);
    assert.equal(row.status, 'delivered');
    assert.equal(Number(row.soft_bounces), 2);
    assert.equal((await campaignFigures(gw.handle.db, campaign)).bounced, 0);
    // The delivery log's grid shows the count.
    const owner = await gw.login('acmeOwner');
    const grid = await gw.get<DeliveryRecipientPage>(`/v1/campaigns/${campaign}/log/recipients`, owner);
    assert.equal(grid.body.records.find((r) => r._id === String(rid))?.soft_bounces, 2, grid.text);
  });

  it('an auto-reply to the VERP address is taken and changes nothing', async () => {
    const { contact, rid, verp } = await setup('away@example.org');
    const reply = `From: away@example.org\r\nTo: ${verp}\r\nSubject: Out of office\r\nAuto-Submitted: auto-replied\r\n\r\nBack Monday.\r\n`;
    assert.equal((await deliver(verp, reply)).code, 250);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'subscribed');
    assert.equal((await recipientRow(gw.handle.db, rid)).status, 'delivered');
  });

  it('refuses forged or foreign addresses at RCPT TO, changing nothing', async () => {
    const { contact, rid, verp } = await setup('target@example.org');
    const [local = '', domain = ''] = verp.split('@');
    const flipped = local.slice(0, -5) + (local.at(-5) === 'a' ? 'b' : 'a') + local.slice(-4);
    const otherSecret = verpAddress({ ...gw.config.campaigns, trackingSecret: 'another secret' }, rid);
    for (const to of [
      `${flipped}@${domain}`,
      otherSecret,
      `${local}@elsewhere.example`,
      `postmaster@${domain}`,
      'someone@example.org',
    ]) {
      const answer = await deliver(to, dsn(to, 'target@example.org', 'failed', '5.1.1', '550 user unknown'));
      assert.equal(answer.code, 550, `${to}: ${answer.text}`);
    }
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'subscribed');
    assert.equal((await recipientRow(gw.handle.db, rid)).status, 'delivered');
    // The address in another case is the same address (local parts may be upper-cased on the way).
    const upper = `${local.toUpperCase()}@${domain}`;
    assert.equal((await deliver(upper, dsn(upper, 'x', 'failed', '5.1.1', '550'))).code, 250);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'bounced');
  });

  it('refuses a message over INBOUND_MAX_BYTES with 552', async () => {
    const { contact, verp } = await setup('big@example.org');
    const big = dsn(verp, 'big@example.org', 'failed', '5.1.1', `550 ${'x'.repeat(250_000)}`);
    const answer = await deliver(verp, big);
    assert.equal(answer.code, 552, answer.text);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'subscribed');
  });

  it('reads the report before a large returned message; refuses a header block past its limit with 550', async () => {
    const { contact, verp } = await setup('returned@example.org');
    const original = `From: news@acme.example\r\nSubject: Hello\r\n\r\n${'<p>news of the month</p>\r\n'.repeat(6_000)}`;
    const fields = `Reporting-MTA: dns; mx.example.org\r\n\r\nFinal-Recipient: rfc822; returned@example.org\r\nAction: failed\r\nStatus: 5.1.1`;
    const bounce = report(verp, 'delivery-status', 'message/delivery-status', fields, original);
    assert.ok(bounce.length > 150_000);
    assert.equal((await deliver(verp, bounce)).code, 250);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'bounced');

    const other = await setup('headers@example.org');
    const huge = `X-Filler: ${'y'.repeat(70_000)}\r\n${dsn(other.verp, 'x', 'failed', '5.1.1', '550')}`;
    const answer = await deliver(other.verp, huge);
    assert.equal(answer.code, 550, answer.text);
    assert.equal(await contactStatusOf(gw.handle.db, other.contact), 'subscribed');
  });

  it('the mailto unsubscribe with its signed subject unsubscribes the recipient; a forged subject is refused', async () => {
    const { contact, campaign, rid } = await setup('leaving@example.org');
    const mailto = new URL(unsubscribeMailto(gw.config.campaigns, rid) ?? '');
    const mailbox = mailto.pathname;
    assert.equal(mailbox, 'unsubscribe@bounces.console.test');
    const subject = mailto.searchParams.get('subject') ?? '';
    const forged = subject.slice(0, -3) + (subject.at(-3) === 'a' ? 'b' : 'a') + subject.slice(-2);
    const mail = (s: string) => `From: leaving@example.org\r\nTo: ${mailbox}\r\nSubject: ${s}\r\n\r\n\r\n`;
    const refused = await deliver(mailbox, mail(forged));
    assert.equal(refused.code, 550, refused.text);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'subscribed');
    assert.equal((await deliver(mailbox, mail(subject))).code, 250);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'unsubscribed');
    assert.ok((await recipientRow(gw.handle.db, rid)).unsubscribed_at, 'the row records the unsubscribe');
    assert.equal((await campaignFigures(gw.handle.db, campaign)).unsubscribed, 1);
  });
});
