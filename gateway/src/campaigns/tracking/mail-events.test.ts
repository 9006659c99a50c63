// POST /v1/mail-events: the mail provider's signed bounce and complaint webhook.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { intOf, queryRows } from '../../lib/raw-sql';
import { startGateway, type ErrorBody, type TestGateway } from '../../../test/helpers';
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

const SECRET = 'mail-events-secret';

let gw: TestGateway;
let acme: string;

before(async () => {
  gw = await startGateway({ MAIL_EVENTS_SECRET: SECRET });
  acme = await tenantId(gw, 'Acme DAO');
});
after(() => gw.close());

function sign(body: string, secret = SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function send<T = { accepted: number; ignored: number }>(body: unknown, signature?: string | null) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = {};
  const sig = signature === undefined ? sign(raw) : signature;
  if (sig !== null) headers['x-signature'] = sig;
  return gw.request<T>('/v1/mail-events', { method: 'POST', rawBody: raw, contentType: 'application/json', headers });
}

async function setup(address: string, status: 'subscribed' | 'unsubscribed' = 'subscribed') {
  const contact = await insertContact(gw.handle.db, acme, address, { status });
  const campaign = await insertCampaign(gw.handle.db, acme);
  const [rid = 0] = await insertRecipients(gw.handle.db, acme, campaign, [{ address, contactId: contact }]);
  return { contact, campaign, rid, r36: rid.toString(36) };
}

describe('mail events webhook', () => {
  it('answers 401 without a signature or with a wrong one, changing nothing', async () => {
    const { contact, r36 } = await setup('sig@example.com');
    const body = JSON.stringify({ events: [{ type: 'bounce', recipient_id: r36 }] });
    for (const signature of [
      null,
      '',
      sign(body, 'other-secret'),
      sign(`${body} `),
      'sha256=zz',
      sign(body).toUpperCase().replace('SHA256', 'md5'),
    ]) {
      const r = await send<ErrorBody>(body, signature);
      assert.equal(r.status, 401, String(signature));
      assert.equal(typeof r.body.message, 'string');
    }
    const empty = await gw.request('/v1/mail-events', { method: 'POST' });
    assert.equal(empty.status, 401);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'subscribed');
  });

  it('answers 400 with field errors for a malformed body (signed)', async () => {
    const cases: [unknown, string][] = [
      [{}, 'events'],
      [{ events: [] }, 'events'],
      [{ events: [{ type: 'open', recipient_id: '1' }] }, 'events.0.type'],
      [{ events: [{ type: 'bounce', recipient_id: '1', bounce_type: 'medium' }] }, 'events.0.bounce_type'],
      [{ events: [{ type: 'bounce' }] }, 'events.0.recipient_id'],
      [{ events: [{ type: 'bounce', recipient_id: '1', at: 'yesterday' }] }, 'events.0.at'],
    ];
    for (const [body, field] of cases) {
      const r = await send<ErrorBody>(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.body.errors?.[field], `${field} in ${r.text}`);
    }
    const notJson = await send<ErrorBody>('{"events": [');
    assert.equal(notJson.status, 400);
  });

  it('a hard bounce marks the recipient and the contact bounced, once', async () => {
    const { contact, campaign, rid, r36 } = await setup('hard@example.com');
    const body = {
      events: [
        {
          type: 'bounce',
          recipient_id: r36,
          bounce_type: 'hard',
          detail: '550 5.1.1 user unknown',
          at: '2026-05-01T10:00:00Z',
        },
      ],
    };
    const r = await send(body);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { accepted: 1, ignored: 0 });
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'bounced');
    const row = await recipientRow(gw.handle.db, rid);
    assert.equal(row.status, 'bounced');
    assert.equal(row.error, '550 5.1.1 user unknown');
    let figures = await campaignFigures(gw.handle.db, campaign);
    assert.equal(figures.bounced, 1);
    assert.equal(figures.delivered, 0, 'no longer counted as delivered');
    const again = await send(body);
    assert.deepEqual(again.body, { accepted: 1, ignored: 0 });
    figures = await campaignFigures(gw.handle.db, campaign);
    assert.equal(figures.bounced, 1, 'idempotent');
    assert.deepEqual(
      (await eventsOf(gw.handle.db, rid)).map((e) => e.type),
      ['bounced'],
    );
    const [minute] = await queryRows(
      gw.handle.db,
      sql`select (extract(epoch from minute) * 1000)::float8 as ms, count from campaign_event_minutes
           where campaign_id = ${campaign} and type = 'bounced'`,
    );
    assert.equal(new Date(intOf(minute ?? {}, 'ms')).toISOString(), '2026-05-01T10:00:00.000Z', 'at the time given');
    assert.equal(Number(minute?.count), 1);
  });

  it('a soft bounce is counted on the recipient and does not change the contact', async () => {
    const { contact, campaign, rid, r36 } = await setup('soft@example.com');
    const body = { events: [{ type: 'bounce', recipient_id: r36, bounce_type: 'soft', detail: 'mailbox full' }] };
    assert.equal((await send(body)).status, 200);
    assert.equal((await send(body)).status, 200);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'subscribed');
    const row = await recipientRow(gw.handle.db, rid);
    assert.equal(row.status, 'delivered');
    assert.equal(Number(row.soft_bounces), 2, 'each report counted');
    assert.equal((await campaignFigures(gw.handle.db, campaign)).bounced, 0);
    assert.deepEqual(await eventsOf(gw.handle.db, rid), [
      { type: 'deferred', machine: false, detail: 'Soft bounce: mailbox full' },
    ]);
  });

  it('a complaint marks the contact complained (also an unsubscribed one), once; by Message-ID too', async () => {
    const { contact, campaign, rid, r36 } = await setup('complain@example.com', 'unsubscribed');
    const messageId = `<${r36}.x1y2@mail.example>`;
    await gw.handle.db.execute(sql`update campaign_recipients set message_id = ${messageId} where id = ${rid}`);
    const r = await send({ events: [{ type: 'complaint', message_id: messageId }] });
    assert.deepEqual(r.body, { accepted: 1, ignored: 0 });
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'complained');
    await send({ events: [{ type: 'complaint', recipient_id: r36 }] });
    assert.equal((await campaignFigures(gw.handle.db, campaign)).complained, 1);
    assert.deepEqual(
      (await eventsOf(gw.handle.db, rid)).map((e) => e.type),
      ['complained'],
    );
    // A later hard bounce does not undo the complaint.
    await send({ events: [{ type: 'bounce', recipient_id: r36 }] });
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'complained');
  });

  it('ignores unknown recipients and counts them', async () => {
    const { r36 } = await setup('mixed@example.com');
    const r = await send({
      events: [
        { type: 'complaint', recipient_id: r36 },
        { type: 'bounce', recipient_id: 'zzzzzzzz' },
        { type: 'bounce', recipient_id: 'not base36!' },
        { type: 'bounce', message_id: '<unknown@mail.example>' },
        { type: 'bounce', message_id: `<${r36}.forged@mail.example>` },
      ],
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { accepted: 1, ignored: 4 });
  });
});

describe('mail events webhook without a secret', () => {
  it('answers 404', async () => {
    const off = await startGateway();
    try {
      const body = JSON.stringify({ events: [{ type: 'bounce', recipient_id: '1' }] });
      const r = await off.request('/v1/mail-events', {
        method: 'POST',
        rawBody: body,
        contentType: 'application/json',
        headers: { 'x-signature': sign(body) },
      });
      assert.equal(r.status, 404);
    } finally {
      await off.close();
    }
  });
});
