// The compose API and the campaign lifecycle: CRUD and the grid, validation, isolation, autosave
// conflicts, audience counts, preview and test sends, send/schedule/pause/resume/cancel, the plan's
// volume (402) and the template delete rule. The send queue's handler is replaced by a no-op here:
// these tests look at the campaign rows and the jobs queued, not at delivery (the sender's suites do).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type {
  AudienceCount,
  Campaign,
  CampaignPage,
  CampaignPreview,
  Contact,
  List,
  Segment,
  Template,
} from '../contracts';
import { campaigns, emailUsage, users } from '../db/schema';
import { hashPassword } from '../auth/index';
import { queryRows, textOf } from '../lib/raw-sql';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { call, qs, tenantId } from '../../test/audience-helpers';
import { CAMPAIGN_SEND_QUEUE } from './sender/queue';
import { allows, nextStatus, type CampaignAction } from './campaign-rules';
import { audienceLabel, slugOf } from './campaign-wire';
import { formatDots } from '@console/shared/format';
import { volumeRefusal } from './usage';
import { TEST_SEND_LIMIT, TOO_MANY_TENANT_TESTS, TOO_MANY_TESTS, testSendKeys } from '../lib/test-send-limit';
import { WindowThrottle } from '../lib/window-throttle';
import { STALE_VERSION } from './campaign-store';

let gw: TestGateway;
let basic: string; // Basic Guild owner: BASIC, no subscription (10.000 e-mails a calendar month)
let acme: string; // Acme DAO owner
let noEmails: string; // an Acme user without view_engagement_emails
let basicId: string;
let newsletter: List;
let blocked: List;
let acmeList: List;
let holders: Segment;
let template: Template;
let receipt: Template;
let ada: Contact;

const BODY = `<mjml><mj-body><mj-section><mj-column>
  <mj-text>Hi {{ contact.first_name | default: "friend" }}, news from {{ community.name }}</mj-text>
  <mj-text><a href="{{ unsubscribe_url }}">Unsubscribe</a></mj-text>
</mj-column></mj-section></mj-body></mjml>`;

const DAY = 86_400_000;

