// The transactional API against a real SMTP peer: 202 and delivery, idempotency under concurrent
// duplicates and with another body, missing variables, unknown and other tenants' templates, wallet
// recipients, the unsubscribed rule, the plan's volume, a message's status and events, batches of 100
// and 101, permissions, the templates' grid and the template's delivery log, and a stale lease.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type {
  Template,
  TransactionalBatchResult,
  TransactionalMessageStatus,
  TransactionalTemplatePage,
} from '../contracts';
import { queryRows } from '../lib/raw-sql';
import { toChecksumAddress } from '../lib/eip55';
import { startGateway, type TestGateway } from '../../test/helpers';
import { call as plainCall, tenantId } from '../../test/audience-helpers';
import { generousPlans, parseMail, startSmtpPeer, waitUntil, type SmtpPeer } from '../../test/campaign-send-helpers';
import { takeOverExpired } from '../campaigns/sender/lease';
import { enqueueCarrier } from '../campaigns/index';
import { planMessage, writeMessages } from './accept';

const DOMAIN = 'wallet.test';
const RECEIPT = `<mjml><mj-body><mj-section><mj-column>
  <mj-text>Order {{ order.id }}: {{ amount }} paid by {{ contact.first_name }} at {{ community.name }}.</mj-text>
</mj-column></mj-section></mj-body></mjml>`;

let peer: SmtpPeer;
let gw: TestGateway;
let owner: string;
let labOwner: string;
let acme: string;
let receipt: string;
let labTemplate: string;
let marketing: string;

