// Outgoing webhooks over HTTP: endpoints per tenant (api_access), the Standard Webhooks signature checked
// independently, delivery events from the mail provider's webhook, retries with the attempts log, the test
// event, and address refusals at save time and at delivery.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { after, before, describe, it } from 'node:test';
import type { WebhookAttempt, WebhookAttemptPage, WebhookEndpoint } from '../contracts';
import { startGateway, type ErrorBody, type TestGateway } from '../../test/helpers';
import { call, tenantId } from '../../test/audience-helpers';
import { insertCampaign, insertContact, insertRecipients } from '../campaigns/log/test-fixtures';
import { enqueueCampaign } from '../campaigns/index';
import { queryRows } from '../lib/raw-sql';
import { sql } from 'drizzle-orm';
import {
  createCampaign,
  createList,
  generousPlans,
  insertContacts,
  TEMPLATE_MJML,
  waitForStatus,
} from '../../test/campaign-send-helpers';
import { startReceiver, type Received, type TestReceiver } from './test-receiver';
import type { Resolver } from '../lib/guarded-lookup';

const MAIL_SECRET = 'webhooks-mail-events';

let gw: TestGateway;
let receiver: TestReceiver;
// Lab Rats (GROW UP) is the seeded tenant whose plan includes api_access; Acme's (START UP) does not.
let owner: string;
let lab: string;

before(async () => {
  receiver = await startReceiver();
  gw = await startGateway({
    WEBHOOKS_ALLOW_LOOPBACK: '1',
    // Retries at once (1 s, then 1 s): the schedule's rule is the same, its delays are a setting.
    WEBHOOK_RETRY_SECONDS: '1,1',
    JOBS_POLL_SECONDS: '0.5',
    MAIL_EVENTS_SECRET: MAIL_SECRET,
  });
  owner = await gw.login('labOwner');
  lab = await tenantId(gw, 'Lab Rats');
});
after(async () => {
  await gw.close();
  await receiver.close();
});

const ctx = () => {
  const c = gw.app.deps.webhooks;
  if (!c) throw new Error('no webhooks context');
  return c;
};

async function addEndpoint(body: Record<string, unknown>, token = owner) {
  return call<WebhookEndpoint & ErrorBody>(gw, 'POST', '/v1/webhooks/endpoints', token, body);
}