async function contact(body: Record<string, unknown>): Promise<Contact> {
  const r = await call<Contact>(gw, 'POST', '/v1/contacts', basic, body);
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function create(body: Record<string, unknown>, token = basic) {
  return call<Campaign>(gw, 'POST', '/v1/campaigns', token, body);
}

async function created(name: string, extra: Record<string, unknown> = {}): Promise<Campaign> {
  const r = await create({ name, template_id: template._id });
  assert.equal(r.status, 201, r.text);
  if (Object.keys(extra).length === 0) return r.body;
  const p = await call<Campaign>(gw, 'PATCH', `/v1/campaigns/${r.body._id}`, basic, extra);
  assert.equal(p.status, 200, p.text);
  return p.body;
}

/** A complete campaign (template, subject, audience reaching 3 people). */
function ready(name: string) {
  return created(name, {
    audience: { include_lists: [newsletter._id], include_segments: [holders._id], exclude_lists: [blocked._id] },
  });
}

async function jobsOf(campaignId: string): Promise<{ startAfter: number }[]> {
  const rows = await queryRows(
    gw.handle.db,
    sql`select (extract(epoch from start_after) * 1000)::float8 as start_after from pgboss.job
         where name = ${CAMPAIGN_SEND_QUEUE} and data->>'campaignId' = ${campaignId} order by created_on`,
  );
  return rows.map((r) => ({ startAfter: Number(textOf(r, 'start_after')) }));
}

async function setUsed(tenant: string, used: number) {
  const day = new Date().toISOString().slice(0, 10);
  await gw.handle.db.delete(emailUsage).where(eq(emailUsage.tenantId, tenant));
  if (used > 0) await gw.handle.db.insert(emailUsage).values({ tenantId: tenant, day, sent: used });
}

before(async () => {
  gw = await startGateway({}, { extraJobs: (jobs) => jobs.work(CAMPAIGN_SEND_QUEUE, async () => undefined) });
  [basic, acme] = await Promise.all([gw.login('basicOwner'), gw.login('acmeOwner')]);
  basicId = await tenantId(gw, 'Basic Guild');
  await gw.handle.db.insert(users).values({
    tenantId: await tenantId(gw, 'Acme DAO'),
    email: 'contacts-only@acme.test',
    passwordHash: await hashPassword('contacts-pass-2026'),
    role: 'staff',
    permissions: ['manage_contacts'],
    emailConfirmedAt: new Date(),
  });
  const login = await gw.post<{ token: string }>('/v1/auth/login', {
    email: 'contacts-only@acme.test',
    password: 'contacts-pass-2026',
  });
  assert.equal(login.status, 200, login.text);
  noEmails = login.body.token;

  const list = async (token: string, name: string) => {
    const r = await call<List>(gw, 'POST', '/v1/lists', token, { name });
    assert.equal(r.status, 201, r.text);
    return r.body;
  };
  newsletter = await list(basic, 'Newsletter');
  blocked = await list(basic, 'Blocked');
  acmeList = await list(acme, 'Acme only');
  const seg = await call<Segment>(gw, 'POST', '/v1/segments', basic, {
    name: 'Holders',
    rule: { combinator: 'and', rules: [{ field: 'email', operator: 'endsWith', value: '@h.test' }] },
  });
  assert.equal(seg.status, 201, seg.text);
  holders = seg.body;

  // Newsletter: 2 reachable, 1 unsubscribed, 1 bounced, 1 complained, 1 wallet-only, 1 also in Blocked.
  ada = await contact({ email: 'grace@g.test', first_name: 'Grace', lists: [newsletter._id] });
  await contact({ email: 'bob@g.test', lists: [newsletter._id] });
  await contact({ email: 'unsub@g.test', status: 'unsubscribed', lists: [newsletter._id] });
  await contact({ email: 'bounce@g.test', status: 'bounced', lists: [newsletter._id] });
  await contact({ email: 'spam@g.test', status: 'complained', lists: [newsletter._id] });
  await contact({ wallet: '0x52908400098527886E0F7030069857D2E4169EE7', lists: [newsletter._id] });
  await contact({ email: 'blocked@g.test', lists: [newsletter._id, blocked._id] });
  // Holders (segment): 1 more, also reachable; and one in both (counted once).
  await contact({ email: 'hodl@h.test' });
  await contact({ email: 'both@h.test', lists: [newsletter._id] });

  const t = await call<Template>(gw, 'POST', '/v1/templates', basic, { name: 'Monthly' });
  assert.equal(t.status, 201, t.text);
  const saved = await call<{ template: Template }>(gw, 'PATCH', `/v1/templates/${t.body._id}`, basic, {
    subject: 'Hello {{ contact.first_name | default: "friend" }}',
    preview_text: 'What is new in {{ community.name }}',
    mjml: BODY,
  });
  assert.equal(saved.status, 200, saved.text);
  template = saved.body.template;
  const r = await call<Template>(gw, 'POST', '/v1/templates', basic, { name: 'Receipt', kind: 'transactional' });
  assert.equal(r.status, 201, r.text);
  receipt = r.body;
});

after(async () => {
  await gw.close();
});

describe('the status rules', () => {
  const table: [CampaignAction, string, string | null][] = [
    ['send', 'draft', 'sending'],
    ['send', 'scheduled', 'sending'],
    ['send', 'paused', null],
    ['schedule', 'draft', 'scheduled'],
    ['schedule', 'scheduled', 'scheduled'],
    ['schedule', 'sent', null],
    ['unschedule', 'scheduled', 'draft'],
    ['unschedule', 'draft', null],
    ['pause', 'sending', 'paused'],
    ['pause', 'scheduled', null],
    ['resume', 'paused', 'sending'],
    ['resume', 'sending', null],
    ['cancel', 'draft', 'cancelled'],
    ['cancel', 'scheduled', 'cancelled'],
    ['cancel', 'sending', 'cancelled'],
    ['cancel', 'paused', 'cancelled'],
    ['cancel', 'sent', null],
    ['cancel', 'failed', null],
    ['cancel', 'cancelled', null],
  ];
  for (const [action, from, to] of table) {
    it(`${action} from ${from} → ${to ?? 'refused'}`, () => {
      assert.equal(nextStatus(action, from as never), to);
    });
  }
  it('edits drafts and scheduled ones; deletes drafts, cancelled and failed ones', () => {
    for (const s of ['draft', 'scheduled'] as const) assert.ok(allows('edit', s));
    for (const s of ['sending', 'paused', 'sent', 'cancelled', 'failed'] as const) assert.ok(!allows('edit', s));
    for (const s of ['draft', 'cancelled', 'failed'] as const) assert.ok(allows('delete', s));
    for (const s of ['scheduled', 'sending', 'paused', 'sent'] as const) assert.ok(!allows('delete', s));
  });
  it('words the audience and the numbers', () => {
    const names = new Map([
      ['a', 'Newsletter'],
      ['b', 'Holders'],
      ['c', 'Bounced'],
    ]);
    const none = { include_lists: [], include_segments: [], exclude_lists: [], exclude_segments: [] };
    assert.equal(audienceLabel(none, names), 'No audience yet');
    assert.equal(
      audienceLabel({ ...none, include_lists: ['a'], include_segments: ['b'], exclude_segments: ['c'] }, names),
      'Newsletter, Holders − Bounced',
    );
    assert.equal(formatDots(1_250_000), '1.250.000');
    assert.equal(formatDots(999), '999');
    assert.equal(
      volumeRefusal(12_500, 10_000),
      'This e-mail would go to 12.500 people, 2.500 more than the 10.000 e-mails left in your plan this period. ' +
        'Upgrade your plan to send it.',
    );
    assert.equal(volumeRefusal(10_000, 10_000), null);
    assert.equal(slugOf('Spring Drop: Ünïcode 2026!'), 'spring-drop-unicode-2026');
  });
});

describe('create, read, save', () => {
  it('creates a draft with the defaults, and from a template copies its subject and preview text', async () => {
    const blank = await create({ name: 'Spring drop' });
    assert.equal(blank.status, 201, blank.text);
    const c = blank.body;
    assert.equal(c.status, 'draft');
    assert.equal(c.version, 1);
    assert.equal(c.from_name, 'Basic Guild');
    assert.equal(c.from_email, gw.config.campaigns.defaultFrom);
    assert.equal(c.track_opens, true);
    assert.equal(c.track_clicks, true);
    assert.deepEqual(c.utm, {
      source: 'community-console',
      medium: 'email',
      campaign: 'spring-drop',
      term: '',
      content: '',
    });
    assert.equal(c.audience_label, 'No audience yet');
    assert.equal(c.template_id, null);
    assert.equal(c.subject, '');
    assert.equal(c.stats.open_rate, 0);

    const fromTemplate = await create({ name: 'From the template', template_id: template._id });
    assert.equal(fromTemplate.status, 201, fromTemplate.text);
    assert.equal(fromTemplate.body.template_id, template._id);
    assert.equal(fromTemplate.body.subject, 'Hello {{ contact.first_name | default: "friend" }}');
    assert.equal(fromTemplate.body.preview_text, 'What is new in {{ community.name }}');

    const got = await call<Campaign>(gw, 'GET', `/v1/campaigns/${fromTemplate.body._id}`, basic);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, fromTemplate.body);
  });

  it('refuses bad input with field errors, never a 500', async () => {
    const noName = await create({ name: '   ' });
    assert.equal(noName.status, 400);
    assert.ok((noName.body as unknown as ErrorBody).errors?.name);
    for (const template_id of [receipt._id, 'not-an-id', '00000000-0000-4000-8000-000000000000']) {
      const r = await create({ name: 'x', template_id });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(Object.keys((r.body as unknown as ErrorBody).errors ?? {}), ['template_id']);
    }
    // Another tenant's template.
    const acmeTemplate = await call<Template>(gw, 'POST', '/v1/templates', acme, { name: 'Acme news' });
    const foreign = await create({ name: 'x', template_id: acmeTemplate.body._id });
    assert.equal(foreign.status, 400);

    const c = await created('Validated');
    const patch = (body: unknown) => call<Campaign>(gw, 'PATCH', `/v1/campaigns/${c._id}`, basic, body);
    const badAudience = await patch({
      audience: { include_lists: [acmeList._id, newsletter._id], exclude_segments: ['nope'] },
    });
    assert.equal(badAudience.status, 400, badAudience.text);
    const errors = (badAudience.body as unknown as ErrorBody).errors ?? {};
    assert.ok(errors['audience.include_lists'], badAudience.text);
    assert.ok(errors['audience.exclude_segments'], badAudience.text);
    const badAddresses = await patch({ from_email: 'not an address', reply_to: 'also@bad' });
    assert.equal(badAddresses.status, 400);
    assert.deepEqual(Object.keys((badAddresses.body as unknown as ErrorBody).errors ?? {}).sort(), [
      'from_email',
      'reply_to',
    ]);
    const tooMany = await patch({ audience: { include_lists: Array.from({ length: 51 }, () => newsletter._id) } });
    assert.equal(tooMany.status, 400);
    const badType = await patch({ track_opens: 'yes' });
    assert.equal(badType.status, 400);
    // Nothing was saved.
    const after = await call<Campaign>(gw, 'GET', `/v1/campaigns/${c._id}`, basic);
    assert.equal(after.body.version, c.version);
  });

  it('saves, bumping the version; a stale base_version is a 409 and changes nothing', async () => {
    const c = await created('Autosaved');
    const patch = (body: unknown) => call<Campaign>(gw, 'PATCH', `/v1/campaigns/${c._id}`, basic, body);
    const first = await patch({
      base_version: c.version,
      subject: 'Tab one',
      reply_to: 'Replies@G.test',
      audience: { include_lists: [newsletter._id], include_segments: [holders._id], exclude_lists: [blocked._id] },
    });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.version, c.version + 1);
    assert.equal(first.body.reply_to, 'replies@g.test');
    assert.equal(first.body.audience_label, 'Newsletter, Holders − Blocked');
    const stale = await patch({ base_version: c.version, subject: 'Tab two' });
    assert.equal(stale.status, 409);
    assert.equal((stale.body as unknown as ErrorBody).message, STALE_VERSION);
    assert.match(STALE_VERSION, /newer version .* saved in another tab/);
    const now = await call<Campaign>(gw, 'GET', `/v1/campaigns/${c._id}`, basic);
    assert.equal(now.body.subject, 'Tab one');
    assert.equal(now.body.version, c.version + 1);
    const noBase = await patch({ name: 'Autosaved again' });
    assert.equal(noBase.status, 200);
    assert.equal(noBase.body.version, c.version + 2);
  });
});