const db = () => gw.handle.db;
type Method = Parameters<typeof plainCall>[1];
/** A call with extra headers (the Idempotency-Key). */
const call = <T = unknown>(
  g: TestGateway,
  method: Method,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => g.request<T>(path, { method, token, body, headers });
const send = (body: unknown, key?: string, who = owner) =>
  call<{ message_id: string }>(gw, 'POST', '/v1/transactional/send', who, body, key ? { 'Idempotency-Key': key } : {});
const good = (to: string, extra: Record<string, unknown> = {}) => ({
  template_id: receipt,
  to,
  data: { order: { id: 'A-1' }, amount: '12 USDC' },
  ...extra,
});
const receivedBy = (address: string) => peer.received.filter((m) => m.to.toLowerCase() === address.toLowerCase());

async function makeTemplate(who: string, name: string, kind: 'transactional' | 'marketing', mjml = RECEIPT) {
  const created = await call<Template>(gw, 'POST', '/v1/templates', who, { name, kind });
  assert.equal(created.status, 201, created.text);
  const saved = await call(gw, 'PATCH', `/v1/templates/${created.body._id}`, who, {
    subject: 'Your receipt {{ order.id }}',
    mjml,
  });
  assert.equal(saved.status, 200, saved.text);
  return created.body._id;
}

before(async () => {
  peer = await startSmtpPeer();
  gw = await startGateway({
    SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
    WALLET_MAIL_DOMAIN: DOMAIN,
    SEND_POOL_SIZE: '2',
    SEND_LEASE_SECONDS: '60',
    JOBS_POLL_SECONDS: '0.5',
  });
  [owner, labOwner] = await Promise.all([gw.login('acmeOwner'), gw.login('labOwner')]);
  acme = await tenantId(gw, 'Acme DAO');
  await generousPlans(db());
  receipt = await makeTemplate(owner, 'Receipt', 'transactional');
  marketing = await makeTemplate(owner, 'Newsletter', 'marketing');
  labTemplate = await makeTemplate(labOwner, 'Lab receipt', 'transactional');
});

after(async () => {
  await gw.close();
  await peer.close();
});

describe('POST /v1/transactional/send', () => {
  it('answers 202 and delivers the merged message to the SMTP peer once', async () => {
    const r = await send(good('buyer@example.org'), 'first-key');
    assert.equal(r.status, 202, r.text);
    await waitUntil(() => receivedBy('buyer@example.org').length > 0, 30_000, 'the receipt at the peer');
    const mail = await parseMail(receivedBy('buyer@example.org')[0]!.raw);
    assert.equal(mail.subject, 'Your receipt A-1');
    assert.match(mail.text ?? '', /Order A-1: 12 USDC paid by/);
    assert.match(String(mail.headers.find((h) => h.key === 'dkim-signature')?.value ?? ''), /d=/);
    const status = await call<TransactionalMessageStatus>(
      gw,
      'GET',
      `/v1/transactional/messages/${r.body.message_id}`,
      owner,
    );
    assert.equal(status.status, 200, status.text);
    await waitUntil(
      async () => {
        const s = await call<TransactionalMessageStatus>(
          gw,
          'GET',
          `/v1/transactional/messages/${r.body.message_id}`,
          owner,
        );
        return s.body.status === 'delivered';
      },
      30_000,
      'delivered',
    );
    const done = await call<TransactionalMessageStatus>(
      gw,
      'GET',
      `/v1/transactional/messages/${r.body.message_id}`,
      owner,
    );
    assert.deepEqual(
      done.body.events.map((e) => e.type),
      ['sent', 'delivered'],
    );
    assert.equal(done.body.to, 'buyer@example.org');
    // The message is in the template's delivery log, found by its id.
    const log = await call<{ records: { address: string }[] }>(
      gw,
      'GET',
      `/v1/transactional/templates/${receipt}/log/recipients?searchString=${r.body.message_id}`,
      owner,
    );
    assert.equal(log.status, 200, log.text);
    assert.deepEqual(
      log.body.records.map((x) => x.address),
      ['buyer@example.org'],
    );
    // Not an e-mail of the campaigns' grid.
    const campaigns = await call<{ records: { name: string }[] }>(gw, 'GET', '/v1/campaigns', owner);
    assert.ok(!campaigns.body.records.some((c) => c.name.startsWith('Transactional')));
  });

  it('sends once for 10 concurrent duplicates of one key, all answered with the same id', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(good('dup@example.org'), 'dup-key')));
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(10).fill(202),
      answers.map((a) => a.text).join('\n'),
    );
    assert.equal(new Set(answers.map((a) => a.body.message_id)).size, 1);
    const rows = await queryRows(
      db(),
      sql`select count(*)::int as n from campaign_recipients where address = 'dup@example.org'`,
    );
    assert.equal(rows[0]?.n, 1);
    await waitUntil(() => receivedBy('dup@example.org').length > 0, 30_000, 'the duplicate at the peer');
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(receivedBy('dup@example.org').length, 1);
    const again = await send(good('dup@example.org'), 'dup-key');
    assert.equal(again.body.message_id, answers[0]!.body.message_id);
  });

  it('refuses the same key with another body (409)', async () => {
    const r = await send(good('other@example.org'), 'dup-key');
    assert.equal(r.status, 409, r.text);
  });

  it('lists the missing merge variables (400)', async () => {
    const r = await send({ template_id: receipt, to: 'x@example.org', data: { amount: 3 } });
    assert.equal(r.status, 400, r.text);
    const body = r.body as unknown as { message: string; errors: Record<string, string[]> };
    assert.deepEqual(Object.keys(body.errors), ['data.order.id']);
    assert.match(body.message, /order\.id/);
  });

  it("answers 404 for an unknown id, another tenant's template and a marketing template", async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', labTemplate, marketing, 'nope']) {
      const r = await send({ template_id: id, to: 'x@example.org', data: {} });
      assert.equal(r.status, 404, `${id}: ${r.text}`);
    }
  });

  it('delivers to a wallet at the wallet mail domain', async () => {
    const wallet = '0x52908400098527886e0f7030069857d2e4169ee7';
    const r = await send(good(wallet));
    assert.equal(r.status, 202, r.text);
    const to = `${toChecksumAddress(wallet)}@${DOMAIN}`;
    await waitUntil(() => peer.received.some((m) => m.to === to), 30_000, 'the wallet message');
  });

  it('refuses a From off the verified domains, and attachments', async () => {
    const from = await send(good('y@example.org', { from: 'me@not-verified.example' }));
    assert.equal(from.status, 400, from.text);
    assert.ok('from' in ((from.body as unknown as { errors: object }).errors ?? {}));
    const att = await send(good('y@example.org', { attachments: [{ filename: 'a.pdf', content: 'AA==' }] }));
    assert.equal(att.status, 400, att.text);
  });

  it('refuses an unsubscribed contact only when the template says so', async () => {
    await db().execute(
      sql`insert into contacts (tenant_id, email, status) values (${acme}::uuid, 'left@example.org', 'unsubscribed')`,
    );
    assert.equal((await send(good('left@example.org'))).status, 202);
    const off = await call(gw, 'PUT', `/v1/transactional/templates/${receipt}/settings`, owner, {
      send_to_unsubscribed: false,
      track_opens: true,
      track_clicks: false,
    });
    assert.equal(off.status, 200, off.text);
    const refused = await send(good('left@example.org'));
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.text, /unsubscribed/);
    await call(gw, 'PUT', `/v1/transactional/templates/${receipt}/settings`, owner, {
      send_to_unsubscribed: true,
      track_opens: true,
      track_clicks: true,
    });
  });

  it('takes batches of 100, answering each message, and refuses 101', async () => {
    const messages = Array.from({ length: 100 }, (_, i) => good(`batch${i}@example.org`));
    messages[7] = { template_id: receipt, to: 'bad address', data: { order: { id: '1' }, amount: '1' } };
    const r = await call<TransactionalBatchResult>(
      gw,
      'POST',
      '/v1/transactional/batch',
      owner,
      { messages },
      {
        'Idempotency-Key': 'batch-1',
      },
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.results.length, 100);
    assert.equal(r.body.results[7]?.status, 400);
    assert.equal(r.body.results.filter((x) => x.status === 202 && x.message_id).length, 99);
    const tooMany = await call(gw, 'POST', '/v1/transactional/batch', owner, {
      messages: [...messages, good('one-more@example.org')],
    });
    assert.equal(tooMany.status, 400, tooMany.text);
    await waitUntil(() => peer.received.filter((m) => m.to.startsWith('batch')).length === 99, 60_000, 'the batch');
  });

  it("refuses a send over the plan's volume (402)", async () => {
    await db().execute(sql`update plan_prices set email_limit = 0`);
    // The volume left is read again at most every second (accept.ts).
    await new Promise((r) => setTimeout(r, 1_100));
    try {
      const r = await send(good('late@example.org'));
      assert.equal(r.status, 402, r.text);
    } finally {
      await generousPlans(db());
      await new Promise((r) => setTimeout(r, 1_100));
    }
  });

  it('refuses staff without transactional_emails (403)', async () => {
    const staff = await gw.login('acmeStaff');
    assert.equal((await send(good('z@example.org'), undefined, staff)).status, 403);
  });

  it('lists the templates with their figures', async () => {
    await waitUntil(
      async () => {
        const page = await call<TransactionalTemplatePage>(
          gw,
          'GET',
          '/v1/transactional/templates?searchString=Rece',
          owner,
        );
        return (page.body.records[0]?.sent_30_days ?? 0) >= 100;
      },
      30_000,
      'the grid counts',
    );
    const page = await call<TransactionalTemplatePage>(gw, 'GET', '/v1/transactional/templates', owner);
    assert.deepEqual(
      page.body.records.map((t) => t.name),
      ['Receipt'],
    );
    assert.ok((page.body.records[0]?.delivery_rate ?? 0) > 0.9);
    assert.ok(page.body.records[0]?.last_sent_at);
  });
});

