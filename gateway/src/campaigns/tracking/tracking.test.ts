// The public tracking addresses of campaign e-mails: open pixel, click redirects, unsubscribe (RFC 8058
// one-click and the page with resubscribe) and view in browser. Campaigns and recipients are inserted
// as the sender leaves them (log/test-fixtures.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Template, TemplateSaved } from '../../contracts';
import { queryRows, intOf } from '../../lib/raw-sql';
import { startGateway, type TestGateway } from '../../../test/helpers';
import { call, tenantId } from '../../../test/audience-helpers';
import {
  campaignFigures,
  contactStatusOf,
  eventsOf,
  insertCampaign,
  insertContact,
  insertRecipients,
  recipientRow,
} from '../log/test-fixtures';
import { recipientToken, trackingUrls } from './links';

const BROWSER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';

let gw: TestGateway;
let acme: string;
let secret: string;

before(async () => {
  gw = await startGateway();
  acme = await tenantId(gw, 'Acme DAO');
  secret = gw.config.campaigns.trackingSecret;
});
after(() => gw.close());

/** The path (and query) of a tracking address of a recipient. */
function paths(recipientId: number) {
  return trackingUrls('', secret, recipientId);
}

function fetchRaw(path: string, init: RequestInit & { ua?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('user-agent', init.ua ?? BROWSER);
  return fetch(`${gw.url}${path}`, { ...init, headers, redirect: 'manual' });
}

async function minuteCount(campaignId: string, type: string): Promise<number> {
  const [row] = await queryRows(
    gw.handle.db,
    sql`select coalesce(sum(count), 0)::int as n from campaign_event_minutes where campaign_id = ${campaignId} and type = ${type}`,
  );
  return intOf(row ?? {}, 'n');
}

describe('open pixel', () => {
  it('answers a 1×1 GIF, not cached, and counts the first human open once', async () => {
    const campaign = await insertCampaign(gw.handle.db, acme);
    const [rid = 0] = await insertRecipients(gw.handle.db, acme, campaign, [{ address: 'open1@example.com' }]);
    const first = await fetchRaw(paths(rid).open);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('content-type'), 'image/gif');
    assert.match(first.headers.get('cache-control') ?? '', /no-store/);
    const gif = Buffer.from(await first.arrayBuffer());
    assert.equal(gif.subarray(0, 6).toString('latin1'), 'GIF89a');
    assert.equal(gif.readUInt16LE(6), 1);
    assert.equal(gif.readUInt16LE(8), 1);
    await fetchRaw(paths(rid).open);
    assert.equal((await campaignFigures(gw.handle.db, campaign)).opened, 1);
    assert.ok((await recipientRow(gw.handle.db, rid)).opened_at);
    assert.deepEqual(
      (await eventsOf(gw.handle.db, rid)).map((e) => [e.type, e.machine]),
      [
        ['opened', false],
        ['opened', false],
      ],
    );
    assert.equal(await minuteCount(campaign, 'opened'), 1, 'the chart counts the unique open');
  });

  it('answers the same GIF to a forged token and records nothing', async () => {
    const campaign = await insertCampaign(gw.handle.db, acme);
    const [rid = 0] = await insertRecipients(gw.handle.db, acme, campaign, [{ address: 'open2@example.com' }]);
    const genuine = await (await fetchRaw(paths(rid).open)).arrayBuffer();
    const forged = recipientToken('not-the-secret', 'open', rid);
    const other = recipientToken(secret, 'view', rid); // a genuine token of another purpose
    for (const token of [forged, other, 'x', `${rid.toString(36)}.AAAAAAAAAAAAAAAAAAAAAA`]) {
      const r = await fetchRaw(`/email/open/${token}.gif`);
      assert.equal(r.status, 200, token);
      assert.equal(r.headers.get('content-type'), 'image/gif');
      assert.deepEqual(Buffer.from(await r.arrayBuffer()), Buffer.from(genuine));
    }
    assert.equal((await eventsOf(gw.handle.db, rid)).length, 1, 'only the genuine open');
  });

  it('records machine opens (privacy proxies, scanners, right after sending) without counting them', async () => {
    const campaign = await insertCampaign(gw.handle.db, acme);
    const [old = 0, fresh = 0] = await insertRecipients(gw.handle.db, acme, campaign, [
      { address: 'mpp@example.com' },
      { address: 'fresh@example.com', sentAt: new Date() },
    ]);
    await fetchRaw(paths(old).open, { ua: 'Mozilla/5.0' }); // Apple Mail Privacy Protection
    await fetchRaw(paths(old).open, { ua: 'Barracuda Sentinel (EE)' });
    await fetchRaw(paths(fresh).open); // a browser agent, but within seconds of sending
    assert.deepEqual(
      (await eventsOf(gw.handle.db, old)).map((e) => e.machine),
      [true, true],
    );
    assert.deepEqual(
      (await eventsOf(gw.handle.db, fresh)).map((e) => e.machine),
      [true],
    );
    assert.equal((await campaignFigures(gw.handle.db, campaign)).opened, 0);
    assert.equal((await recipientRow(gw.handle.db, old)).opened_at, null);
    assert.equal(await minuteCount(campaign, 'opened'), 0);
  });
});

