// The delivery log API: chart, recipients grid (filters, search, pages, counts), a recipient's
// timeline, links, CSV export; permission and tenant isolation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { DeliveryEventList, DeliveryLinkList, DeliveryRecipientPage, DeliveryTimeline } from '../../contracts';
import { users } from '../../db/schema';
import { startGateway, type TestGateway } from '../../../test/helpers';
import { parseCsv, qs, tenantId } from '../../../test/audience-helpers';
import { countEvents } from '../event-minutes';
import { trackingUrls } from '../tracking/links';
import { recordComplaint, trackedRecipient } from '../tracking/record';
import { insertCampaign, insertContact, insertRecipients } from './test-fixtures';
import { COUNT_CAP } from './log-store';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

let gw: TestGateway;
let acme: string;
let owner: string;
let campaign: string;
let other: string;
let ids: Map<string, number>;
/** A recipient of the other tenant's campaign. */
let otherRid: number;

async function hit(path: string): Promise<void> {
  await fetch(`${gw.url}${path}`, { headers: { 'user-agent': BROWSER }, redirect: 'manual' });
}

const addresses = [
  'alice@example.com',
  'albert@example.com',
  'bob@example.com',
  'carol@example.com',
  'dave@example.com',
  'al_x@example.com',
  'erin@example.com',
  'frank@example.com',
  'grace@example.com',
  'heidi@example.com',
  'ivan@example.com',
  'judy@example.com',
];