describe('a stale lease of a carrier', () => {
  it('is taken over: its claimed row is sent once, its handed row is unconfirmed and never sent again', async () => {
    // A template of its own, so no run of its carrier is queued: the rows are left as a worker killed
    // mid-send leaves them, one claimed (sending) and one handed over (handing), under an expired lease.
    const template = await makeTemplate(owner, 'Stale receipt', 'transactional');
    const plan = (to: string) =>
      planMessage(
        db(),
        gw.app.deps.config,
        acme,
        { template_id: template, to, data: { order: { id: 'S' }, amount: '1' } },
        async () => null,
      );
    const [c, d] = [await plan('stale-c@example.org'), await plan('stale-d@example.org')];
    await writeMessages(db(), [{ tenantId: acme, planned: [c, d], idempotency: null }]);
    const [lease] = await queryRows(
      db(),
      sql`insert into campaign_send_leases (campaign_id, worker, expires_at)
          values (${c.carrierId}::uuid, 'killed', now() - interval '1 second') returning id`,
    );
    const epoch = Number(lease!.id);
    const rowOf = sql`(select recipient_id from transactional_messages where id = `;
    await db().execute(
      sql`update campaign_recipients set status = 'sending', claim_epoch = ${epoch}, attempts = 1
           where id = ${rowOf}${c.messageId}::uuid)`,
    );
    await db().execute(
      sql`update campaign_recipients set status = 'handing', claim_epoch = ${epoch}, attempts = 1, sent_at = now()
           where id = ${rowOf}${d.messageId}::uuid)`,
    );
    const stateOf = async (id: string) =>
      (await call<TransactionalMessageStatus>(gw, 'GET', `/v1/transactional/messages/${id}`, owner)).body;
    await takeOverExpired(db());
    const unconfirmed = await stateOf(d.messageId);
    assert.equal(unconfirmed.status, 'unconfirmed');
    assert.ok(unconfirmed.events.some((e) => e.type === 'unconfirmed'));
    assert.equal((await stateOf(c.messageId)).status, 'queued');
    await enqueueCarrier(gw.app.deps.jobs, c.carrierId);
    await waitUntil(
      () => receivedBy('stale-c@example.org').length === 1,
      30_000,
      'the claimed row sent after takeover',
    );
    await waitUntil(async () => (await stateOf(c.messageId)).status === 'delivered', 30_000, 'delivered');
    assert.equal(receivedBy('stale-c@example.org').length, 1);
    assert.equal(receivedBy('stale-d@example.org').length, 0);
    assert.equal((await stateOf(d.messageId)).status, 'unconfirmed');
  });
});
