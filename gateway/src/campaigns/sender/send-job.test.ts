// The campaign send job against a real SMTP peer (smtp-server), read with postal-mime: the message
// (headers, parts, merge tags, tracking), the audience count against what is sent, exclusions,
// retries and bounces, pause/resume/cancel, the plan's volume, schedules and tenant isolation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Contact, Template } from '../../contracts';
import { intOf, queryRows, textOf } from '../../lib/raw-sql';
import { toChecksumAddress } from '../../lib/eip55';
import { verifyClick, verifyRecipientToken } from '../tracking/links';
import { countAudience, expandPart, takeAudience } from '../audience';
import { enqueueCampaign } from './queue';
import { VOLUME_USED_UP } from './run';
import { claim } from './claim';
import { answerOf, commitGroup } from './commit';
import { endLease, openLease, TAKEN_OVER, takeOverExpired } from './lease';
import { startGateway, type TestGateway } from '../../../test/helpers';
import { call, tenantId } from '../../../test/audience-helpers';
import {
  addToList,
  campaignRow,
  createCampaign,
  createList,
  generousPlans,
  insertContacts,
  parseMail,
  recipientStatuses,
  startSmtpPeer,
  TEMPLATE_MJML,
  waitForStatus,
  waitUntil,
  type SmtpPeer,
} from '../../../test/campaign-send-helpers';
import { recipientOfToken } from '../tracking/recipient-token';
import { recipientOfUnsubscribeSubject, recipientOfVerp, verpAddress } from '../inbound/addresses';

const DOMAIN = 'wallet.test';
let peer: SmtpPeer;
let gw: TestGateway;
let owner: string;
let acme: string;
let lab: string;
let templateId: string;

const db = () => gw.handle.db;
const send = (id: string) => enqueueCampaign(gw.app.deps.jobs, id);
const receivedTo = (domain: string) => peer.received.filter((m) => m.to.endsWith(domain));

before(async () => {
  peer = await startSmtpPeer();
  gw = await startGateway({
    SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
    WALLET_MAIL_DOMAIN: DOMAIN,
    SEND_RETRY_DELAY_SECONDS: '1',
    SEND_MAX_ATTEMPTS: '3',
    SEND_POOL_SIZE: '4',
    // The lease tests take leases over themselves: the gateway's own sweep runs every 15 s here.
    SEND_LEASE_SECONDS: '60',
    JOBS_POLL_SECONDS: '0.5',
    TRACKING_URL: 'https://t.example.org',
    UNSUBSCRIBE_MAILBOX: 'unsubscribe@acme.example',
  });
  owner = await gw.login('acmeOwner');
  [acme, lab] = await Promise.all([tenantId(gw, 'Acme DAO'), tenantId(gw, 'Lab Rats')]);
  await generousPlans(db());
  const created = await call<Template>(gw, 'POST', '/v1/templates', owner, { name: 'Campaign body' });
  assert.equal(created.status, 201, created.text);
  const saved = await call(gw, 'PATCH', `/v1/templates/${created.body._id}`, owner, {
    subject: 'Template subject',
    preview_text: 'Preview',
    mjml: TEMPLATE_MJML,
  });
  assert.equal(saved.status, 200, saved.text);
  templateId = created.body._id;
});

after(async () => {
  await gw.close();
  await peer.close();
});

