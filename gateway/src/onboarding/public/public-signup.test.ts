import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { PublicWidget, WalletChallenge, WidgetType } from '../../contracts';
import { communities, contacts, listMembers, lists, pendingSignups, plans, tenants, widgets } from '../../db/schema';
import { clientKey, retryAfterSeconds, TOO_MANY_SIGNUPS, windowStart } from './public-throttle';
import { originAllowed, WRONG_SITE, widgetHost, widgetOrigin } from './public-widgets';
import { CHECK_INBOX, oneLine } from './signup-email';
import { challengeMessage, SIGNATURE_FAILED, SIGNED_UP } from './signup-wallet';
import { type ErrorBody, linkIn, type Reply, startGateway, type TestGateway } from '../../../test/helpers';

const SITE = 'https://shop.example.com';
const SUBJECT = /^Confirm your subscription to /;

let gw: TestGateway;
let tenantId: string;
let ipCounter = 0;

before(async () => {
  gw = await startGateway({
    TRUST_PROXY: '1',
    SIGNUP_THROTTLE_ADDRESS_MAX: '3',
    SIGNUP_THROTTLE_WIDGET_MAX: '5',
  });
  const [plan] = await gw.handle.db.select({ id: plans.id }).from(plans).limit(1);
  assert.ok(plan);
  const [tenant] = await gw.handle.db
    .insert(tenants)
    .values({ name: 'Widget Tenant', planId: plan.id })
    .returning({ id: tenants.id });
  assert.ok(tenant);
  tenantId = tenant.id;
  await gw.handle.db.insert(communities).values({ tenantId, title: 'Widget <b>Friends</b>', slug: 'widget-friends' });
});
after(() => gw.close());

/** Every test signs up from addresses of its own (X-Forwarded-For, the gateway trusts the proxy here). */
function nextIp(): string {
  ipCounter += 1;
  return `203.0.113.${ipCounter}`;
}

async function newWidget(type: WidgetType = 'Subscription Widget', url = `${SITE}/blog/page?x=1`) {
  const [list] = await gw.handle.db
    .insert(lists)
    .values({ tenantId, name: `target ${randomBytes(4).toString('hex')}` })
    .returning({ id: lists.id });
  assert.ok(list);
  const [widget] = await gw.handle.db
    .insert(widgets)
    .values({ tenantId, type, targetId: list.id, url })
    .returning({ id: widgets.id });
  assert.ok(widget);
  return { id: widget.id, listId: list.id };
}

function signup<T = { message: string }>(
  widgetId: string,
  body: unknown,
  ip: string,
  origin: string | null = SITE,
): Promise<Reply<T>> {
  const headers: Record<string, string> = { 'x-forwarded-for': ip };
  if (origin !== null) headers.origin = origin;
  return gw.request<T>(`/public/widgets/${widgetId}/signups`, { body, headers });
}

async function signupsOf(widgetId: string): Promise<number> {
  const [row] = await gw.handle.db.select({ n: widgets.signups }).from(widgets).where(eq(widgets.id, widgetId));
  return row?.n ?? -1;
}

async function memberCount(listId: string): Promise<number> {
  const [row] = await gw.handle.db.select({ n: lists.memberCount }).from(lists).where(eq(lists.id, listId));
  return row?.n ?? -1;
}

async function contactsWhere(column: 'email' | 'wallet', value: string) {
  const col = column === 'email' ? contacts.email : contacts.wallet;
  return gw.handle.db
    .select({
      id: contacts.id,
      email: contacts.email,
      wallet: contacts.wallet,
      source: contacts.source,
      status: contacts.status,
    })
    .from(contacts)
    .where(and(eq(contacts.tenantId, tenantId), sql`lower(${col}) = lower(${value})`));
}