/** The Standard Webhooks check, written from the spec, not from the gateway's code. */
function verify(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const timestamp = String(r.headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${r.body}`).digest('base64');
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((s) => s === `v1,${expected}`);
}

function mailEvent(body: unknown) {
  const raw = JSON.stringify(body);
  const signature = `sha256=${createHmac('sha256', MAIL_SECRET).update(raw).digest('hex')}`;
  return gw.request('/v1/mail-events', {
    method: 'POST',
    rawBody: raw,
    contentType: 'application/json',
    headers: { 'x-signature': signature },
  });
}

describe('endpoints', () => {
  it('are created with a whsec_ secret, listed, edited and deleted; bad input is a 400 naming the field', async () => {
    const created = await addEndpoint({ url: receiver.url, events: ['bounced'], description: 'Local' });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.events, ['bounced']);
    const secret = await call<{ secret: string }>(
      gw,
      'GET',
      `/v1/webhooks/endpoints/${created.body._id}/secret`,
      owner,
    );
    assert.match(secret.body.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.equal(Buffer.from(secret.body.secret.slice(6), 'base64').length, 24);
    const rotated = await call<{ secret: string }>(
      gw,
      'POST',
      `/v1/webhooks/endpoints/${created.body._id}/rotate-secret`,
      owner,
    );
    assert.notEqual(rotated.body.secret, secret.body.secret);
    const edited = await call<WebhookEndpoint>(gw, 'PATCH', `/v1/webhooks/endpoints/${created.body._id}`, owner, {
      events: ['opened', 'clicked'],
    });
    assert.deepEqual(edited.body.events, ['opened', 'clicked']);
    const list = await call<{ records: WebhookEndpoint[] }>(gw, 'GET', '/v1/webhooks/endpoints', owner);
    assert.ok(list.body.records.some((e) => e._id === created.body._id));

    for (const [body, field] of [
      [{ url: receiver.url, events: [] }, 'events'],
      [{ url: receiver.url, events: ['read'] }, 'events.0'],
      [{ url: 'ftp://example.com/x', events: ['sent'] }, 'url'],
      [{ url: 'not a url', events: ['sent'] }, 'url'],
      [{ events: ['sent'] }, 'url'],
    ] as const) {
      const r = await addEndpoint(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.body.errors?.[field], `${JSON.stringify(body)}: ${r.text}`);
    }

    const gone = await call(gw, 'DELETE', `/v1/webhooks/endpoints/${created.body._id}`, owner);
    assert.equal(gone.status, 200);
    assert.equal((await call(gw, 'GET', `/v1/webhooks/endpoints/${created.body._id}`, owner)).status, 404);
  });

  it("a tenant's endpoints are invisible to another tenant (404); staff without api_access and a plan without it get 403", async () => {
    const created = await addEndpoint({ url: receiver.url, events: ['sent'] });
    assert.equal(created.status, 201, created.text);
    // The platform's own tenant (SCALE UP) holds api_access too.
    const other = await gw.login('admin');
    const id = created.body._id;
    for (const [method, path] of [
      ['GET', `/v1/webhooks/endpoints/${id}`],
      ['PATCH', `/v1/webhooks/endpoints/${id}`],
      ['DELETE', `/v1/webhooks/endpoints/${id}`],
      ['GET', `/v1/webhooks/endpoints/${id}/secret`],
      ['POST', `/v1/webhooks/endpoints/${id}/rotate-secret`],
      ['POST', `/v1/webhooks/endpoints/${id}/test`],
      ['GET', `/v1/webhooks/endpoints/${id}/attempts`],
    ] as const) {
      const r = await call(gw, method, path, other, method === 'PATCH' ? { description: 'x' } : undefined);
      assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
    }
    const otherList = await call<{ records: WebhookEndpoint[] }>(gw, 'GET', '/v1/webhooks/endpoints', other);
    assert.equal(otherList.status, 200, otherList.text);
    assert.ok(!otherList.body.records.some((e) => e._id === id));
    const staff = await gw.login('acmeStaff');
    const noPermission = await call<ErrorBody>(gw, 'GET', '/v1/webhooks/endpoints', staff);
    assert.equal(noPermission.status, 403);
    assert.equal(noPermission.body.message, 'You do not have permission to do this.');
    assert.equal((await addEndpoint({ url: receiver.url, events: ['sent'] }, staff)).status, 403);
    const startup = await call<ErrorBody>(gw, 'GET', '/v1/webhooks/endpoints', await gw.login('acmeOwner'));
    assert.equal(startup.status, 403);
    assert.equal(startup.body.message, 'Your plan does not include this feature. Upgrade your plan to use it.');
    assert.equal(receiver.received.length, 0, 'nothing was sent');
    await call(gw, 'DELETE', `/v1/webhooks/endpoints/${id}`, owner);
  });
});

describe('delivery', () => {
  it('the test event arrives signed (checked independently) and is in the attempts log', async () => {
    const created = await addEndpoint({ url: receiver.url, events: ['sent'] });
    const id = created.body._id;
    const { body: secret } = await call<{ secret: string }>(gw, 'GET', `/v1/webhooks/endpoints/${id}/secret`, owner);
    const before = receiver.received.length;
    const sent = await call<{ attempt: WebhookAttempt }>(gw, 'POST', `/v1/webhooks/endpoints/${id}/test`, owner);
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.body.attempt.status_code, 200);
    assert.equal(sent.body.attempt.state, 'delivered');
    const got = receiver.received[before];
    assert.ok(got, 'the receiver got the test event');
    assert.equal(got.headers['webhook-id'], sent.body.attempt.event_id);
    assert.ok(verify(secret.secret, got), 'the signature verifies');
    assert.ok(!verify(`whsec_${Buffer.alloc(24).toString('base64')}`, got), 'another key does not');
    const ts = Number(got.headers['webhook-timestamp']);
    assert.ok(Math.abs(ts - Date.now() / 1000) < 60, 'the timestamp is now, in seconds');
    assert.equal(JSON.parse(got.body).type, 'webhook.test');
    const log = await call<WebhookAttemptPage>(gw, 'GET', `/v1/webhooks/endpoints/${id}/attempts`, owner);
    assert.equal(log.body.records[0]?.event_id, sent.body.attempt.event_id);
    assert.equal(log.body.pagination.count, 1);
    await call(gw, 'DELETE', `/v1/webhooks/endpoints/${id}`, owner);
  });

  it('a bounce reported by the mail provider reaches the endpoint as email.bounced; 500 then 200 is retried and logged', async () => {
    const created = await addEndpoint({ url: receiver.url, events: ['bounced', 'complained'] });
    const id = created.body._id;
    const { body: secret } = await call<{ secret: string }>(gw, 'GET', `/v1/webhooks/endpoints/${id}/secret`, owner);
    const address = 'bounce-hook@example.com';
    const contact = await insertContact(gw.handle.db, lab, address);
    const campaign = await insertCampaign(gw.handle.db, lab);
    const [rid = 0] = await insertRecipients(gw.handle.db, lab, campaign, [{ address, contactId: contact }]);
    const before = receiver.received.length;
    receiver.answers.push(500);
    const reported = await mailEvent({
      events: [
        { type: 'bounce', bounce_type: 'hard', recipient_id: rid.toString(36), detail: '550 5.1.1 no such user' },
      ],
    });
    assert.equal(reported.status, 200, reported.text);
    const received = await receiver.waitFor(before + 2);
    const [first, second] = [received[before], received[before + 1]] as [Received, Received];
    assert.equal(first.headers['webhook-id'], second.headers['webhook-id'], 'a retry keeps the event id');
    assert.ok(verify(secret.secret, second));
    const payload = JSON.parse(second.body) as { type: string; data: Record<string, unknown> };
    assert.equal(payload.type, 'email.bounced');
    assert.equal(payload.data.email, address);
    assert.equal(payload.data.campaign_id, campaign);
    assert.equal(payload.data.contact_id, contact);
    assert.equal(typeof payload.data.recipient_id, 'string');
    assert.equal(payload.data.reason, '550 5.1.1 no such user');

    let log: WebhookAttemptPage | undefined;
    for (let i = 0; i < 40; i++) {
      log = (await call<WebhookAttemptPage>(gw, 'GET', `/v1/webhooks/endpoints/${id}/attempts`, owner)).body;
      if (log.records.length >= 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const [latest, earliest] = log?.records ?? [];
    assert.equal(earliest?.attempt, 1);
    assert.equal(earliest?.status_code, 500);
    assert.ok(earliest?.next_attempt_at, 'the failed attempt names the next');
    assert.equal(earliest?.state, 'retrying');
    assert.equal(latest?.attempt, 2);
    assert.equal(latest?.status_code, 200);
    assert.equal(latest?.state, 'delivered');
    assert.equal(latest?.type, 'bounced');

    // A complaint reaches it too; an event type the endpoint did not choose does not.
    const beforeComplaint = receiver.received.length;
    await mailEvent({ events: [{ type: 'complaint', recipient_id: rid.toString(36) }] });
    const afterComplaint = await receiver.waitFor(beforeComplaint + 1);
    assert.equal(JSON.parse(afterComplaint[beforeComplaint]?.body ?? '{}').type, 'email.complained');
    await call(gw, 'DELETE', `/v1/webhooks/endpoints/${id}`, owner);
  });
});

describe('an endpoint failing every attempt', () => {
  it('is disabled with the reason once a delivery has spent its schedule; enabling clears it', async () => {
    const created = await addEndpoint({ url: receiver.url, events: ['complained'] });
    const id = created.body._id;
    const campaign = await insertCampaign(gw.handle.db, lab);
    const [rid = 0] = await insertRecipients(gw.handle.db, lab, campaign, [{ address: 'failing@example.com' }]);
    const before = receiver.received.length;
    // The schedule here is 1 s, 1 s: three attempts, all answered 503.
    receiver.answers.push(503, 503, 503);
    await mailEvent({ events: [{ type: 'complaint', recipient_id: rid.toString(36) }] });
    await receiver.waitFor(before + 3);
    let endpoint: WebhookEndpoint | undefined;
    for (let i = 0; i < 50 && endpoint?.enabled !== false; i++) {
      endpoint = (await call<WebhookEndpoint>(gw, 'GET', `/v1/webhooks/endpoints/${id}`, owner)).body;
      if (endpoint.enabled) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(endpoint?.enabled, false);
    assert.match(endpoint?.disabled_reason ?? '', /every delivery attempt failed/);
    assert.equal(endpoint?.last_attempt_ok, false);
    const log = await call<WebhookAttemptPage>(gw, 'GET', `/v1/webhooks/endpoints/${id}/attempts`, owner);
    assert.deepEqual(
      log.body.records.map((a) => [a.attempt, a.status_code, a.state]),
      [
        [3, 503, 'failed'],
        [2, 503, 'retrying'],
        [1, 503, 'retrying'],
      ],
    );
    assert.equal(log.body.records[0]?.next_attempt_at, null);
    const enabled = await call<WebhookEndpoint>(gw, 'PATCH', `/v1/webhooks/endpoints/${id}`, owner, { enabled: true });
    assert.equal(enabled.body.enabled, true);
    assert.equal(enabled.body.disabled_reason, null);
    await call(gw, 'DELETE', `/v1/webhooks/endpoints/${id}`, owner);
  });
});

describe('events of a campaign send', () => {
  it('reach the endpoint as email.sent and email.delivered; a tenant without endpoints queues nothing', async () => {
    const created = await addEndpoint({ url: receiver.url, events: ['sent', 'delivered'] });
    const id = created.body._id;
    await generousPlans(gw.handle.db);
    const send = async (token: string, tenant: string, prefix: string) => {
      const template = await call<{ _id: string }>(gw, 'POST', '/v1/templates', token, { name: `Hooks ${prefix}` });
      assert.equal(template.status, 201, template.text);
      await call(gw, 'PATCH', `/v1/templates/${template.body._id}`, token, {
        subject: 'Hooks',
        preview_text: '',
        mjml: TEMPLATE_MJML,
      });
      const list = await createList(gw.handle.db, tenant, `Hooks ${prefix}`);
      await insertContacts(gw.handle.db, tenant, 2, prefix, { listId: list });
      const campaign = await createCampaign(gw.handle.db, {
        tenantId: tenant,
        templateId: template.body._id,
        audience: { include_lists: [list] },
      });
      await enqueueCampaign(gw.app.deps.jobs, campaign);
      await waitForStatus(gw.handle.db, campaign, 'sent', 60_000);
      return { campaign, template: template.body._id };
    };
    const before = receiver.received.length;
    const { campaign, template } = await send(owner, lab, 'hooked');
    const received = await receiver.waitFor(before + 4);
    const events = received
      .slice(before)
      .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, string> });
    assert.deepEqual(events.map((e) => e.type).sort(), [
      'email.delivered',
      'email.delivered',
      'email.sent',
      'email.sent',
    ]);
    for (const e of events) {
      assert.equal(e.data.campaign_id, campaign);
      assert.equal(e.data.template_id, template);
      assert.match(e.data.email ?? '', /^hooked[12]@send\.test$/);
      assert.match(e.data.message_id ?? '', /^<.+@.+>$/);
    }

    // Each event went through the outbox (written with the event, then drained into deliveries).
    const hooked = await queryRows(
      gw.handle.db,
      sql`select source from webhook_deliveries where endpoint_id = ${id}::uuid and source like 'outbox:%'`,
    );
    assert.equal(hooked.length, 4);
    // Acme has no endpoint: once known, its send writes no outbox row and no delivery.
    const acme = await tenantId(gw, 'Acme DAO');
    await ctx().presence.has(acme);
    await send(await gw.login('acmeOwner'), acme, 'unhooked');
    await gw.app.deps.background.drain();
    const owed = await queryRows(
      gw.handle.db,
      sql`select (select count(*) from delivery_event_outbox where tenant_id = ${acme}::uuid)::int as outbox,
                 (select count(*) from webhook_deliveries where tenant_id = ${acme}::uuid)::int as deliveries`,
    );
    assert.deepEqual(owed[0], { outbox: 0, deliveries: 0 }, 'nothing for the tenant without endpoints');
    await call(gw, 'DELETE', `/v1/webhooks/endpoints/${id}`, owner);
  });
});

describe('addresses refused (SSRF)', () => {
  const FORMS: [string, string][] = [
    ['loopback', '127.0.0.1'],
    ['private 10/8', '10.1.2.3'],
    ['cloud metadata (link-local)', '169.254.169.254'],
    ['IPv6 loopback', '::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['unique-local', 'fc00::1'],
    ['multicast', '224.0.0.1'],
    ['IPv6 multicast', 'ff02::1'],
  ];
  const literal = (address: string) => (address.includes(':') ? `[${address}]` : address);
  /** A resolver that answers a public address first and the forbidden one after it. */
  const resolving =
    (address: string): Resolver =>
    (_host, callback) =>
      callback(null, [
        { address: '93.184.215.14', family: 4 },
        { address, family: address.includes(':') ? 6 : 4 } as LookupAddress,
      ]);

  it('at save time: every form, as an IP literal and as a host name resolving to it, is a 400 on url', async () => {
    const policy = ctx().policy;
    policy.allowLoopback = false;
    try {
      for (const [name, address] of FORMS) {
        const byLiteral = await addEndpoint({ url: `https://${literal(address)}/hook`, events: ['sent'] });
        assert.equal(byLiteral.status, 400, `${name}: ${byLiteral.text}`);
        assert.match(byLiteral.body.errors?.url?.[0] ?? '', /private/, name);
        policy.resolve = resolving(address);
        const byName = await addEndpoint({ url: 'https://hooks.example.org/hook', events: ['sent'] });
        policy.resolve = undefined;
        assert.equal(byName.status, 400, `${name} by name: ${byName.text}`);
        assert.match(byName.body.errors?.url?.[0] ?? '', /private/, name);
      }
      // localhost resolves to loopback through the system's resolver.
      const local = await addEndpoint({ url: 'https://localhost/hook', events: ['sent'] });
      assert.equal(local.status, 400, local.text);
      // Plain http is refused unless loopback is allowed, and then only to loopback.
      const plain = await addEndpoint({ url: 'http://hooks.example.org/hook', events: ['sent'] });
      assert.deepEqual(plain.body.errors?.url, ['Enter an https:// address.']);
      policy.allowLoopback = true;
      policy.resolve = (_host, callback) => callback(null, [{ address: '93.184.215.14', family: 4 }]);
      const plainPublic = await addEndpoint({ url: 'http://hooks.example.org/hook', events: ['sent'] });
      assert.deepEqual(plainPublic.body.errors?.url, ['Enter an https:// address.']);
      const plainPrivate = await addEndpoint({ url: 'http://10.1.2.3/hook', events: ['sent'] });
      assert.deepEqual(plainPrivate.body.errors?.url, ['Enter an https:// address.']);
      const httpsPrivate = await addEndpoint({ url: 'https://10.1.2.3/hook', events: ['sent'] });
      assert.match(httpsPrivate.body.errors?.url?.[0] ?? '', /private/, 'loopback allowed, private still refused');
    } finally {
      policy.allowLoopback = true;
      policy.resolve = undefined;
    }
  });

  it('at delivery: a host that now resolves to any such form is not contacted and the attempt says why', async () => {
    const policy = ctx().policy;
    policy.allowLoopback = false;
    try {
      // Saved while its name resolved to a public address; each delivery resolves it again (DNS rebinding).
      policy.resolve = (_host, callback) => callback(null, [{ address: '93.184.215.14', family: 4 }]);
      const created = await addEndpoint({ url: 'https://hooks.example.org/hook', events: ['sent'] });
      assert.equal(created.status, 201, created.text);
      const id = created.body._id;
      for (const [name, address] of FORMS) {
        policy.resolve = resolving(address);
        const sent = await call<{ attempt: WebhookAttempt }>(gw, 'POST', `/v1/webhooks/endpoints/${id}/test`, owner);
        assert.equal(sent.status, 200, sent.text);
        assert.equal(sent.body.attempt.status_code, null, name);
        assert.equal(sent.body.attempt.state, 'failed', name);
        assert.match(sent.body.attempt.error ?? '', /private/, name);
      }
      await call(gw, 'DELETE', `/v1/webhooks/endpoints/${id}`, owner);
    } finally {
      policy.allowLoopback = true;
      policy.resolve = undefined;
    }
  });
});