describe('click redirects', () => {
  it('redirects to exactly the signed link, counts clicks per link and implies the open', async () => {
    const campaign = await insertCampaign(gw.handle.db, acme);
    const [rid = 0, rid2 = 0] = await insertRecipients(gw.handle.db, acme, campaign, [
      { address: 'click1@example.com' },
      { address: 'click2@example.com' },
    ]);
    const target = 'https://shop.example/p?a=1&b=%C3%A9#top';
    const r = await fetchRaw(paths(rid).click(target));
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), target);
    await fetchRaw(paths(rid).click(target));
    await fetchRaw(paths(rid).click('https://other.example/'));
    await fetchRaw(paths(rid2).click(target));
    const figures = await campaignFigures(gw.handle.db, campaign);
    assert.equal(figures.clicked, 2);
    assert.equal(figures.opened, 2, 'a click counts as an open when none was recorded');
    const links = await queryRows(
      gw.handle.db,
      sql`select index, url, clicks, unique_clicks from campaign_links where campaign_id = ${campaign} order by index`,
    );
    assert.deepEqual(
      links.map((l) => [intOf(l, 'index'), l.url, intOf(l, 'clicks'), intOf(l, 'unique_clicks')]),
      [
        [0, target, 3, 2],
        [1, 'https://other.example/', 1, 1],
      ],
    );
    const events = await eventsOf(gw.handle.db, rid);
    assert.deepEqual(
      events.map((e) => e.type),
      ['clicked', 'opened', 'clicked', 'clicked'],
    );
    assert.equal(events[0]?.detail, target);
    assert.equal(await minuteCount(campaign, 'clicked'), 2);
  });

  it('refuses a link that was not in the e-mail: a changed target, another recipient, not http(s)', async () => {
    const campaign = await insertCampaign(gw.handle.db, acme);
    const [rid = 0, rid2 = 0] = await insertRecipients(gw.handle.db, acme, campaign, [
      { address: 'refuse1@example.com' },
      { address: 'refuse2@example.com' },
    ]);
    const genuine = new URL(`http://x${paths(rid).click('https://shop.example/')}`);
    const token = genuine.pathname.split('/').pop() ?? '';
    const otherToken = new URL(`http://x${paths(rid2).click('https://shop.example/')}`).pathname.split('/').pop() ?? '';
    const [, otherSig] = otherToken.split('.');
    const refused = [
      `/email/click/${token}?u=${encodeURIComponent('https://evil.example/')}`,
      `/email/click/${token}?u=${encodeURIComponent('https://shop.example/x')}`,
      `/email/click/${token}`,
      `/email/click/${rid.toString(36)}.${otherSig}?u=${encodeURIComponent('https://shop.example/')}`,
      // Only the canonical id: a leading zero is another token, not the same recipient.
      `/email/click/0${token}?u=${encodeURIComponent('https://shop.example/')}`,
      `/email/click/${token}?u=${encodeURIComponent('javascript:alert(1)')}`,
      `/email/click/nonsense?u=${encodeURIComponent('https://shop.example/')}`,
    ];
    for (const path of refused) {
      const r = await fetchRaw(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.headers.get('location'), null, 'never a redirect');
      assert.match(r.headers.get('content-type') ?? '', /text\/html/);
      assert.match(await r.text(), /This link is not valid/);
      assert.match(r.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    }
    assert.deepEqual(await eventsOf(gw.handle.db, rid), []);
    assert.deepEqual(await eventsOf(gw.handle.db, rid2), []);
  });

  it('records HEAD requests and link scanners as machine clicks, still redirecting, counting nothing', async () => {
    const campaign = await insertCampaign(gw.handle.db, acme);
    const [rid = 0] = await insertRecipients(gw.handle.db, acme, campaign, [{ address: 'scan@example.com' }]);
    const link = paths(rid).click('https://shop.example/');
    const head = await fetchRaw(link, { method: 'HEAD' });
    assert.equal(head.status, 302);
    const scanner = await fetchRaw(link, { ua: 'Mozilla/5.0 (compatible; Proofpoint URL Defense)' });
    assert.equal(scanner.status, 302);
    assert.deepEqual(
      (await eventsOf(gw.handle.db, rid)).map((e) => [e.type, e.machine]),
      [
        ['clicked', true],
        ['clicked', true],
      ],
    );
    const figures = await campaignFigures(gw.handle.db, campaign);
    assert.equal(figures.clicked, 0);
    assert.equal(figures.opened, 0);
  });
});