async function isMember(listId: string, contactId: string): Promise<boolean> {
  const rows = await gw.handle.db
    .select()
    .from(listMembers)
    .where(and(eq(listMembers.listId, listId), eq(listMembers.contactId, contactId)));
  return rows.length === 1;
}

/** The path and query of the n-th confirmation link sent to `to` (the test gateway's public URL differs). */
async function confirmPath(to: string, n = 1): Promise<string> {
  const mail = await gw.waitForMail(to, SUBJECT, n);
  const link = new URL(linkIn(mail, `${gw.config.onboarding.publicUrl}/public/signups/confirm?token=`));
  return `${link.pathname}${link.search}`;
}

async function mailsTo(to: string): Promise<number> {
  await gw.app.deps.background.drain();
  return (await gw.mails()).filter((m) => m.to.includes(to)).length;
}

describe('rules', () => {
  it('fixed windows: start, and the wait until the window ends once over the limit', () => {
    assert.equal(windowStart(3_725_000, 3_600_000), 3_600_000);
    assert.equal(retryAfterSeconds(3, 3, 3_725_000, 3_600_000), 0);
    assert.equal(retryAfterSeconds(4, 3, 3_725_000, 3_600_000), 3475);
    assert.equal(retryAfterSeconds(1, 0, 3_725_000, 3_600_000), 3475, 'max 0 switches sign-ups off');
    assert.equal(retryAfterSeconds(9, 3, 7_199_999, 3_600_000), 1, 'never less than a second');
  });

  it('client keys: IPv4 as is, IPv4-mapped unwrapped, IPv6 by its /64', () => {
    assert.equal(clientKey('198.51.100.7'), '198.51.100.7');
    assert.equal(clientKey('::ffff:198.51.100.7'), '198.51.100.7');
    assert.equal(clientKey('2001:db8:1:2:3:4:5:6'), '2001:0db8:0001:0002::/64');
    assert.equal(clientKey('2001:db8:1:2::9'), '2001:0db8:0001:0002::/64');
    assert.equal(clientKey('2001:DB8:1:2:ffff::1'), '2001:0db8:0001:0002::/64');
    assert.equal(clientKey('::1'), '0000:0000:0000:0000::/64');
    assert.equal(clientKey('not:an:ip::x'), 'not:an:ip::x');
  });

  it('a widget answers only its own website origin', () => {
    const cases: [string | undefined, string, boolean][] = [
      [undefined, 'https://a.example/x', true],
      ['https://a.example', 'https://a.example/x?y#z', true],
      ['https://a.example', 'a.example/page', true],
      ['https://a.example:8443', 'https://a.example:8443/', true],
      ['http://a.example', 'https://a.example/', false],
      ['https://b.example', 'https://a.example/', false],
      ['https://a.example.evil.test', 'https://a.example/', false],
      ['null', 'https://a.example/', false],
      ['https://a.example', 'javascript:alert(1)', false],
      ['https://a.example', '', false],
    ];
    for (const [origin, url, expected] of cases) assert.equal(originAllowed(origin, url), expected, `${origin} ${url}`);
    assert.equal(widgetOrigin('HTTPS://A.Example/Path'), 'https://a.example');
    assert.equal(widgetHost('https://a.example:8443/x'), 'a.example:8443');
  });

  it('the wallet message names the community, the host, the nonce and the time, one line each', () => {
    const message = challengeMessage({
      community: 'Evil\nNonce: 123',
      host: 'a.example',
      nonce: 'abc123',
      issuedAt: new Date('2026-01-02T03:04:05.000Z'),
    });
    assert.match(message, /^a\.example asks you to sign up to Evil Nonce: 123 with your wallet\./);
    assert.match(message, /\nWebsite: a\.example\n/);
    assert.match(message, /\nNonce: abc123\n/);
    assert.match(message, /\nIssued At: 2026-01-02T03:04:05\.000Z$/);
    assert.equal(message.match(/^Nonce: /gm)?.length, 1, 'a title cannot add lines');
    assert.equal(oneLine(' a\r\n\tb\u2028c '), 'a b c');
  });
});