describe('the grid, duplicate and delete', () => {
  it('pages, sorts, searches and filters by status; rates over delivered', async () => {
    const names = ['Grid alpha', 'Grid Bravo', 'grid charlie'];
    const made: Campaign[] = [];
    for (const name of names) made.push(await created(name));
    const [alpha, bravo] = made;
    assert.ok(alpha && bravo);
    await gw.handle.db
      .update(campaigns)
      .set({
        status: 'sent',
        recipients: 10,
        sent: 10,
        delivered: 8,
        opened: 4,
        clicked: 2,
        bounced: 2,
        updatedAt: new Date(Date.now() + 1000),
      })
      .where(eq(campaigns.id, bravo._id));
    const list = (q: Record<string, string | number | undefined>) =>
      call<CampaignPage>(gw, 'GET', `/v1/campaigns?${qs(q)}`, basic);

    const byName = await list({ searchString: 'grid', sortField: 'name', sortOrder: 'asc', perPage: 2 });
    assert.equal(byName.status, 200, byName.text);
    assert.deepEqual(
      byName.body.records.map((r) => r.name),
      ['Grid alpha', 'Grid Bravo'],
    );
    assert.deepEqual(byName.body.pagination, { starting: 1, ending: 2, count: 3, previous: null, next: 2 });
    const page2 = await list({ searchString: 'grid', sortField: 'name', sortOrder: 'asc', perPage: 2, page: 2 });
    assert.deepEqual(
      page2.body.records.map((r) => r.name),
      ['grid charlie'],
    );
    const desc = await list({ searchString: 'GRID', sortField: 'name', sortOrder: 'desc' });
    assert.deepEqual(
      desc.body.records.map((r) => r.name),
      ['grid charlie', 'Grid Bravo', 'Grid alpha'],
    );
    const sent = await list({ status: 'sent' });
    assert.deepEqual(
      sent.body.records.map((r) => r._id),
      [bravo._id],
    );
    const row = sent.body.records[0];
    assert.equal(row?.stats.open_rate, 0.5);
    assert.equal(row?.stats.click_rate, 0.25);
    assert.equal(row?.stats.bounced, 2);
    const newest = await list({ searchString: 'grid' });
    assert.equal(newest.body.records[0]?._id, bravo._id, 'updated_at desc by default');
    const bad = await list({ status: 'lost', sortField: 'subject' });
    assert.equal(bad.status, 400);
  });

  it("duplicates as a draft 'Copy of …' with the same content and audience, no figures", async () => {
    const source = await ready('Original');
    await gw.handle.db
      .update(campaigns)
      .set({ status: 'sent', sent: 3, delivered: 3, opened: 1 })
      .where(eq(campaigns.id, source._id));
    const copy = await call<Campaign>(gw, 'POST', `/v1/campaigns/${source._id}/duplicate`, basic, {});
    assert.equal(copy.status, 201, copy.text);
    assert.equal(copy.body.name, 'Copy of Original');
    assert.equal(copy.body.status, 'draft');
    assert.equal(copy.body.version, 1);
    assert.equal(copy.body.subject, source.subject);
    assert.equal(copy.body.template_id, source.template_id);
    assert.deepEqual(copy.body.audience, source.audience);
    assert.equal(copy.body.stats.sent, 0);
    assert.equal(copy.body.stats.delivered, 0);
    const named = await call<Campaign>(gw, 'POST', `/v1/campaigns/${source._id}/duplicate`, basic, { name: 'Again' });
    assert.equal(named.body.name, 'Again');
  });

  it('deletes drafts, cancelled and failed e-mails only', async () => {
    const draft = await created('Delete me');
    const del = await call(gw, 'DELETE', `/v1/campaigns/${draft._id}`, basic);
    assert.equal(del.status, 204, del.text);
    assert.equal((await call(gw, 'GET', `/v1/campaigns/${draft._id}`, basic)).status, 404);
    const sent = await created('Sent one');
    await gw.handle.db.update(campaigns).set({ status: 'sent' }).where(eq(campaigns.id, sent._id));
    const refused = await call<ErrorBody>(gw, 'DELETE', `/v1/campaigns/${sent._id}`, basic);
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /drafts, cancelled and failed/);
    const failed = await created('Failed one');
    await gw.handle.db.update(campaigns).set({ status: 'failed' }).where(eq(campaigns.id, failed._id));
    assert.equal((await call(gw, 'DELETE', `/v1/campaigns/${failed._id}`, basic)).status, 204);
  });
});