describe('a campaign sent over SMTP', () => {
  let campaignId: string;
  let listId: string;
  let walletContact: Contact;

  it('counts its audience with every reason for leaving people out', async () => {
    listId = await createList(db(), acme, 'Readers');
    const excludedList = await createList(db(), acme, 'Excluded');
    await insertContacts(db(), acme, 40, 'reader', { listId });
    await insertContacts(db(), acme, 3, 'gone', { listId, status: 'unsubscribed' });
    await insertContacts(db(), acme, 2, 'bounce', { listId, status: 'bounced' });
    await insertContacts(db(), acme, 1, 'spam', { listId, status: 'complained' });
    // Two wallet-only contacts: one reachable, one whose address another contact already has.
    const wallet = await call<Contact>(gw, 'POST', '/v1/contacts', owner, {
      wallet: '0x52908400098527886e0f7030069857d2e4169ee7',
      first_name: 'Wally',
    });
    assert.equal(wallet.status, 201, wallet.text);
    walletContact = wallet.body;
    const twinWallet = '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359';
    const twin = await call<Contact>(gw, 'POST', '/v1/contacts', owner, { wallet: twinWallet });
    const holder = await call<Contact>(gw, 'POST', '/v1/contacts', owner, { email: `${twinWallet}@${DOMAIN}` });
    assert.equal(twin.status, 201, twin.text);
    assert.equal(holder.status, 201, holder.text);
    for (const c of [wallet.body, twin.body, holder.body]) await addToList(db(), listId, c._id);
    // Excluded: in the excluded list (and unsubscribed too: excluded comes first).
    const both = await queryRows(
      db(),
      sql`select id::text from contacts where tenant_id = ${acme}::uuid and email in ('reader1@send.test', 'gone1@send.test')`,
    );
    for (const r of both) await addToList(db(), excludedList, textOf(r, 'id') ?? '');
    // Another tenant's list of the same shape is never counted.
    const labList = await createList(db(), lab, 'Readers');
    await insertContacts(db(), lab, 5, 'lab', { listId: labList });

    const selection = {
      include_lists: [listId, labList],
      include_segments: [],
      exclude_lists: [excludedList],
      exclude_segments: [],
    };
    const count = await countAudience(db(), acme, selection, DOMAIN);
    assert.deepEqual(count, {
      matched: 49,
      reachable: 41,
      email: 40, // 39 readers + the holder of the twin address
      wallet: 1,
      excluded: 2,
      unsubscribed: 2,
      bounced: 2,
      complained: 1,
      no_address: 0,
      duplicates: 1,
      wallet_mail_domain: DOMAIN,
    });
    const noDomain = await countAudience(db(), acme, selection, null);
    assert.equal(noDomain.no_address, 2, 'both wallet-only contacts are unreachable without a wallet mail domain');
    assert.equal(noDomain.duplicates, 0);
    assert.equal(noDomain.reachable, 40);

    campaignId = await createCampaign(db(), {
      tenantId: acme,
      templateId,
      audience: selection,
      subject: 'Hello {{ contact.first_name }}',
      utm: { source: 'newsletter', campaign: 'spring' },
      replyTo: 'replies@acme.example',
    });
    await send(campaignId);
    await waitForStatus(db(), campaignId, 'sent').catch(async (e: unknown) => {
      console.log(await campaignRow(db(), campaignId), await recipientStatuses(db(), campaignId));
      console.log(await queryRows(db(), sql`select state, output from pgboss.job where name = 'campaigns.send'`));
      throw e;
    });
    const row = await campaignRow(db(), campaignId);
    assert.equal(intOf(row, 'recipients'), count.reachable, 'the count shown is the number of recipients');
    assert.equal(intOf(row, 'sent'), count.reachable);
    assert.equal(intOf(row, 'delivered'), count.reachable);
    assert.ok(row.audience_taken_at);
    assert.equal(row.template_version, 2);
    assert.deepEqual(await recipientStatuses(db(), campaignId), { delivered: count.reachable });
    const mine = peer.received.filter((m) => !m.to.startsWith('lab'));
    assert.equal(mine.length, count.reachable);
    assert.equal(new Set(mine.map((m) => m.to.toLowerCase())).size, count.reachable, 'each address once');
    assert.equal(receivedTo('@send.test').filter((m) => m.to.startsWith('lab')).length, 0, 'no other tenant');
    for (const gone of ['reader1@send.test', 'gone2@send.test', 'bounce1@send.test', 'spam1@send.test']) {
      assert.ok(!mine.some((m) => m.to === gone), `${gone} is left out`);
    }
    // Sent and delivered are the rows' times, not event rows (the timeline reads them there).
    const [times] = await queryRows(
      db(),
      sql`select count(sent_at)::int as sent, count(delivered_at)::int as delivered,
                 (select count(*)::int from campaign_events where campaign_id = ${campaignId}::uuid) as events
            from campaign_recipients where campaign_id = ${campaignId}::uuid`,
    );
    assert.deepEqual(
      [intOf(times ?? {}, 'sent'), intOf(times ?? {}, 'delivered'), intOf(times ?? {}, 'events')],
      [count.reachable, count.reachable, 0],
    );
    const [minutes] = await queryRows(
      db(),
      sql`select coalesce(sum(count), 0)::int as n from campaign_event_minutes where campaign_id = ${campaignId}::uuid and type = 'sent'`,
    );
    assert.equal(intOf(minutes ?? {}, 'n'), count.reachable);
    const [usage] = await queryRows(
      db(),
      sql`select coalesce(sum(sent), 0)::int as n from email_usage where tenant_id = ${acme}::uuid`,
    );
    assert.ok(intOf(usage ?? {}, 'n') >= count.reachable);
  });

  it('carries the headers and parts of a campaign e-mail, merge tags and tracking resolved', async () => {
    const mail = peer.received.find((m) => m.to === 'reader7@send.test');
    assert.ok(mail);
    const parsed = await parseMail(mail.raw);
    const [rec] = await queryRows(
      db(),
      sql`select id from campaign_recipients where campaign_id = ${campaignId}::uuid and address = 'reader7@send.test'`,
    );
    const rid = intOf(rec ?? {}, 'id');
    const header = (name: string) => parsed.headers.find((h) => h.key === name.toLowerCase())?.value ?? '';
    assert.equal(parsed.subject, 'Hello Reader');
    assert.equal(parsed.messageId, `<${campaignId}.${rid}@console.test>`);
    assert.equal(parsed.from?.name, 'Acme News');
    assert.equal(parsed.replyTo?.[0]?.address, 'replies@acme.example');
    const secret = gw.config.campaigns.trackingSecret;
    assert.equal(recipientOfToken(secret, header('X-Recipient-Id')), rid, 'an opaque token of the recipient');
    assert.match(header('List-Id'), /^"[^"]+" <[0-9a-f-]{36}\.console\.test>$/);
    assert.equal(header('Feedback-ID'), `${campaignId}:${acme}:console.test`);
    assert.equal(header('List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
    const unsubscribe = header('List-Unsubscribe');
    const https = /<(https:\/\/t\.example\.org\/email\/unsubscribe\/([^>]+))>/.exec(unsubscribe);
    assert.ok(https, unsubscribe);
    assert.equal(verifyRecipientToken(gw.config.campaigns.trackingSecret, 'unsubscribe', https[2] ?? ''), rid);
    const mailto = /<mailto:unsubscribe@acme\.example\?subject=([^>]+)>/.exec(unsubscribe);
    assert.equal(recipientOfUnsubscribeSubject(gw.config.campaigns, mailto?.[1] ?? ''), rid, 'a signed token');
    // VERP: the envelope sender names the recipient, signed, on the bounce domain; From stays the campaign's.
    assert.match(mail.from, /^bounce-[a-z2-7]{39}@bounces\.console\.test$/);
    assert.equal(mail.from, verpAddress(gw.config.campaigns, rid));
    assert.equal(recipientOfVerp(gw.config.campaigns, mail.from), rid);
    const html = parsed.html ?? '';
    const text = parsed.text ?? '';
    assert.match(html, /Hi Reader No7, news from Acme DAO/);
    assert.match(text, /Hi Reader No7, news from Acme DAO/);
    assert.match(
      html,
      /<img src="https:\/\/t\.example\.org\/email\/open\/[0-9a-z]+\.[A-Za-z0-9_-]+\.gif"/,
      'open pixel',
    );
    assert.ok(html.includes(https[1] ?? '-'), 'the unsubscribe merge tag is the recipient link');
    assert.match(html, /https:\/\/t\.example\.org\/email\/view\/[0-9a-z]+\./, 'view in browser link');
    const click = /href="(https:\/\/t\.example\.org\/email\/click\/([^"?]+)\?u=([^"]+))"/.exec(html);
    assert.ok(click, 'click redirect');
    const target = decodeURIComponent((click[3] ?? '').replace(/&amp;/g, '&'));
    assert.equal(target, 'https://example.org/news?x=1&utm_source=newsletter&utm_campaign=spring');
    assert.equal(verifyClick(gw.config.campaigns.trackingSecret, click[2] ?? '', target), rid);
    assert.match(text, /https:\/\/t\.example\.org\/email\/click\//, 'text links are tracked too');
    assert.doesNotMatch(html + text, /\{\{|\{%/);
  });

  it('sends a wallet-only contact to its checksummed address at the wallet mail domain', async () => {
    const expected = `${toChecksumAddress(walletContact.wallet ?? '')}@${DOMAIN}`;
    const mail = peer.received.find((m) => m.to === expected);
    assert.ok(mail, `a mail to ${expected}`);
    const parsed = await parseMail(mail.raw);
    assert.equal(parsed.subject, 'Hello Wally');
  });
});

describe('answers of the SMTP server', () => {
  it('retries 4xx (at RCPT and after the data) until delivered; 5xx bounces and marks the contact bounced', async () => {
    const list = await createList(db(), acme, 'Answers');
    await insertContacts(db(), acme, 3, 'soft', { listId: list, domain: 'answers.test' });
    await insertContacts(db(), acme, 2, 'late', { listId: list, domain: 'answers.test' });
    await insertContacts(db(), acme, 2, 'hard', { listId: list, domain: 'answers.test' });
    await insertContacts(db(), acme, 1, 'dead', { listId: list, domain: 'answers.test' });
    await insertContacts(db(), acme, 1, 'never', { listId: list, domain: 'answers.test' });
    const tries = new Map<string, number>();
    const count = (a: string) => {
      const n = (tries.get(a) ?? 0) + 1;
      tries.set(a, n);
      return n;
    };
    peer.rcpt = (a) => {
      if (a.startsWith('soft') && count(a) === 1) return { code: 451, message: 'Try again later' };
      if (a.startsWith('hard')) return { code: 550, message: 'No such user' };
      if (a.startsWith('never')) return { code: 421, message: 'Busy' };
      return null;
    };
    peer.data = (a) => {
      if (a.startsWith('late') && count(a) === 1) return { code: 452, message: 'Mailbox full, later' };
      if (a.startsWith('dead')) return { code: 554, message: 'Rejected' };
      return null;
    };
    try {
      const id = await createCampaign(db(), { tenantId: acme, templateId, audience: { include_lists: [list] } });
      await send(id);
      await waitForStatus(db(), id, 'sent', 60_000);
      assert.deepEqual(await recipientStatuses(db(), id), { delivered: 5, bounced: 3, failed: 1 });
      const row = await campaignRow(db(), id);
      assert.equal(intOf(row, 'delivered'), 5);
      assert.equal(intOf(row, 'bounced'), 3);
      assert.equal(intOf(row, 'failed'), 1);
      assert.equal(
        intOf(row, 'sent'),
        5 + 1,
        'delivered and the data-time bounce; deferred tries are not counted twice',
      );
      const received = receivedTo('@answers.test');
      assert.equal(received.length, 5);
      assert.equal(new Set(received.map((m) => m.to)).size, 5, 'each delivered once');
      const statuses = await queryRows(
        db(),
        sql`select email, status from contacts where tenant_id = ${acme}::uuid and email like '%@answers.test' order by email`,
      );
      const bounced = statuses.filter((r) => textOf(r, 'status') === 'bounced').map((r) => textOf(r, 'email'));
      assert.deepEqual(bounced, ['dead1@answers.test', 'hard1@answers.test', 'hard2@answers.test']);
      const [attempts] = await queryRows(
        db(),
        sql`select attempts, error from campaign_recipients where campaign_id = ${id}::uuid and address = 'never1@answers.test'`,
      );
      assert.equal(intOf(attempts ?? {}, 'attempts'), 3, 'at most SEND_MAX_ATTEMPTS attempts');
      assert.match(textOf(attempts ?? {}, 'error') ?? '', /421/);
      const after = await countAudience(
        db(),
        acme,
        { include_lists: [list], include_segments: [], exclude_lists: [], exclude_segments: [] },
        DOMAIN,
      );
      assert.equal(after.bounced, 3, 'a hard bounce leaves the contact out of later sends');
    } finally {
      peer.rcpt = () => null;
      peer.data = () => null;
    }
  });
});

describe('pause, resume, cancel', () => {
  async function slowCampaign(name: string, n: number): Promise<string> {
    const list = await createList(db(), acme, name);
    await insertContacts(db(), acme, n, name, { listId: list, domain: 'slow.test' });
    return createCampaign(db(), { tenantId: acme, templateId, audience: { include_lists: [list] } });
  }
  const setStatus = (id: string, status: string) =>
    db().execute(sql`update campaigns set status = ${status}, version = version + 1 where id = ${id}::uuid`);
  const delivered = async (id: string) => intOf(await campaignRow(db(), id), 'sent');

  it('pause stops within 2 s and resume carries on to the end', async () => {
    peer.delayMs = 20;
    try {
      const id = await slowCampaign('pausing', 400);
      await send(id);
      await waitUntil(async () => (await delivered(id)) > 20, 120_000, 'some sent');
      await setStatus(id, 'paused');
      const pausedAt = Date.now();
      await new Promise((r) => setTimeout(r, 2_000));
      const atTwo = await delivered(id);
      await new Promise((r) => setTimeout(r, 1_500));
      assert.equal(
        await delivered(id),
        atTwo,
        `nothing sent more than 2 s after the pause (${Date.now() - pausedAt} ms)`,
      );
      assert.ok(atTwo < 400);
      const statuses = await recipientStatuses(db(), id);
      assert.equal(statuses.sending, undefined, 'no row left in flight');
      peer.delayMs = 0;
      await setStatus(id, 'sending');
      await send(id);
      await waitForStatus(db(), id, 'sent');
      assert.deepEqual(await recipientStatuses(db(), id), { delivered: 400 });
      const got = receivedTo('@slow.test').filter((m) => m.to.startsWith('pausing'));
      assert.equal(got.length, 400);
      assert.equal(new Set(got.map((m) => m.to)).size, 400);
    } finally {
      peer.delayMs = 0;
    }
  });

  it('cancel stops within 2 s and the rest is skipped', async () => {
    peer.delayMs = 20;
    try {
      const id = await slowCampaign('cancelling', 400);
      await send(id);
      await waitUntil(async () => (await delivered(id)) > 20, 120_000, 'some sent');
      await setStatus(id, 'cancelled');
      await new Promise((r) => setTimeout(r, 2_000));
      const atTwo = await delivered(id);
      await new Promise((r) => setTimeout(r, 1_500));
      assert.equal(await delivered(id), atTwo, 'nothing sent more than 2 s after the cancel');
      const statuses = await recipientStatuses(db(), id);
      assert.equal(statuses.queued, undefined);
      assert.equal(statuses.sending, undefined);
      assert.equal((statuses.skipped ?? 0) + (statuses.delivered ?? 0), 400);
      assert.ok((statuses.skipped ?? 0) > 0);
    } finally {
      peer.delayMs = 0;
    }
  });
});

describe('the plan volume and schedules', () => {
  it('pauses when the volume is used up, and carries on once the plan allows more', async () => {
    const list = await createList(db(), lab, 'Volume');
    await insertContacts(db(), lab, 30, 'vol', { listId: list, domain: 'volume.test' });
    const day = new Date().toISOString().slice(0, 10);
    await db().execute(sql`update plan_prices set email_limit = 1000`);
    await db().execute(sql`insert into email_usage (tenant_id, day, sent) values (${lab}::uuid, ${day}, 988)
                           on conflict (tenant_id, day) do update set sent = 988`);
    const id = await createCampaign(db(), {
      tenantId: lab,
      templateId: await labTemplate(),
      audience: { include_lists: [list] },
    });
    await send(id);
    await waitForStatus(db(), id, 'paused');
    const row = await campaignRow(db(), id);
    assert.equal(row.failure_reason, VOLUME_USED_UP);
    assert.equal(intOf(row, 'sent'), 12, 'exactly the volume left');
    await generousPlans(db());
    await db().execute(sql`update campaigns set status = 'sending', failure_reason = null where id = ${id}::uuid`);
    await send(id);
    await waitForStatus(db(), id, 'sent');
    assert.deepEqual(await recipientStatuses(db(), id), { delivered: 30 });
    assert.equal(receivedTo('@volume.test').length, 30);
  });

  it('starts a scheduled campaign when its time comes, and not before', async () => {
    const list = await createList(db(), acme, 'Scheduled');
    await insertContacts(db(), acme, 5, 'sched', { listId: list, domain: 'sched.test' });
    const at = new Date(Date.now() + 1_500);
    const id = await createCampaign(db(), {
      tenantId: acme,
      templateId,
      audience: { include_lists: [list] },
      status: 'scheduled',
      scheduledAt: at,
    });
    await send(id); // a job run before the time does nothing
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(textOf(await campaignRow(db(), id), 'status'), 'scheduled');
    await enqueueCampaign(gw.app.deps.jobs, id, at);
    await waitForStatus(db(), id, 'sent');
    assert.equal(receivedTo('@sched.test').length, 5);
    const unscheduled = await createCampaign(db(), {
      tenantId: acme,
      templateId,
      audience: { include_lists: [list] },
      status: 'scheduled',
      scheduledAt: new Date(Date.now() + 3_600_000),
    });
    await send(unscheduled);
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(textOf(await campaignRow(db(), unscheduled), 'status'), 'scheduled', 'not due: nothing happens');
  });
});

describe('leases: a process that stops renewing is taken over, and its late writes are refused', () => {
  it('queues its claimed rows again, flags its handed-over rows unconfirmed, and sends the rest once', async () => {
    const list = await createList(db(), acme, 'Taken over');
    await insertContacts(db(), acme, 12, 'over', { listId: list, domain: 'over.test' });
    const id = await createCampaign(db(), { tenantId: acme, templateId, audience: { include_lists: [list] } });
    // The state a process killed or frozen mid-send leaves: every row claimed under its lease, five
    // of them handed over (committed just before the end of their data), none answered.
    const audience = { include_lists: [list], include_segments: [], exclude_lists: [], exclude_segments: [] };
    const n = await takeAudience(db(), id, acme, audience, DOMAIN);
    await db().execute(sql`update campaigns set recipients = ${n}, audience_taken_at = now() where id = ${id}::uuid`);
    while (await expandPart(db(), id, acme, 'queued'));
    const dead = { epoch: await openLease(db(), id, 'dead-host:1:abcd', { leaseSeconds: 30 }), worker: 'dead' };
    const claimed = await claim(db(), dead, id, 12, 'queued');
    assert.equal(claimed.length, 12);
    const handedIds = claimed.slice(0, 5).map((r) => r.id);
    const scope = { campaignId: id, tenantId: acme, epoch: dead.epoch, maxAttempts: 3, retryDelaySeconds: 1 };
    const handings = handedIds.map((rowId) => ({ id: rowId, messageId: `<${id}.${rowId}@acme.example>` }));
    const first = await commitGroup(db(), scope, handings, [], new Date());
    assert.deepEqual(
      [...first.handed].sort((a, b) => a - b),
      handedIds,
    );
    assert.deepEqual(await recipientStatuses(db(), id), { handing: 5, sending: 7 });
    assert.equal(intOf(await campaignRow(db(), id), 'sent'), 5, 'handed over: counted sent');

    // Not expired yet: nothing is taken over.
    assert.deepEqual(await takeOverExpired(db()), []);
    await db().execute(
      sql`update campaign_send_leases set expires_at = now() - interval '1 second' where id = ${dead.epoch}`,
    );
    const taken = await takeOverExpired(db());
    assert.deepEqual(taken, [{ campaignId: id, unconfirmed: 5 }]);
    assert.deepEqual(await takeOverExpired(db()), [], 'a lease is taken over once');
    assert.deepEqual(await recipientStatuses(db(), id), { queued: 7, unconfirmed: 5 });
    const row = await campaignRow(db(), id);
    assert.equal(intOf(row, 'unconfirmed'), 5);
    assert.equal(intOf(row, 'sent'), 5);
    const notes = await queryRows(
      db(),
      sql`select r.error, e.type, r.attempts from campaign_recipients r join campaign_events e on e.recipient_id = r.id
           where r.campaign_id = ${id}::uuid and r.status = 'unconfirmed'`,
    );
    assert.equal(notes.length, 5, 'an event per unconfirmed row');
    assert.ok(notes.every((r) => textOf(r, 'error') === TAKEN_OVER && textOf(r, 'type') === 'unconfirmed'));

    // The old holder comes back: its answers, its handings and its claims change nothing.
    const late = await commitGroup(
      db(),
      scope,
      claimed.slice(5, 7).map((r) => ({ id: r.id, messageId: '<late@x>' })),
      handedIds.map((rowId) => ({ id: rowId, kind: 'delivered' as const, detail: '250 ok', afterData: true })),
      new Date(),
    );
    assert.deepEqual(late, { handed: new Set(), dropped: 5 });
    assert.deepEqual(await claim(db(), dead, id, 12, 'queued'), []);
    assert.deepEqual(await recipientStatuses(db(), id), { queued: 7, unconfirmed: 5 });
    assert.equal(intOf(await campaignRow(db(), id), 'delivered'), 0);

    // A new run sends the queued rows once, and never the unconfirmed ones.
    await send(id);
    await waitForStatus(db(), id, 'sent');
    assert.equal(receivedTo('@over.test').length, 7);
    assert.deepEqual(await recipientStatuses(db(), id), { delivered: 7, unconfirmed: 5 });
    const done = await campaignRow(db(), id);
    assert.deepEqual(
      ['recipients', 'sent', 'delivered', 'unconfirmed'].map((k) => intOf(done, k)),
      [12, 12, 7, 5],
    );
    const leases = await queryRows(db(), sql`select id from campaign_send_leases where campaign_id = ${id}::uuid`);
    assert.equal(leases.length, 0, 'every lease of the campaign ended');
  });

  it('records a message whose answer never came after its data as unconfirmed, never sent again', async () => {
    const list = await createList(db(), acme, 'No answer');
    await insertContacts(db(), acme, 3, 'mute', { listId: list, domain: 'mute.test' });
    const id = await createCampaign(db(), { tenantId: acme, templateId, audience: { include_lists: [list] } });
    const epoch = await openLease(db(), id, 'w', { leaseSeconds: 30 });
    const audience = { include_lists: [list], include_segments: [], exclude_lists: [], exclude_segments: [] };
    await takeAudience(db(), id, acme, audience, DOMAIN);
    while (await expandPart(db(), id, acme, 'queued'));
    const [row] = await claim(db(), { epoch, worker: 'w' }, id, 1, 'queued');
    const scope = { campaignId: id, tenantId: acme, epoch, maxAttempts: 3, retryDelaySeconds: 1 };
    await commitGroup(db(), scope, [{ id: row!.id, messageId: '<m@x>' }], [], new Date());
    const answer = answerOf(row!.id, { code: 0, text: 'Connection closed' }, true);
    assert.equal(answer.kind, 'unconfirmed');
    assert.deepEqual(await commitGroup(db(), scope, [], [answer], new Date()), {
      handed: new Set(),
      dropped: 0,
    });
    const [after] = await queryRows(db(), sql`select status, error from campaign_recipients where id = ${row!.id}`);
    assert.equal(textOf(after!, 'status'), 'unconfirmed');
    assert.match(textOf(after!, 'error') ?? '', /may not have arrived.*Connection closed/);
    assert.equal(intOf(await campaignRow(db(), id), 'unconfirmed'), 1);
    await endLease(db(), epoch);
  });
});

let labTemplateId: string | null = null;
async function labTemplate(): Promise<string> {
  if (labTemplateId) return labTemplateId;
  const token = await gw.login('labOwner');
  const created = await call<Template>(gw, 'POST', '/v1/templates', token, { name: 'Lab body' });
  assert.equal(created.status, 201, created.text);
  const saved = await call(gw, 'PATCH', `/v1/templates/${created.body._id}`, token, {
    subject: 'Lab',
    preview_text: '',
    mjml: TEMPLATE_MJML,
  });
  assert.equal(saved.status, 200, saved.text);
  labTemplateId = created.body._id;
  return labTemplateId;
}