describe('GET /public/widgets/{id}', () => {
  it('answers what the SDK draws, readable from any page', async () => {
    const w = await newWidget();
    const r = await gw.get<PublicWidget>(`/public/widgets/${w.id}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      _id: w.id,
      type: 'Subscription Widget',
      community: { title: 'Widget <b>Friends</b>', alias: 'widget-friends', logo: null },
    });
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
  });

  it('404 JSON for unknown and malformed ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '%27%3B--']) {
      const r = await gw.get<ErrorBody>(`/public/widgets/${id}`);
      assert.equal(r.status, 404, id);
      assert.equal(typeof r.body.message, 'string');
    }
  });
});

describe('e-mail sign-up with double opt-in', () => {
  it('202, a confirmation e-mail, and the link adds the contact to the target list once', async () => {
    const w = await newWidget();
    const ip = nextIp();
    const r = await signup(w.id, { email: '  Alice.Doe@Example.COM ' }, ip);
    assert.equal(r.status, 202, r.text);
    assert.deepEqual(r.body, { message: CHECK_INBOX });
    assert.equal(r.headers.get('access-control-allow-origin'), SITE);
    assert.equal((await contactsWhere('email', 'alice.doe@example.com')).length, 0, 'nobody is added before opting in');

    const mail = await gw.waitForMail('alice.doe@example.com', SUBJECT);
    assert.match(mail.subject, /Widget <b>Friends<\/b>/);
    const path = await confirmPath('alice.doe@example.com');
    const page = await gw.get(path);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.match(page.text, /Subscription confirmed/);
    assert.match(page.text, /Widget &#60;b&#62;Friends&#60;\/b&#62;/, 'the title is escaped');

    const [contact, ...more] = await contactsWhere('email', 'alice.doe@example.com');
    assert.ok(contact);
    assert.equal(more.length, 0);
    assert.equal(contact.email, 'alice.doe@example.com');
    assert.equal(contact.source, 'widget');
    assert.equal(contact.status, 'subscribed');
    assert.ok(await isMember(w.listId, contact.id));
    assert.equal(await signupsOf(w.id), 1);
    assert.equal(await memberCount(w.listId), 1);

    const again = await gw.get(path);
    assert.equal(again.status, 200, 'opening the link twice is harmless');
    assert.equal(await signupsOf(w.id), 1);
    assert.equal(await memberCount(w.listId), 1);
  });

  it('the same person twice: same answer, no duplicate contact, signups stay 1', async () => {
    const w = await newWidget();
    const email = 'bob@example.com';
    const first = await signup(w.id, { email }, nextIp());
    const second = await signup(w.id, { email: 'BOB@example.com' }, nextIp());
    assert.equal(first.status, 202);
    assert.equal(second.status, 202);
    assert.equal(second.text, first.text);
    // Both links work; the contact is created once.
    await gw.get(await confirmPath(email, 1));
    await gw.get(await confirmPath(email, 2));
    assert.equal((await contactsWhere('email', email)).length, 1);
    assert.equal(await signupsOf(w.id), 1);

    // Once subscribed: the same answer again, and no further e-mail goes out.
    const sent = await mailsTo(email);
    const third = await signup(w.id, { email }, nextIp());
    assert.equal(third.status, 202);
    assert.equal(third.text, first.text);
    assert.equal(await mailsTo(email), sent);
    assert.equal(await signupsOf(w.id), 1);
    assert.equal(await memberCount(w.listId), 1);
  });

  it('an unsubscribed contact who opts in again is subscribed again and counted for the widget', async () => {
    const w = await newWidget();
    await gw.handle.db
      .insert(contacts)
      .values({ tenantId, email: 'carol@example.com', status: 'unsubscribed', source: 'import' });
    assert.equal((await signup(w.id, { email: 'carol@example.com' }, nextIp())).status, 202);
    await gw.get(await confirmPath('carol@example.com'));
    const [carol] = await contactsWhere('email', 'carol@example.com');
    assert.ok(carol);
    assert.equal(carol.status, 'subscribed');
    assert.equal(carol.source, 'import', 'an existing contact keeps its source');
    assert.ok(await isMember(w.listId, carol.id));
    assert.equal(await signupsOf(w.id), 1);
  });

  it('a contact already in the list who confirms is not counted again', async () => {
    const w = await newWidget();
    const [dave] = await gw.handle.db
      .insert(contacts)
      .values({ tenantId, email: 'dave@example.com', status: 'unsubscribed', source: 'manual' })
      .returning({ id: contacts.id });
    assert.ok(dave);
    await gw.handle.db.insert(listMembers).values({ listId: w.listId, contactId: dave.id });
    assert.equal((await signup(w.id, { email: 'dave@example.com' }, nextIp())).status, 202);
    await gw.get(await confirmPath('dave@example.com'));
    const [after] = await contactsWhere('email', 'dave@example.com');
    assert.equal(after?.status, 'subscribed');
    assert.equal(await signupsOf(w.id), 0);
    assert.equal(await memberCount(w.listId), 1);
  });

  it('400 with a field error for an invalid address; a Login Widget takes wallets only', async () => {
    const w = await newWidget();
    for (const email of ['not-an-email', '', 'a@b']) {
      const r = await signup<ErrorBody>(w.id, { email }, nextIp());
      assert.equal(r.status, 400, email);
      assert.ok(r.body.errors?.email?.[0], r.text);
    }
    const login = await newWidget('Login Widget');
    const r = await signup<ErrorBody>(login.id, { email: 'erin@example.com' }, nextIp());
    assert.equal(r.status, 400);
    assert.match(r.body.message, /wallets only/);
  });

  it('unknown and expired confirmation links give friendly pages', async () => {
    const unknown = await gw.get('/public/signups/confirm?token=nothing-like-this');
    assert.equal(unknown.status, 404);
    assert.match(unknown.text, /not valid/);
    const missing = await gw.get('/public/signups/confirm');
    assert.equal(missing.status, 404);
    const forged = await gw.get('/public/signups/confirm?token=a.b.c');
    assert.equal(forged.status, 404);

    const w = await newWidget();
    assert.equal((await signup(w.id, { email: 'frank@example.com' }, nextIp())).status, 202);
    const path = await confirmPath('frank@example.com');
    await gw.handle.db
      .update(pendingSignups)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(pendingSignups.subject, 'frank@example.com'));
    const expired = await gw.get(path);
    assert.equal(expired.status, 400);
    assert.match(expired.text, /expired/);
    assert.equal((await contactsWhere('email', 'frank@example.com')).length, 0);
  });

  it('unknown widget: 404', async () => {
    const r = await signup<ErrorBody>('00000000-0000-4000-8000-000000000000', { email: 'x@example.com' }, nextIp());
    assert.equal(r.status, 404);
  });
});

describe('origin and CORS', () => {
  it('403 from another site; no Origin (not a browser) is accepted', async () => {
    const w = await newWidget();
    const wrong = await signup<ErrorBody>(w.id, { email: 'gina@example.com' }, nextIp(), 'https://evil.example');
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.message, WRONG_SITE);
    assert.equal(wrong.headers.get('access-control-allow-origin'), null);
    const consoleOrigin = await signup(w.id, { email: 'gina@example.com' }, nextIp(), gw.config.consoleOrigins[0]);
    assert.equal(consoleOrigin.status, 403, 'the console origin is not the widget site either');
    const none = await signup(w.id, { email: 'gina@example.com' }, nextIp(), null);
    assert.equal(none.status, 202);
  });

  it('preflight: allowed for the widget site only', async () => {
    const w = await newWidget();
    const preflight = (origin: string) =>
      gw.request(`/public/widgets/${w.id}/signups`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const ok = await preflight(SITE);
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get('access-control-allow-origin'), SITE);
    assert.match(ok.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(ok.headers.get('access-control-allow-headers') ?? '', /content-type/i);
    assert.match(ok.headers.get('vary') ?? '', /Origin/);
    for (const origin of ['https://evil.example', gw.config.consoleOrigins[0] ?? '']) {
      const denied = await preflight(origin);
      assert.equal(denied.headers.get('access-control-allow-origin'), null, origin);
    }
    const unknown = await gw.request('/public/widgets/00000000-0000-4000-8000-000000000000/signups', {
      method: 'OPTIONS',
      headers: { origin: SITE, 'access-control-request-method': 'POST' },
    });
    assert.equal(unknown.status, 404);
  });
});

describe('rate limits', () => {
  it('per client address: 429 with Retry-After after the limit (3 here)', async () => {
    const w = await newWidget();
    const ip = nextIp();
    for (let i = 0; i < 3; i++) {
      assert.equal((await signup(w.id, { email: `limit${i}@example.com` }, ip)).status, 202);
    }
    const r = await signup<ErrorBody>(w.id, { email: 'limit3@example.com' }, ip);
    assert.equal(r.status, 429);
    assert.equal(r.body.message, TOO_MANY_SIGNUPS);
    const retry = Number(r.headers.get('retry-after'));
    assert.ok(retry >= 1 && retry <= 3600, `Retry-After ${retry}`);
    assert.equal(r.headers.get('access-control-allow-origin'), SITE, 'the widget can show the message');
    // Another address is not held up by this one.
    assert.equal((await signup(w.id, { email: 'limit4@example.com' }, nextIp())).status, 202);
  });

  it('per widget: 429 after the limit (5 here) whatever the address', async () => {
    const w = await newWidget();
    for (let i = 0; i < 5; i++) {
      assert.equal((await signup(w.id, { email: `wl${i}@example.com` }, nextIp())).status, 202);
    }
    assert.equal((await signup(w.id, { email: 'wl5@example.com' }, nextIp())).status, 429);
    const other = await newWidget();
    assert.equal((await signup(other.id, { email: 'wl5@example.com' }, nextIp())).status, 202);
  });
});

describe('wallet sign-up', () => {
  async function challenge(widgetId: string, ip: string): Promise<WalletChallenge> {
    const r = await gw.request<WalletChallenge>(`/public/widgets/${widgetId}/challenge`, {
      headers: { origin: SITE, 'x-forwarded-for': ip },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('access-control-allow-origin'), SITE);
    return r.body;
  }

  it('a signed challenge signs the wallet up (checksummed, source widget, counted once)', async () => {
    const w = await newWidget('Login Widget');
    const account = privateKeyToAccount(generatePrivateKey());
    const ip = nextIp();
    const c = await challenge(w.id, ip);
    assert.match(c.nonce, /^[0-9a-f]{32}$/);
    assert.ok(c.message.includes(c.nonce));
    assert.ok(c.message.includes('Widget <b>Friends</b>'));
    assert.ok(c.message.includes('shop.example.com'));
    assert.match(c.message, /Issued At: \d{4}-\d{2}-\d{2}T/);
    const [stored] = await gw.handle.db
      .select({ hash: pendingSignups.tokenHash })
      .from(pendingSignups)
      .where(eq(pendingSignups.subject, c.nonce));
    assert.ok(stored && !stored.hash.includes(c.nonce), 'only a hash of the message is stored');

    const signature = await account.signMessage({ message: c.message });
    const r = await signup(w.id, { wallet: account.address.toLowerCase(), message: c.message, signature }, ip);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { message: SIGNED_UP });
    const [contact, ...more] = await contactsWhere('wallet', account.address);
    assert.ok(contact);
    assert.equal(more.length, 0);
    assert.equal(contact.wallet, account.address, 'EIP-55 checksummed');
    assert.equal(contact.email, null);
    assert.equal(contact.source, 'widget');
    assert.ok(await isMember(w.listId, contact.id));
    assert.equal(await signupsOf(w.id), 1);

    // The same challenge cannot be used twice.
    const replay = await signup<ErrorBody>(w.id, { wallet: account.address, message: c.message, signature }, ip);
    assert.equal(replay.status, 400);
    assert.equal(replay.body.message, SIGNATURE_FAILED);

    // Signing up again with a new challenge: same answer, still counted once.
    const c2 = await challenge(w.id, nextIp());
    const again = await signup(
      w.id,
      { wallet: account.address, message: c2.message, signature: await account.signMessage({ message: c2.message }) },
      nextIp(),
    );
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, { message: SIGNED_UP });
    assert.equal(await signupsOf(w.id), 1);
    assert.equal(await memberCount(w.listId), 1);
  });

  it('400 for a bad signature, another key, a changed message or another widget’s challenge', async () => {
    const w = await newWidget();
    const other = await newWidget();
    const account = privateKeyToAccount(generatePrivateKey());
    const stranger = privateKeyToAccount(generatePrivateKey());
    const attempts: [string, () => Promise<{ wallet: string; message: string; signature: string }>][] = [
      [
        'garbage signature',
        async () => ({
          wallet: account.address,
          message: (await challenge(w.id, nextIp())).message,
          signature: '0x1234',
        }),
      ],
      [
        'tampered signature',
        async () => {
          const c = await challenge(w.id, nextIp());
          const s = await account.signMessage({ message: c.message });
          return {
            wallet: account.address,
            message: c.message,
            signature: `${s.slice(0, 10)}${s[10] === '0' ? '1' : '0'}${s.slice(11)}`,
          };
        },
      ],
      [
        'signed by another key',
        async () => {
          const c = await challenge(w.id, nextIp());
          return {
            wallet: account.address,
            message: c.message,
            signature: await stranger.signMessage({ message: c.message }),
          };
        },
      ],
      [
        'message never issued',
        async () => {
          const c = await challenge(w.id, nextIp());
          const message = `${c.message}\nExtra`;
          return { wallet: account.address, message, signature: await account.signMessage({ message }) };
        },
      ],
      [
        'challenge of another widget',
        async () => {
          const c = await challenge(other.id, nextIp());
          return {
            wallet: account.address,
            message: c.message,
            signature: await account.signMessage({ message: c.message }),
          };
        },
      ],
    ];
    for (const [name, make] of attempts) {
      const r = await signup<ErrorBody>(w.id, await make(), nextIp());
      assert.equal(r.status, 400, name);
      assert.equal(r.body.message, SIGNATURE_FAILED, name);
    }
    const badWallet = await signup<ErrorBody>(other.id, { wallet: '0x123', message: 'x', signature: '0x00' }, nextIp());
    assert.equal(badWallet.status, 400);
    assert.ok(badWallet.body.errors?.wallet);
    assert.equal((await contactsWhere('wallet', account.address)).length, 0);
    assert.equal(await signupsOf(w.id), 0);
  });

  it('an expired challenge is refused; challenges come only for the widget site', async () => {
    const w = await newWidget();
    const account = privateKeyToAccount(generatePrivateKey());
    const c = await challenge(w.id, nextIp());
    await gw.handle.db
      .update(pendingSignups)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(pendingSignups.subject, c.nonce));
    const r = await signup<ErrorBody>(
      w.id,
      { wallet: account.address, message: c.message, signature: await account.signMessage({ message: c.message }) },
      nextIp(),
    );
    assert.equal(r.status, 400);
    const wrong = await gw.request(`/public/widgets/${w.id}/challenge`, {
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.headers.get('access-control-allow-origin'), null);
  });
});