describe('isolation and permission', () => {
  it("answers 404 for another tenant's e-mail and 403 without view_engagement_emails", async () => {
    const mine = await ready('Private');
    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/duplicate'],
      ['GET', '/audience'],
      ['POST', '/preview'],
      ['POST', '/send'],
      ['POST', '/pause'],
      ['POST', '/cancel'],
    ] as const) {
      const body = method === 'PATCH' ? { name: 'x' } : method === 'POST' ? {} : undefined;
      const r = await call(gw, method, `/v1/campaigns/${mine._id}${path}`, acme, body);
      assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
    }
    const list = await call<CampaignPage>(gw, 'GET', '/v1/campaigns?perPage=1000', acme);
    assert.ok(!list.body.records.some((r) => r._id === mine._id));
    assert.equal((await call(gw, 'GET', '/v1/campaigns', noEmails)).status, 403);
    assert.equal((await call(gw, 'POST', '/v1/campaigns', noEmails, { name: 'x' })).status, 403);
    assert.equal((await call(gw, 'POST', '/v1/campaigns/audience', noEmails, {})).status, 403);
    assert.equal((await gw.get('/v1/campaigns')).status, 401);
    // A malformed id is simply not found.
    assert.equal((await call(gw, 'GET', '/v1/campaigns/not-a-uuid', basic)).status, 404);
  });
});

