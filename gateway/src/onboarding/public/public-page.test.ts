import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { communities, contacts, listMembers, lists, plans, tenants } from '../../db/schema';
import { escapeHtml, imageOrigins, pageCsp, paragraphs, safeImageUrl } from './public-html';
import { CHECK_INBOX } from './signup-email';
import { linkIn, type Reply, startGateway, type TestGateway } from '../../../test/helpers';

const SUBJECT = /^Confirm your subscription to /;

let gw: TestGateway;
let planId: string;
let ipCounter = 0;

before(async () => {
  gw = await startGateway({ TRUST_PROXY: '1', SIGNUP_THROTTLE_ADDRESS_MAX: '2' });
  const [plan] = await gw.handle.db.select({ id: plans.id }).from(plans).limit(1);
  assert.ok(plan);
  planId = plan.id;
});
after(() => gw.close());

function nextIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter}`;
}

interface CommunityOptions {
  title?: string;
  slug?: string;
  show?: boolean;
  public?: boolean;
  withList?: boolean;
  description?: string;
  shortDescription?: string;
  whatYouGet?: string[];
  logo?: string | null;
  background?: string | null;
}

async function newCommunity(o: CommunityOptions = {}) {
  const suffix = randomBytes(4).toString('hex');
  const [tenant] = await gw.handle.db
    .insert(tenants)
    .values({ name: `Tenant ${suffix}`, planId })
    .returning({ id: tenants.id });
  assert.ok(tenant);
  let listId: string | null = null;
  if (o.withList !== false) {
    const [list] = await gw.handle.db
      .insert(lists)
      .values({ tenantId: tenant.id, name: `Community ${suffix}` })
      .returning({ id: lists.id });
    listId = list?.id ?? null;
  }
  const slug = o.slug ?? `community-${suffix}`;
  const [community] = await gw.handle.db
    .insert(communities)
    .values({
      tenantId: tenant.id,
      title: o.title ?? `Community ${suffix}`,
      slug,
      show: o.show ?? true,
      public: o.public ?? false,
      description: o.description ?? '',
      shortDescription: o.shortDescription ?? '',
      whatYouGet: o.whatYouGet ?? [],
      logo: o.logo ?? null,
      background: o.background ?? null,
      listId,
    })
    .returning({ id: communities.id });
  assert.ok(community);
  return { id: community.id, tenantId: tenant.id, listId, slug };
}

function postForm(path: string, fields: Record<string, string>, ip = nextIp()): Promise<Reply<string>> {
  return gw.request<string>(path, {
    rawBody: new URLSearchParams(fields).toString(),
    contentType: 'application/x-www-form-urlencoded',
    headers: { 'x-forwarded-for': ip },
  });
}

function assertStrictPage(r: Reply<unknown>): void {
  assert.match(r.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
  const csp = r.headers.get('content-security-policy') ?? '';
  for (const part of ["default-src 'none'", "img-src 'self'", "style-src 'self'", "form-action 'self'"]) {
    assert.ok(csp.includes(part), `${part} in ${csp}`);
  }
  assert.ok(!/unsafe-inline|unsafe-eval/.test(csp));
  assert.ok(!/<script/i.test(r.text), 'no script on the page');
  // Inside real tags (escaped text has no '<'):
  assert.ok(!/<[a-z][^>]*\sstyle=/i.test(r.text), 'no inline style');
  assert.ok(!/<[a-z][^>]*\son[a-z]+=/i.test(r.text), 'no inline event handler');
}

describe('rules', () => {
  it('escapes text and attributes', () => {
    assert.equal(
      escapeHtml(`<a href="x" onclick='y'>&</a>`),
      '&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;&#60;/a&#62;',
    );
  });

  it('texts become paragraphs at blank lines, line breaks inside, everything escaped', () => {
    assert.equal(
      paragraphs('One\nline two\n\n\n  Two <b>  \r\n\r\nThree'),
      '<p>One<br>line two</p>\n<p>Two &#60;b&#62;</p>\n<p>Three</p>',
    );
    assert.equal(paragraphs('  \n\n '), '');
  });

  it('images only from absolute http(s) addresses', () => {
    assert.equal(safeImageUrl('https://cdn.example/a.png'), 'https://cdn.example/a.png');
    assert.equal(safeImageUrl('http://localhost:4000/files/x.png'), 'http://localhost:4000/files/x.png');
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '/relative.png', '', null]) {
      assert.equal(safeImageUrl(bad), null, String(bad));
    }
  });

  it('the policy allows images from this gateway and the bucket only', () => {
    const local = imageOrigins({ publicUrl: 'https://api.example/base', s3: null });
    assert.deepEqual(local, ['https://api.example']);
    const s3 = imageOrigins({
      publicUrl: 'https://api.example',
      s3: { bucket: 'b', region: 'eu-west-1', endpoint: null, publicBaseUrl: 'https://cdn.example/img/' },
    });
    assert.deepEqual(s3, ['https://api.example', 'https://cdn.example']);
    const aws = imageOrigins({
      publicUrl: 'https://api.example',
      s3: { bucket: 'b', region: 'eu-west-1', endpoint: null, publicBaseUrl: null },
    });
    assert.ok(aws.includes('https://b.s3.eu-west-1.amazonaws.com'));
    assert.equal(
      pageCsp(['https://cdn.example']),
      "default-src 'none'; img-src 'self' https://cdn.example; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
  });
});

describe('GET /c/{slug}', () => {
  it('renders an enabled community with every text escaped, under a strict policy', async () => {
    const c = await newCommunity({
      title: 'Moon <script>alert(1)</script> DAO',
      shortDescription: 'Short & "sweet" <img src=x onerror=alert(2)>',
      whatYouGet: ['Weekly <script>news</script>', '', 'Airdrops'],
      description: 'First paragraph.\n\nSecond <script>alert(3)</script>\nline two.',
      logo: 'https://cdn.example/logo.png',
      background: 'https://cdn.example/bg.png" onload="alert(4)',
    });
    const r = await gw.get<string>(`/c/${c.slug}`);
    assert.equal(r.status, 200);
    assertStrictPage(r);
    assert.ok(r.text.includes('<title>Moon &#60;script&#62;alert(1)&#60;/script&#62; DAO</title>'));
    assert.ok(r.text.includes('<h1>Moon &#60;script&#62;alert(1)&#60;/script&#62; DAO</h1>'));
    assert.ok(r.text.includes('Short &#38; &#34;sweet&#34; &#60;img src=x onerror=alert(2)&#62;'));
    assert.ok(r.text.includes('<h2 id="what-you-get">What you get</h2>'));
    assert.ok(r.text.includes('<li>Weekly &#60;script&#62;news&#60;/script&#62;</li><li>Airdrops</li>'));
    assert.ok(
      r.text.includes('<p>First paragraph.</p>\n<p>Second &#60;script&#62;alert(3)&#60;/script&#62;<br>line two.</p>'),
    );
    assert.ok(r.text.includes('<img class="logo" src="https://cdn.example/logo.png"'));
    assert.ok(
      r.text.includes('<img class="background" src="https://cdn.example/bg.png%22%20onload=%22alert(4)" alt="">'),
    );
    assert.ok(r.text.includes('<link rel="stylesheet" href="/public/assets/community.css">'));
    assert.ok(r.text.includes(`<form method="post" action="/c/${c.slug}/signup" class="signup">`));
    assert.ok(r.text.includes('<label for="email">E-mail address</label>'));
  });

  it('the slug is matched case-insensitively; images that are not http(s) are left out', async () => {
    const c = await newCommunity({ logo: 'javascript:alert(1)', background: 'data:image/png;base64,AAAA' });
    const r = await gw.get<string>(`/c/${c.slug.toUpperCase()}`);
    assert.equal(r.status, 200);
    assert.ok(!r.text.includes('<img'));
    assert.ok(!r.text.includes('What you get'), 'no empty section');
  });

  it('404 page for a disabled, unknown or malformed community', async () => {
    const hidden = await newCommunity({ show: false, public: true });
    for (const slug of [hidden.slug, 'no-such-community', '..%2F..%2Fetc', 'a%3Cb']) {
      const r = await gw.get<string>(`/c/${slug}`);
      assert.equal(r.status, 404, slug);
      assertStrictPage(r);
      assert.match(r.text, /Community not found/);
    }
  });

  it('no form when the community has no list', async () => {
    const c = await newCommunity({ withList: false });
    const r = await gw.get<string>(`/c/${c.slug}`);
    assert.equal(r.status, 200);
    assert.ok(!r.text.includes('<form'));
    assert.equal((await postForm(`/c/${c.slug}/signup`, { email: 'x@example.com' })).status, 404);
  });

  it('the stylesheet is served as CSS', async () => {
    const r = await gw.get<string>('/public/assets/community.css');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/css/);
    assert.ok(r.text.includes('.card'));
  });
});

describe('GET /c (directory)', () => {
  it('lists only communities that are enabled and listed publicly', async () => {
    const listed = await newCommunity({ title: 'Listed <b>One</b>', public: true });
    const notPublic = await newCommunity({ title: 'Not Public', public: false });
    const notShown = await newCommunity({ title: 'Not Shown', public: true, show: false });
    const r = await gw.get<string>('/c');
    assert.equal(r.status, 200);
    assertStrictPage(r);
    assert.ok(r.text.includes(`<a href="/c/${listed.slug}">Listed &#60;b&#62;One&#60;/b&#62;</a>`));
    assert.ok(!r.text.includes(notPublic.slug));
    assert.ok(!r.text.includes(notShown.slug));
  });
});