describe('unsubscribe', () => {
  it('unsubscribes with an RFC 8058 one-click POST, once', async () => {
    const contact = await insertContact(gw.handle.db, acme, 'oneclick@example.com');
    const campaign = await insertCampaign(gw.handle.db, acme);
    const [rid = 0] = await insertRecipients(gw.handle.db, acme, campaign, [
      { address: 'oneclick@example.com', contactId: contact },
    ]);
    const post = () =>
      fetchRaw(paths(rid).unsubscribe, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    const r = await post();
    assert.equal(r.status, 200);
    assert.equal(await r.text(), '');
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'unsubscribed');
    assert.ok((await recipientRow(gw.handle.db, rid)).unsubscribed_at);
    assert.equal((await post()).status, 200, 'again: still fine');
    assert.equal((await campaignFigures(gw.handle.db, campaign)).unsubscribed, 1, 'counted once');
    assert.deepEqual(
      (await eventsOf(gw.handle.db, rid)).map((e) => e.type),
      ['unsubscribed'],
    );
    assert.equal(await minuteCount(campaign, 'unsubscribed'), 1);
  });

  it('takes the one-click field in a multipart body too, and refuses a forged token', async () => {
    const contact = await insertContact(gw.handle.db, acme, 'multipart@example.com');
    const campaign = await insertCampaign(gw.handle.db, acme);
    const [rid = 0] = await insertRecipients(gw.handle.db, acme, campaign, [
      { address: 'multipart@example.com', contactId: contact },
    ]);
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    const r = await fetchRaw(paths(rid).unsubscribe, { method: 'POST', body: form });
    assert.equal(r.status, 200);
    assert.equal(await r.text(), '');
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'unsubscribed');
    const forged = await fetchRaw(`/email/unsubscribe/${recipientToken('wrong', 'unsubscribe', rid)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(forged.status, 404);
  });

  it('shows a page (community, masked address, escaped), unsubscribes from its form, and resubscribes', async () => {
    await gw.handle.db.execute(
      sql`update communities set title = ${'Acme <b>DAO</b> & "Friends"'} where tenant_id = ${acme}`,
    );
    await gw.handle.db.execute(sql`update tenants set name = ${'Acme <b>DAO</b> & "Friends"'} where id = ${acme}`);
    const contact = await insertContact(gw.handle.db, acme, 'pageflow@example.com');
    const campaign = await insertCampaign(gw.handle.db, acme);
    const [rid = 0] = await insertRecipients(gw.handle.db, acme, campaign, [
      { address: 'pageflow@example.com', contactId: contact },
    ]);
    const path = paths(rid).unsubscribe;
    const page = await fetchRaw(path);
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src/);
    const html = await page.text();
    assert.match(html, /Acme &#60;b&#62;DAO&#60;\/b&#62; &#38; &#34;Friends&#34;/);
    assert.doesNotMatch(html, /<b>DAO/);
    assert.match(html, /p•••@example\.com/);
    assert.doesNotMatch(html, /pageflow@/);
    assert.match(
      html,
      /<form method="post" action="\/email\/unsubscribe\/[^"]+"><button type="submit">Unsubscribe<\/button>/,
    );
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'subscribed', 'a GET changes nothing');

    const done = await fetchRaw(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    assert.equal(done.status, 200);
    const doneHtml = await done.text();
    assert.match(doneHtml, /You are unsubscribed/);
    assert.match(doneHtml, /action="\/email\/unsubscribe\/[^"]+\/resubscribe"><button type="submit">Resubscribe/);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'unsubscribed');

    const again = await fetchRaw(`${path}/resubscribe`, { method: 'POST' });
    assert.equal(again.status, 200);
    assert.match(await again.text(), /You are subscribed again/);
    assert.equal(await contactStatusOf(gw.handle.db, contact), 'subscribed');
    assert.equal((await campaignFigures(gw.handle.db, campaign)).unsubscribed, 1);
  });

  it('never resubscribes (nor unsubscribes) a bounced or complained contact', async () => {
    for (const status of ['bounced', 'complained']) {
      const contact = await insertContact(gw.handle.db, acme, `${status}-keep@example.com`, { status });
      const campaign = await insertCampaign(gw.handle.db, acme);
      const [rid = 0] = await insertRecipients(gw.handle.db, acme, campaign, [
        { address: `${status}-keep@example.com`, contactId: contact },
      ]);
      await fetchRaw(paths(rid).unsubscribe, { method: 'POST' });
      assert.equal(await contactStatusOf(gw.handle.db, contact), status);
      const r = await fetchRaw(`${paths(rid).unsubscribe}/resubscribe`, { method: 'POST' });
      assert.equal(r.status, 200);
      assert.match(await r.text(), /could not subscribe you again/);
      assert.equal(await contactStatusOf(gw.handle.db, contact), status);
    }
  });

  it('answers a page saying the link is not valid for a forged token', async () => {
    const r = await fetchRaw(`/email/unsubscribe/${recipientToken('wrong', 'unsubscribe', 1)}`);
    assert.equal(r.status, 404);
    assert.match(await r.text(), /This link is not valid/);
  });
});

describe('view in browser', () => {
  it('renders the e-mail again for the recipient: escaped values, click redirects, no pixel, sandboxed', async () => {
    const owner = await gw.login('acmeOwner');
    const created = await call<Template>(gw, 'POST', '/v1/templates', owner, { name: 'View test' });
    assert.equal(created.status, 201, created.text);
    const mjml =
      '<mjml><mj-body><mj-section><mj-column><mj-text>Hello {{ contact.first_name }}</mj-text>' +
      '<mj-button href="https://shop.example/sale">Shop</mj-button>' +
      '<mj-text><a href="{{ unsubscribe_url }}">Unsubscribe</a></mj-text></mj-column></mj-section></mj-body></mjml>';
    const saved = await call<TemplateSaved>(gw, 'PATCH', `/v1/templates/${created.body._id}`, owner, {
      mjml,
      base_version: 1,
    });
    assert.equal(saved.status, 200, saved.text);
    const contact = await insertContact(gw.handle.db, acme, 'viewer@example.com', {
      firstName: '<script>alert(1)</script>',
    });
    const campaign = await insertCampaign(gw.handle.db, acme, {
      templateId: created.body._id,
      templateVersion: saved.body.template.version,
      utm: { source: 'news' },
    });
    const [rid = 0] = await insertRecipients(gw.handle.db, acme, campaign, [
      { address: 'viewer@example.com', contactId: contact },
    ]);
    const r = await fetchRaw(paths(rid).view);
    assert.equal(r.status, 200);
    const csp = r.headers.get('content-security-policy') ?? '';
    assert.match(csp, /(^|; )sandbox( |;|$)/);
    assert.doesNotMatch(csp, /allow-scripts|allow-same-origin/);
    assert.match(csp, /script-src 'none'/);
    assert.match(csp, /img-src https: http: data:/);
    assert.equal(r.headers.get('x-frame-options'), 'DENY');
    const html = await r.text();
    assert.match(html, /Hello &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /\/email\/open\//, 'no open pixel');
    const expected = trackingUrls(gw.config.campaigns.trackingUrl, secret, rid);
    assert.ok(
      html.includes(expected.click('https://shop.example/sale?utm_source=news').replace(/&/g, '&amp;')),
      'the link is the click redirect, with UTM',
    );
    assert.ok(html.includes(expected.unsubscribe), 'the recipient’s own unsubscribe link');
    assert.deepEqual(await eventsOf(gw.handle.db, rid), [], 'viewing records nothing');
  });

  it("is titled with the campaign's subject and shows its preview text, not the template's", async () => {
    const owner = await gw.login('acmeOwner');
    const created = await call<Template>(gw, 'POST', '/v1/templates', owner, {
      name: 'Titled view',
      starter: 'newsletter',
    });
    assert.equal(created.status, 201, created.text);
    const saved = await call<TemplateSaved>(gw, 'PATCH', `/v1/templates/${created.body._id}`, owner, {
      subject: 'Template subject for {{ community.name }}',
      preview_text: 'Template preview text',
      base_version: created.body.version,
    });
    assert.equal(saved.status, 200, saved.text);
    const campaign = await insertCampaign(gw.handle.db, acme, {
      templateId: created.body._id,
      templateVersion: saved.body.template.version,
    });
    await gw.handle.db.execute(
      sql`update campaigns set subject = ${'Spring drop for {{ contact.email }} & more'},
            preview_text = ${'Campaign preview text'} where id = ${campaign}`,
    );
    const [rid = 0] = await insertRecipients(gw.handle.db, acme, campaign, [{ address: 'titled@example.com' }]);
    const r = await fetchRaw(paths(rid).view);
    assert.equal(r.status, 200);
    const html = await r.text();
    assert.equal(/<title>([^<]*)<\/title>/.exec(html)?.[1], 'Spring drop for titled@example.com &#38; more');
    assert.doesNotMatch(html, /Template subject/);
    assert.match(html, /Campaign preview text/);
    assert.doesNotMatch(html, /Template preview text/);
  });

  it('says the link is not valid for a forged token, and the e-mail is gone without a template', async () => {
    const forged = await fetchRaw(`/email/view/${recipientToken('wrong', 'view', 1)}`);
    assert.equal(forged.status, 404);
    assert.match(await forged.text(), /This link is not valid/);
    const campaign = await insertCampaign(gw.handle.db, acme);
    const [rid = 0] = await insertRecipients(gw.handle.db, acme, campaign, [{ address: 'gone@example.com' }]);
    const gone = await fetchRaw(paths(rid).view);
    assert.equal(gone.status, 404);
    assert.match(await gone.text(), /no longer available/);
  });
});