before(async () => {
  gw = await startGateway();
  acme = await tenantId(gw, 'Acme DAO');
  owner = await gw.login('acmeOwner');
  const db = gw.handle.db;
  campaign = await insertCampaign(db, acme, { name: 'Log' });
  const base = Date.now() - 3 * 3_600_000;
  const recipientIds = await insertRecipients(
    db,
    acme,
    campaign,
    addresses.map((address, i) => ({
      address,
      sentAt: new Date(base + i * 60_000),
      status: address === 'bob@example.com' ? 'bounced' : address === 'carol@example.com' ? 'failed' : 'delivered',
      error: address === 'carol@example.com' ? '=HYPERLINK("http://evil.example","x"), oops' : null,
    })),
  );
  ids = new Map(addresses.map((a, i) => [a, recipientIds[i] ?? 0]));
  const urls = (a: string) => trackingUrls('', gw.config.campaigns.trackingSecret, ids.get(a) ?? 0);
  for (const a of ['alice@example.com', 'albert@example.com', 'dave@example.com']) await hit(urls(a).open);
  await hit(urls('alice@example.com').click('https://shop.example/a'));
  await hit(urls('alice@example.com').click('https://shop.example/b'));
  await hit(urls('erin@example.com').click('https://shop.example/b'));
  await hit(urls('erin@example.com').click('https://shop.example/b'));
  const unsub = await fetch(`${gw.url}${urls('dave@example.com').unsubscribe}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  assert.equal(unsub.status, 200);
  const frank = await trackedRecipient(db, ids.get('frank@example.com') ?? 0);
  assert.ok(frank);
  await recordComplaint(db, frank, new Date(), 'abuse report');

  other = await insertCampaign(db, await tenantId(gw, 'Basic Guild'), { name: 'Other tenant' });
  [otherRid = 0] = await insertRecipients(db, await tenantId(gw, 'Basic Guild'), other, [
    { address: 'alice@example.com' },
  ]);
});
after(() => gw.close());

function recipients(id: string, params: Record<string, string | number | undefined>, token = owner) {
  return gw.get<DeliveryRecipientPage>(`/v1/campaigns/${id}/log/recipients?${qs(params)}`, token);
}

describe('delivery log: recipients grid', () => {
  it('pages by address with the spec pagination and the campaign count', async () => {
    const first = await recipients(campaign, { perPage: 5, sortField: 'address', sortOrder: 'asc' });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(
      first.body.records.map((r) => r.address),
      [...addresses].sort().slice(0, 5),
    );
    assert.deepEqual(first.body.pagination, { starting: 1, ending: 5, count: 12, previous: null, next: 2 });
    const last = await recipients(campaign, { perPage: 5, page: 3, sortField: 'address', sortOrder: 'asc' });
    assert.deepEqual(
      last.body.records.map((r) => r.address),
      [...addresses].sort().slice(10),
    );
    assert.deepEqual(last.body.pagination, { starting: 11, ending: 12, count: 12, previous: 2, next: null });
    const desc = await recipients(campaign, { perPage: 3 });
    assert.deepEqual(
      desc.body.records.map((r) => r.address),
      [...addresses].sort().reverse().slice(0, 3),
      'default: address, descending',
    );
    const alice = first.body.records.find((r) => r.address === 'alice@example.com');
    assert.ok(alice?.opened_at && alice.clicked_at && alice.sent_at);
    assert.equal(alice?.status, 'delivered');
    assert.equal(alice?.channel, 'email');
    assert.equal(alice?._id, String(ids.get('alice@example.com')));
  });

  it('reads pages past the middle from the end, in the same order', async () => {
    const sorted = [...addresses].sort();
    for (const [sortField, order] of [
      ['address', sorted],
      ['sent_at', addresses],
    ] as const) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        const expected = sortOrder === 'asc' ? order : [...order].reverse();
        const seen: string[] = [];
        for (let page = 1; page <= 3; page++) {
          const r = await recipients(campaign, { perPage: 5, page, sortField, sortOrder });
          seen.push(...r.body.records.map((x) => x.address));
        }
        assert.deepEqual(seen, expected, `${sortField} ${sortOrder}`);
      }
    }
    const opened = await recipients(campaign, { event: 'opened', perPage: 3, page: 2, sortOrder: 'asc' });
    assert.deepEqual(
      opened.body.records.map((x) => x.address),
      ['erin@example.com'],
    );
    const past = await recipients(campaign, { perPage: 5, page: 9 });
    assert.deepEqual(past.body.records, []);
    assert.equal(past.body.pagination.previous, 3);
  });

  it('sorts by sent time', async () => {
    const r = await recipients(campaign, { perPage: 3, sortField: 'sent_at', sortOrder: 'asc' });
    assert.deepEqual(
      r.body.records.map((x) => x.address),
      addresses.slice(0, 3),
    );
  });

  it('filters by status and by event, with counts', async () => {
    const cases: [Record<string, string>, string[]][] = [
      [{ status: 'bounced' }, ['bob@example.com']],
      [{ event: 'bounced' }, ['bob@example.com']],
      [{ event: 'failed' }, ['carol@example.com']],
      [{ event: 'opened' }, ['albert@example.com', 'alice@example.com', 'dave@example.com', 'erin@example.com']],
      [{ event: 'clicked' }, ['alice@example.com', 'erin@example.com']],
      [{ event: 'unsubscribed' }, ['dave@example.com']],
      [{ event: 'complained' }, ['frank@example.com']],
      [{ status: 'delivered', event: 'clicked' }, ['alice@example.com', 'erin@example.com']],
      [{ status: 'queued' }, []],
    ];
    for (const [filter, expected] of cases) {
      const r = await recipients(campaign, { ...filter, sortOrder: 'asc', perPage: 100 });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.body.records.map((x) => x.address),
        expected,
        JSON.stringify(filter),
      );
      assert.equal(r.body.pagination.count, expected.length, JSON.stringify(filter));
      assert.equal(r.body.count_capped, undefined);
    }
    assert.equal((await recipients(campaign, { status: 'lost' })).status, 400);
    assert.equal((await recipients(campaign, { event: 'read' })).status, 400);
  });

  it('searches by address prefix, case-insensitive, wildcards taken literally', async () => {
    const al = await recipients(campaign, { searchString: 'AL', sortOrder: 'asc' });
    assert.deepEqual(
      al.body.records.map((r) => r.address),
      ['al_x@example.com', 'albert@example.com', 'alice@example.com'],
    );
    assert.equal(al.body.pagination.count, 3);
    const underscore = await recipients(campaign, { searchString: 'al_' });
    assert.deepEqual(
      underscore.body.records.map((r) => r.address),
      ['al_x@example.com'],
    );
    assert.deepEqual((await recipients(campaign, { searchString: '%' })).body.records, []);
    assert.deepEqual(
      (await recipients(campaign, { searchString: 'lice' })).body.records,
      [],
      'a prefix, not a substring',
    );
    const opened = await recipients(campaign, { searchString: 'al', event: 'opened' });
    assert.equal(opened.body.pagination.count, 2);
  });

  it('says the count is capped past 10,000 rows beyond the page, without counting them all', async () => {
    const db = gw.handle.db;
    const big = await insertCampaign(db, acme, { name: 'Big' });
    const n = COUNT_CAP + 25;
    await db.execute(
      sql`insert into campaign_recipients (campaign_id, tenant_id, address, status, sent_at)
          select ${big}, ${acme}, 'r' || lpad(i::text, 6, '0') || '@example.com', 'delivered', now()
            from generate_series(1, ${n}) i`,
    );
    await db.execute(sql`update campaigns set recipients = ${n} where id = ${big}`);
    const all = await recipients(big, { perPage: 10 });
    assert.equal(all.body.pagination.count, n, 'the campaign count');
    const delivered = await recipients(big, { perPage: 10, status: 'delivered' });
    assert.equal(delivered.body.count_capped, true);
    assert.equal(delivered.body.pagination.count, 10 + COUNT_CAP);
    assert.equal(delivered.body.pagination.next, 2);
    const searched = await recipients(big, { perPage: 10, searchString: 'r00000' });
    assert.equal(searched.body.pagination.count, 9);
    assert.equal(searched.body.count_capped, undefined);
  });
});

describe('delivery log: timeline, events, links', () => {
  it('re-buckets minute counts to at most 200 points, keeping the sums', async () => {
    const db = gw.handle.db;
    const c = await insertCampaign(db, acme, { name: 'Chart' });
    const start = new Date('2026-05-01T00:00:00Z');
    for (let i = 0; i < 3 * 24 * 60; i += 7) {
      await countEvents(db, c, 'sent', new Date(start.getTime() + i * 60_000), 2);
    }
    await countEvents(db, c, 'opened', new Date(start.getTime() + 3 * 24 * 3_600_000 - 60_000), 5);
    const r = await gw.get<DeliveryTimeline>(`/v1/campaigns/${c}/log/timeline`, owner);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.buckets.length <= 200 && r.body.buckets.length > 100, String(r.body.buckets.length));
    assert.equal(r.body.bucket_seconds, 1800);
    assert.equal(r.body.buckets[0]?.at, '2026-05-01T00:00:00.000Z');
    const sum = (k: 'sent' | 'opened') => r.body.buckets.reduce((s, b) => s + b[k], 0);
    assert.equal(sum('sent'), 2 * Math.ceil((3 * 24 * 60) / 7));
    assert.equal(sum('opened'), 5);
    assert.equal(r.body.buckets.at(-1)?.opened, 5);

    const empty = await insertCampaign(db, acme, { name: 'Quiet' });
    const none = await gw.get<DeliveryTimeline>(`/v1/campaigns/${empty}/log/timeline`, owner);
    assert.deepEqual(none.body.buckets, []);
  });

  it('counts the tracked events of the campaign on the chart', async () => {
    const r = await gw.get<DeliveryTimeline>(`/v1/campaigns/${campaign}/log/timeline`, owner);
    const sum = (k: 'opened' | 'clicked' | 'unsubscribed' | 'complained') =>
      r.body.buckets.reduce((s, b) => s + b[k], 0);
    assert.deepEqual([sum('opened'), sum('clicked'), sum('unsubscribed'), sum('complained')], [4, 2, 1, 1]);
  });

  it("lists a recipient's events oldest first", async () => {
    const alice = ids.get('alice@example.com');
    const r = await gw.get<DeliveryEventList>(`/v1/campaigns/${campaign}/log/recipients/${alice}/events`, owner);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.records.map((e) => [e.type, e.detail]),
      [
        ['sent', null],
        ['delivered', null],
        ['opened', null],
        ['clicked', 'https://shop.example/a'],
        ['clicked', 'https://shop.example/b'],
      ],
    );
    const times = r.body.records.map((e) => Date.parse(e.at));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );
    for (const rid of ['0', 'abc', '99999999', '1e3', String(otherRid)]) {
      const missing = await gw.get(`/v1/campaigns/${campaign}/log/recipients/${rid}/events`, owner);
      assert.equal(missing.status, 404, rid);
    }
  });

  it("takes sent and delivered from the recipient's row, once, and keeps the events stored before", async () => {
    const events = async (address: string) => {
      const r = await gw.get<DeliveryEventList>(
        `/v1/campaigns/${campaign}/log/recipients/${ids.get(address)}/events`,
        owner,
      );
      assert.equal(r.status, 200, r.text);
      return r.body.records.map((e) => [e.type, e.detail]);
    };
    // Bounced at the server: sent, never delivered.
    assert.deepEqual(await events('bob@example.com'), [['sent', null]]);
    // Recorded before sent and delivered were the row's times: its own events, each once.
    const grace = ids.get('grace@example.com') ?? 0;
    await gw.handle.db.execute(
      sql`insert into campaign_events (tenant_id, campaign_id, recipient_id, type, detail, at)
          select tenant_id, campaign_id, id, t.type, t.detail, sent_at
            from campaign_recipients, (values ('sent', 'stored'), ('delivered', 'stored')) as t(type, detail)
           where id = ${grace}`,
    );
    assert.deepEqual(await events('grace@example.com'), [
      ['sent', 'stored'],
      ['delivered', 'stored'],
    ]);
  });

  it('lists the links, most clicked first', async () => {
    const r = await gw.get<DeliveryLinkList>(`/v1/campaigns/${campaign}/log/links`, owner);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.records, [
      { url: 'https://shop.example/b', clicks: 3, unique_clicks: 2 },
      { url: 'https://shop.example/a', clicks: 1, unique_clicks: 1 },
    ]);
  });
});

describe('delivery log: CSV export', () => {
  it('streams every recipient with escaped cells', async () => {
    const r = await gw.request(`/v1/campaigns/${campaign}/log/export?${qs({ sortOrder: 'asc' })}`, { token: owner });
    assert.equal(r.status, 200, r.text);
    assert.match(r.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(
      r.headers.get('content-disposition') ?? '',
      /attachment; filename="delivery-log-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    // The file starts with a UTF-8 BOM (fetch's text() drops it, so read the bytes).
    const raw = await fetch(`${gw.url}/v1/campaigns/${campaign}/log/export`, {
      headers: { authorization: `Bearer ${owner}` },
    });
    assert.deepEqual([...new Uint8Array(await raw.arrayBuffer()).subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const rows = parseCsv(r.text.replace(/^\uFEFF/, ''));
    assert.deepEqual(rows[0], [
      'address',
      'channel',
      'status',
      'attempts',
      'sent_at',
      'opened_at',
      'clicked_at',
      'unsubscribed_at',
      'error',
    ]);
    assert.deepEqual(
      rows.slice(1).map((row) => row[0]),
      [...addresses].sort(),
    );
    const carol = rows.find((row) => row[0] === 'carol@example.com');
    assert.equal(carol?.[2], 'failed');
    assert.equal(carol?.[8], `'=HYPERLINK("http://evil.example","x"), oops`, 'a formula is neutralised');
    assert.ok(r.text.includes(`"'=HYPERLINK(""http://evil.example"",""x""), oops"`));
    const filtered = await gw.request(`/v1/campaigns/${campaign}/log/export?${qs({ event: 'clicked' })}`, {
      token: owner,
    });
    assert.deepEqual(
      parseCsv(filtered.text.replace(/^\uFEFF/, ''))
        .slice(1)
        .map((row) => row[0]),
      ['alice@example.com', 'erin@example.com'],
    );
  });

  it('exports in slices past one statement', async () => {
    const db = gw.handle.db;
    const c = await insertCampaign(db, acme, { name: 'Slices' });
    await db.execute(
      sql`insert into campaign_recipients (campaign_id, tenant_id, address, status)
          select ${c}, ${acme}, 's' || lpad(i::text, 5, '0') || '@example.com', 'queued' from generate_series(1, 2345) i`,
    );
    const r = await gw.request(`/v1/campaigns/${c}/log/export`, { token: owner });
    const rows = parseCsv(r.text.replace(/^\uFEFF/, '')).slice(1);
    assert.equal(rows.length, 2345);
    assert.equal(new Set(rows.map((row) => row[0])).size, 2345);
  });
});