describe('POST /c/{slug}/signup', () => {
  async function contactIn(tenantId: string, email: string) {
    return gw.handle.db
      .select({ id: contacts.id, source: contacts.source, status: contacts.status })
      .from(contacts)
      .where(and(eq(contacts.tenantId, tenantId), eq(contacts.email, email)));
  }

  it('double opt-in into the community list, with the same neutral page every time', async () => {
    const c = await newCommunity({ title: 'Opt <In>' });
    assert.ok(c.listId);
    const first = await postForm(`/c/${c.slug}/signup`, { email: 'Hank@Example.com' });
    assert.equal(first.status, 200);
    assertStrictPage(first);
    assert.ok(first.text.includes(CHECK_INBOX));
    assert.equal((await contactIn(c.tenantId, 'hank@example.com')).length, 0);

    const mail = await gw.waitForMail('hank@example.com', SUBJECT);
    assert.match(mail.subject, /Opt <In>/);
    const link = new URL(linkIn(mail, `${gw.config.onboarding.publicUrl}/public/signups/confirm?token=`));
    const confirmed = await gw.get<string>(`${link.pathname}${link.search}`);
    assert.equal(confirmed.status, 200);
    assert.ok(confirmed.text.includes('subscribed to Opt &#60;In&#62;'));
    const [hank, ...more] = await contactIn(c.tenantId, 'hank@example.com');
    assert.ok(hank);
    assert.equal(more.length, 0);
    assert.equal(hank.source, 'widget');
    assert.equal(hank.status, 'subscribed');
    const members = await gw.handle.db
      .select()
      .from(listMembers)
      .where(and(eq(listMembers.listId, c.listId), eq(listMembers.contactId, hank.id)));
    assert.equal(members.length, 1);
    assert.equal((await gw.get(`${link.pathname}${link.search}`)).status, 200, 'a second open is harmless');

    // Subscribed already: the same page, and no new e-mail.
    await gw.app.deps.background.drain();
    const before = (await gw.mails()).filter((m) => m.to.includes('hank@example.com')).length;
    const second = await postForm(`/c/${c.slug}/signup`, { email: 'hank@example.com' });
    assert.equal(second.status, 200);
    assert.equal(second.text, first.text);
    await gw.app.deps.background.drain();
    assert.equal((await gw.mails()).filter((m) => m.to.includes('hank@example.com')).length, before);
    const [list] = await gw.handle.db.select({ n: lists.memberCount }).from(lists).where(eq(lists.id, c.listId));
    assert.equal(list?.n, 1);
  });

  it('an invalid address shows the form again with the reason', async () => {
    const c = await newCommunity();
    const r = await postForm(`/c/${c.slug}/signup`, { email: 'nope' });
    assert.equal(r.status, 400);
    assertStrictPage(r);
    assert.ok(r.text.includes('class="error"'));
    assert.ok(r.text.includes('<form'));
  });

  it('404 for a disabled community; 429 page after the address limit (2 here)', async () => {
    const hidden = await newCommunity({ show: false });
    assert.equal((await postForm(`/c/${hidden.slug}/signup`, { email: 'ivy@example.com' })).status, 404);

    const c = await newCommunity();
    const ip = nextIp();
    assert.equal((await postForm(`/c/${c.slug}/signup`, { email: 'j1@example.com' }, ip)).status, 200);
    assert.equal((await postForm(`/c/${c.slug}/signup`, { email: 'j2@example.com' }, ip)).status, 200);
    const limited = await postForm(`/c/${c.slug}/signup`, { email: 'j3@example.com' }, ip);
    assert.equal(limited.status, 429);
    assertStrictPage(limited);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  });

  it('a link whose community lost its list says sign-ups are closed', async () => {
    const c = await newCommunity();
    assert.equal((await postForm(`/c/${c.slug}/signup`, { email: 'kim@example.com' })).status, 200);
    const mail = await gw.waitForMail('kim@example.com', SUBJECT);
    await gw.handle.db.update(communities).set({ listId: null }).where(eq(communities.id, c.id));
    const link = new URL(linkIn(mail, `${gw.config.onboarding.publicUrl}/public/signups/confirm?token=`));
    const r = await gw.get<string>(`${link.pathname}${link.search}`);
    assert.equal(r.status, 404);
    assert.match(r.text, /closed/);
    assert.equal((await contactIn(c.tenantId, 'kim@example.com')).length, 0);
  });
});