describe('audience', () => {
  it('counts who is reached and why the others are left out, each contact once', async () => {
    const r = await call<AudienceCount>(gw, 'POST', '/v1/campaigns/audience', basic, {
      include_lists: [newsletter._id],
      include_segments: [holders._id],
      exclude_lists: [blocked._id],
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      matched: 9,
      reachable: 4,
      email: 4,
      wallet: 0,
      excluded: 1,
      unsubscribed: 1,
      bounced: 1,
      complained: 1,
      no_address: 1,
      duplicates: 0,
      wallet_mail_domain: null,
    });
    const c = await ready('Counted');
    const byId = await call<AudienceCount>(gw, 'GET', `/v1/campaigns/${c._id}/audience`, basic);
    assert.deepEqual(byId.body, r.body);
    const empty = await call<AudienceCount>(gw, 'POST', '/v1/campaigns/audience', basic, {});
    assert.equal(empty.body.matched, 0);
    const foreign = await call<ErrorBody>(gw, 'POST', '/v1/campaigns/audience', basic, {
      include_lists: [acmeList._id],
    });
    assert.equal(foreign.status, 400);
    assert.ok(foreign.body.errors?.include_lists);
  });
});

describe('preview and test send', () => {
  it('renders as a contact and with sample values', async () => {
    const c = await created('Previewed');
    const asAda = await call<CampaignPreview>(gw, 'POST', `/v1/campaigns/${c._id}/preview`, basic, {
      contact_id: ada._id,
    });
    assert.equal(asAda.status, 200, asAda.text);
    assert.equal(asAda.body.subject, 'Hello Grace');
    assert.equal(asAda.body.preview_text, 'What is new in Basic Guild');
    assert.match(asAda.body.html, /Hi Grace, news from Basic Guild/);
    assert.match(asAda.body.text, /Hi Grace/);
    const sample = await call<CampaignPreview>(gw, 'POST', `/v1/campaigns/${c._id}/preview`, basic, {});
    assert.equal(sample.status, 200);
    assert.equal(sample.body.subject, 'Hello Ada', "the catalogue's sample first name");
    // The campaign's own preview text is the hidden box of its HTML (not the template's).
    assert.match(asAda.body.html, /<div style="display:none;[^"]*">What is new in Basic Guild/);
    await call(gw, 'PATCH', `/v1/campaigns/${c._id}`, basic, { preview_text: 'Only for {{ contact.first_name }}' });
    const own = await call<CampaignPreview>(gw, 'POST', `/v1/campaigns/${c._id}/preview`, basic, {
      contact_id: ada._id,
    });
    assert.equal(own.body.preview_text, 'Only for Grace');
    assert.match(own.body.html, /<div style="display:none;[^"]*">Only for Grace/);
    assert.doesNotMatch(own.body.html, /What is new in/);
    const blank = await created('No template yet');
    await call(gw, 'PATCH', `/v1/campaigns/${blank._id}`, basic, { template_id: null });
    const noTemplate = await call<ErrorBody>(gw, 'POST', `/v1/campaigns/${blank._id}/preview`, basic, {});
    assert.equal(noTemplate.status, 400);
    assert.ok(noTemplate.body.errors?.template_id);
    const acmeContact = await call<Contact>(gw, 'POST', '/v1/contacts', acme, { email: 'someone@acme-only.test' });
    const foreign = await call(gw, 'POST', `/v1/campaigns/${c._id}/preview`, basic, {
      contact_id: acmeContact.body._id,
    });
    assert.equal(foreign.status, 404);
  });

  it("sends '[Test] ' e-mails to up to five addresses, then limits the user", async () => {
    // The limit counts fixed 10-minute windows: start well inside one, so the count is not reset midway.
    const window = TEST_SEND_LIMIT.windowMs;
    const untilNext = window - (Date.now() % window);
    if (untilNext < 30_000) await new Promise((resolve) => setTimeout(resolve, untilNext + 1000));
    const c = await created('Tested');
    const r = await call<{ message: string }>(gw, 'POST', `/v1/campaigns/${c._id}/test`, basic, {
      to: ['tester1@t.test', 'Tester2@t.test', 'tester1@t.test'],
      contact_id: ada._id,
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.message, 'Test e-mail sent to 2 addresses.');
    const one = await gw.waitForMail('tester1@t.test', /^\[Test\] Hello Grace$/);
    assert.match(one.text, /Hi Grace, news from Basic Guild/);
    await gw.waitForMail('tester2@t.test', /^\[Test\] Hello Grace$/);

    const six = await call(gw, 'POST', `/v1/campaigns/${c._id}/test`, basic, {
      to: ['a@t.test', 'b@t.test', 'c@t.test', 'd@t.test', 'e@t.test', 'f@t.test'],
    });
    assert.equal(six.status, 400);
    const bad = await call<ErrorBody>(gw, 'POST', `/v1/campaigns/${c._id}/test`, basic, { to: ['nope'] });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.errors?.to);

    const before = (await gw.mails()).length;
    let last = r.status;
    let emails = 2; // the first test went to two addresses
    while (last === 200 && emails < 30) {
      last = (await call(gw, 'POST', `/v1/campaigns/${c._id}/test`, basic, { to: ['loop@t.test'] })).status;
      if (last === 200) emails += 1;
    }
    assert.equal(emails, 20, 'twenty test e-mails per user in ten minutes');
    assert.equal(last, 429);
    const limited = await call<ErrorBody>(gw, 'POST', `/v1/campaigns/${c._id}/test`, basic, { to: ['x@t.test'] });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.message, TOO_MANY_TESTS);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal((await gw.mails()).length, before + 18);
    // Another user is not limited by it.
    const staff = await gw.login('acmeStaff');
    const acmeCampaign = await call<Campaign>(gw, 'POST', '/v1/campaigns', staff, { name: 'Staff test' });
    const acmeTemplate = await call<Template>(gw, 'POST', '/v1/templates', acme, { name: 'For staff' });
    await call(gw, 'PATCH', `/v1/campaigns/${acmeCampaign.body._id}`, staff, { template_id: acmeTemplate.body._id });
    const other = await call(gw, 'POST', `/v1/campaigns/${acmeCampaign.body._id}/test`, staff, {
      to: ['staff-test@t.test'],
    });
    assert.equal(other.status, 200, other.text);
  });
});