describe('delivery log: access', () => {
  it("is 404 for another tenant's campaign or a malformed id", async () => {
    for (const id of [other, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      for (const path of ['timeline', 'recipients', 'links', 'export', 'recipients/1/events']) {
        const r = await gw.get(`/v1/campaigns/${id}/log/${path}`, owner);
        assert.equal(r.status, 404, `${id} ${path}`);
      }
    }
  });

  it('is 401 without a session and 403 without view_engagement_emails', async () => {
    assert.equal((await gw.get(`/v1/campaigns/${campaign}/log/recipients`, null)).status, 401);
    const staff = await gw.login('acmeStaff');
    assert.equal((await gw.get(`/v1/campaigns/${campaign}/log/timeline`, staff)).status, 200, 'staff holds it');
    await gw.handle.db
      .update(users)
      .set({ permissions: ['manage_contacts'] })
      .where(eq(users.email, 'staff@acme.test'));
    gw.sessionsChanged();
    assert.equal((await gw.get(`/v1/campaigns/${campaign}/log/timeline`, staff)).status, 403);
    for (const path of [
      'timeline',
      'recipients',
      'links',
      'export',
      `recipients/${ids.get('alice@example.com')}/events`,
    ]) {
      assert.equal((await gw.get(`/v1/campaigns/${campaign}/log/${path}`, staff)).status, 403, path);
    }
  });

  it('keeps a contact id on rows, and the contact deleted later leaves the address', async () => {
    const db = gw.handle.db;
    const contact = await insertContact(db, acme, 'kept@example.com');
    const c = await insertCampaign(db, acme, { name: 'Kept' });
    await insertRecipients(db, acme, c, [{ address: 'kept@example.com', contactId: contact }]);
    const before = await recipients(c, {});
    assert.equal(before.body.records[0]?.contact_id, contact);
    await db.execute(sql`delete from contacts where id = ${contact}`);
    const afterDelete = await recipients(c, {});
    assert.equal(afterDelete.body.records[0]?.contact_id, null);
    assert.equal(afterDelete.body.records[0]?.address, 'kept@example.com');
  });
});