describe('lifecycle', () => {
  it('refuses an incomplete e-mail with field errors', async () => {
    const blank = await create({ name: 'Incomplete' });
    const r = await call<ErrorBody>(gw, 'POST', `/v1/campaigns/${blank.body._id}/send`, basic, {});
    assert.equal(r.status, 400);
    assert.deepEqual(Object.keys(r.body.errors ?? {}).sort(), ['audience', 'subject', 'template_id']);
    // An audience nobody in it can receive.
    const nobody = await created('Nobody', {
      audience: { include_lists: [blocked._id], exclude_lists: [blocked._id] },
    });
    const zero = await call<ErrorBody>(gw, 'POST', `/v1/campaigns/${nobody._id}/send`, basic, {});
    assert.equal(zero.status, 400);
    assert.deepEqual(Object.keys(zero.body.errors ?? {}), ['audience']);
    assert.equal((await call<Campaign>(gw, 'GET', `/v1/campaigns/${nobody._id}`, basic)).body.status, 'draft');
  });

  it('sends now, pauses, resumes and cancels; refuses what the rules refuse', async () => {
    await setUsed(basicId, 0);
    const c = await ready('Now');
    const sent = await call<Campaign>(gw, 'POST', `/v1/campaigns/${c._id}/send`, basic, {});
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.body.status, 'sending');
    assert.equal(sent.body.version, c.version + 1);
    const jobs = await jobsOf(c._id);
    assert.equal(jobs.length, 1);
    assert.ok(Math.abs((jobs[0]?.startAfter ?? 0) - Date.now()) < 60_000);

    const edit = await call<ErrorBody>(gw, 'PATCH', `/v1/campaigns/${c._id}`, basic, { subject: 'late' });
    assert.equal(edit.status, 409);
    assert.equal((await call(gw, 'POST', `/v1/campaigns/${c._id}/send`, basic, {})).status, 409);
    assert.equal((await call(gw, 'POST', `/v1/campaigns/${c._id}/resume`, basic, {})).status, 409);
    assert.equal((await call(gw, 'DELETE', `/v1/campaigns/${c._id}`, basic)).status, 409);

    const paused = await call<Campaign>(gw, 'POST', `/v1/campaigns/${c._id}/pause`, basic, {});
    assert.equal(paused.status, 200, paused.text);
    assert.equal(paused.body.status, 'paused');
    assert.equal((await call(gw, 'POST', `/v1/campaigns/${c._id}/pause`, basic, {})).status, 409);
    const resumed = await call<Campaign>(gw, 'POST', `/v1/campaigns/${c._id}/resume`, basic, {});
    assert.equal(resumed.status, 200, resumed.text);
    assert.equal(resumed.body.status, 'sending');
    assert.equal((await jobsOf(c._id)).length, 2, 'resume queues the send again');
    const cancelled = await call<Campaign>(gw, 'POST', `/v1/campaigns/${c._id}/cancel`, basic, {});
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.ok(cancelled.body.finished_at);
    assert.equal(cancelled.body.version, c.version + 4);
    const again = await call<ErrorBody>(gw, 'POST', `/v1/campaigns/${c._id}/cancel`, basic, {});
    assert.equal(again.status, 409);
    assert.equal((await call(gw, 'POST', `/v1/campaigns/${c._id}/unschedule`, basic, {})).status, 409);
    assert.equal((await call(gw, 'DELETE', `/v1/campaigns/${c._id}`, basic)).status, 204);
  });

  it('schedules, keeps the schedule on a save, reschedules, unschedules', async () => {
    await setUsed(basicId, 0);
    const c = await ready('Later');
    const send = (body: unknown) => call<Campaign>(gw, 'POST', `/v1/campaigns/${c._id}/send`, basic, body);
    const past = await send({ scheduled_at: new Date(Date.now() - 60_000).toISOString(), time_zone: 'UTC' });
    assert.equal(past.status, 400);
    assert.ok((past.body as unknown as ErrorBody).errors?.scheduled_at);
    const far = await send({ scheduled_at: new Date(Date.now() + 366 * DAY).toISOString() });
    assert.equal(far.status, 400);
    const noOffset = await send({ scheduled_at: '2099-01-01T10:00:00' });
    assert.equal(noOffset.status, 400);
    const badZone = await send({ scheduled_at: new Date(Date.now() + DAY).toISOString(), time_zone: 'Mars/Olympus' });
    assert.equal(badZone.status, 400);
    assert.ok((badZone.body as unknown as ErrorBody).errors?.time_zone);

    const at = new Date(Date.now() + 2 * DAY);
    at.setUTCMilliseconds(0);
    const scheduled = await send({ scheduled_at: at.toISOString(), time_zone: 'Europe/Berlin' });
    assert.equal(scheduled.status, 200, scheduled.text);
    assert.equal(scheduled.body.status, 'scheduled');
    assert.equal(scheduled.body.scheduled_at, at.toISOString());
    assert.equal(scheduled.body.time_zone, 'Europe/Berlin');
    assert.deepEqual(
      (await jobsOf(c._id)).map((j) => j.startAfter),
      [at.getTime()],
    );

    const saved = await call<Campaign>(gw, 'PATCH', `/v1/campaigns/${c._id}`, basic, {
      base_version: scheduled.body.version,
      subject: 'Changed while scheduled',
    });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.status, 'scheduled');
    assert.equal(saved.body.scheduled_at, at.toISOString());

    const later = new Date(at.getTime() + DAY);
    const rescheduled = await send({ scheduled_at: later.toISOString(), time_zone: 'America/New_York' });
    assert.equal(rescheduled.status, 200, rescheduled.text);
    assert.equal(rescheduled.body.scheduled_at, later.toISOString());
    assert.equal(rescheduled.body.time_zone, 'America/New_York');
    assert.deepEqual(
      (await jobsOf(c._id)).map((j) => j.startAfter),
      [at.getTime(), later.getTime()],
    );

    const listed = await call<CampaignPage>(gw, 'GET', '/v1/campaigns?status=scheduled', basic);
    assert.ok(listed.body.records.some((r) => r._id === c._id && r.scheduled_at === later.toISOString()));

    const draft = await call<Campaign>(gw, 'POST', `/v1/campaigns/${c._id}/unschedule`, basic, {});
    assert.equal(draft.status, 200, draft.text);
    assert.equal(draft.body.status, 'draft');
    assert.equal(draft.body.scheduled_at, null);
    assert.equal(draft.body.version, rescheduled.body.version + 1);
  });

  it("refuses (402) a send that exceeds the plan's volume left, counting what running e-mails reserve", async () => {
    // BASIC without a subscription: 10.000 e-mails this calendar month. The audience reaches 4.
    await setUsed(basicId, 9_999);
    const c = await ready('Too many');
    const r = await call<ErrorBody>(gw, 'POST', `/v1/campaigns/${c._id}/send`, basic, {});
    assert.equal(r.status, 402);
    assert.equal(
      r.body.message,
      'This e-mail would go to 4 people, 3 more than the 1 e-mail left in your plan this period. ' +
        'Upgrade your plan to send it.',
    );
    const scheduled = await call(gw, 'POST', `/v1/campaigns/${c._id}/send`, basic, {
      scheduled_at: new Date(Date.now() + DAY).toISOString(),
    });
    assert.equal(scheduled.status, 402);
    assert.equal((await call<Campaign>(gw, 'GET', `/v1/campaigns/${c._id}`, basic)).body.status, 'draft');

    // 6 left: the first e-mail (4) fits and reserves 4; the second no longer fits.
    await setUsed(basicId, 9_994);
    const first = await call<Campaign>(gw, 'POST', `/v1/campaigns/${c._id}/send`, basic, {});
    assert.equal(first.status, 200, first.text);
    const second = await ready('Second');
    const refused = await call<ErrorBody>(gw, 'POST', `/v1/campaigns/${second._id}/send`, basic, {});
    assert.equal(refused.status, 402);
    assert.match(refused.body.message, /go to 4 people, 2 more than the 2 e-mails left/);
    // Paused, the first still reserves; cancelled, it no longer does.
    await call(gw, 'POST', `/v1/campaigns/${c._id}/pause`, basic, {});
    assert.equal((await call(gw, 'POST', `/v1/campaigns/${second._id}/send`, basic, {})).status, 402);
    await call(gw, 'POST', `/v1/campaigns/${c._id}/cancel`, basic, {});
    const fits = await call<Campaign>(gw, 'POST', `/v1/campaigns/${second._id}/send`, basic, {});
    assert.equal(fits.status, 200, fits.text);
    await call(gw, 'POST', `/v1/campaigns/${second._id}/cancel`, basic, {});
    await setUsed(basicId, 0);
  });

  it("one test-send limit covers the template's and the campaign's test routes, per user and per community", async () => {
    const window = TEST_SEND_LIMIT.windowMs;
    const untilNext = window - (Date.now() % window);
    if (untilNext < 30_000) await new Promise((resolve) => setTimeout(resolve, untilNext + 1000));
    const t = await call<Template>(gw, 'POST', '/v1/templates', acme, { name: 'Tested twice' });
    await call(gw, 'PATCH', `/v1/templates/${t.body._id}`, acme, { subject: 'S', mjml: BODY });
    const c = await call<Campaign>(gw, 'POST', '/v1/campaigns', acme, { name: 'Tested twice' });
    await call(gw, 'PATCH', `/v1/campaigns/${c.body._id}`, acme, { template_id: t.body._id });
    const five = (n: number) => Array.from({ length: 5 }, (_, i) => `route${n}-${i}@t.test`);
    const viaTemplate = (n: number) =>
      call(gw, 'POST', `/v1/templates/${t.body._id}/test`, acme, { recipients: five(n) });
    const viaCampaign = (n: number) => call(gw, 'POST', `/v1/campaigns/${c.body._id}/test`, acme, { to: five(n) });
    // 5 + 5 + 5 + 5 = 20 e-mails, alternating routes; the 21st is refused on either route.
    for (const [i, send] of [viaTemplate, viaCampaign, viaTemplate, viaCampaign].entries()) {
      const r = await send(i);
      assert.equal(r.status, 200, r.text);
    }
    for (const refused of [await viaTemplate(9), await viaCampaign(9)]) {
      assert.equal(refused.status, 429, refused.text);
      assert.equal((refused.body as ErrorBody).message, TOO_MANY_TESTS);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
    }
    // The community's allowance (all its users together), used up by others: a staff member who has
    // sent no test is refused with the community's message, and nothing is sent.
    const staff = await gw.login('acmeStaff');
    const acmeId = await tenantId(gw, 'Acme DAO');
    const others = new WindowThrottle(gw.handle.db, window);
    const tenantKey = { key: testSendKeys(acmeId, 'others').tenant, max: TEST_SEND_LIMIT.perTenant };
    while ((await others.take(tenantKey, 1)) === 0);
    const before = (await gw.mails()).length;
    const staffCampaign = await call<Campaign>(gw, 'POST', '/v1/campaigns', staff, { name: 'Staff tests' });
    await call(gw, 'PATCH', `/v1/campaigns/${staffCampaign.body._id}`, staff, { template_id: t.body._id });
    const overTenant = await call<ErrorBody>(gw, 'POST', `/v1/campaigns/${staffCampaign.body._id}/test`, staff, {
      to: ['s1@t.test'],
    });
    assert.equal(overTenant.status, 429, overTenant.text);
    assert.equal(overTenant.body.message, TOO_MANY_TENANT_TESTS);
    assert.equal((await gw.mails()).length, before);
  });

  it('reserves volume and starts a send in one step: sends at the same moment never pass the plan', async () => {
    // 6 left and three e-mails of 4 each, sent at once: one fits, and it reserves its 4.
    await setUsed(basicId, 9_994);
    const race = await Promise.all([ready('Race 1'), ready('Race 2'), ready('Race 3')]);
    const answers = await Promise.all(race.map((c) => call(gw, 'POST', `/v1/campaigns/${c._id}/send`, basic, {})));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 402, 402], answers.map((a) => a.text).join('\n'));
    for (const c of race) await call(gw, 'POST', `/v1/campaigns/${c._id}/cancel`, basic, {});
    await setUsed(basicId, 0);
  });

  it('refuses to delete a template while a scheduled e-mail uses it', async () => {
    const t = await call<Template>(gw, 'POST', '/v1/templates', basic, { name: 'Scheduled use' });
    await call(gw, 'PATCH', `/v1/templates/${t.body._id}`, basic, { subject: 'S', mjml: BODY });
    const c = await ready('Uses a template');
    await call(gw, 'PATCH', `/v1/campaigns/${c._id}`, basic, { template_id: t.body._id });
    const s = await call<Campaign>(gw, 'POST', `/v1/campaigns/${c._id}/send`, basic, {
      scheduled_at: new Date(Date.now() + DAY).toISOString(),
    });
    assert.equal(s.status, 200, s.text);
    const listed = await call<{ records: { _id: string; used_by: { scheduled_emails: number; names: string[] } }[] }>(
      gw,
      'GET',
      '/v1/templates?perPage=100',
      basic,
    );
    const usage = listed.body.records.find((r) => r._id === t.body._id)?.used_by;
    assert.deepEqual(usage && { n: usage.scheduled_emails, names: usage.names }, {
      n: 1,
      names: ['Uses a template'],
    });
    const refused = await call<ErrorBody>(gw, 'DELETE', `/v1/templates/${t.body._id}`, basic);
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /1 scheduled e-mail \(Uses a template\)/);
    await call(gw, 'POST', `/v1/campaigns/${c._id}/unschedule`, basic, {});
    assert.equal((await call(gw, 'DELETE', `/v1/templates/${t.body._id}`, basic)).status, 200);
  });
});
