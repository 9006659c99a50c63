import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Campaign, Community, GeneralSettings, Profile, SessionUser } from '../contracts';
import { call } from '../../test/audience-helpers';
import { storeImage } from '../../test/community-helpers';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { AVATAR_NOT_STORED } from './profile';

let gw: TestGateway;
before(async () => {
  gw = await startGateway();
});
after(() => gw.close());

const verify = async (token: string) => (await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token })).body.user;

describe('your profile', () => {
  it("changes names and the member's own time zone; the session carries them at once", async () => {
    const staff = await gw.login('acmeStaff');
    const read = await gw.get<Profile>('/v1/profile', staff);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, {
      email: 'staff@acme.test',
      pending_email: null,
      first_name: 'Sam',
      last_name: 'Staff',
      avatar: null,
      time_zone: null,
      community_time_zone: 'UTC',
    });
    assert.equal((await verify(staff)).time_zone, 'UTC', "the community's zone");

    const changed = await call<Profile>(gw, 'PATCH', '/v1/profile', staff, {
      first_name: '  Samantha ',
      time_zone: 'Europe/Berlin',
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.first_name, 'Samantha');
    assert.equal(changed.body.last_name, 'Staff');
    assert.equal(changed.body.time_zone, 'Europe/Berlin');
    const me = await verify(staff);
    assert.deepEqual([me.first_name, me.time_zone], ['Samantha', 'Europe/Berlin']);

    assert.equal((await call<Profile>(gw, 'PATCH', '/v1/profile', staff, { time_zone: null })).body.time_zone, null);
    assert.equal((await verify(staff)).time_zone, 'UTC');
  });

  it('refuses bad input with field errors and keeps what was stored', async () => {
    const owner = await gw.login('labOwner');
    const cases: [unknown, string][] = [
      [{ first_name: '' }, 'first_name'],
      [{ first_name: 'x'.repeat(101) }, 'first_name'],
      [{ time_zone: 'Mars/Olympus' }, 'time_zone'],
      [{ avatar: 'https://evil.example/x.png' }, 'avatar'],
      [{ last_name: 'a\u0000b' }, 'last_name'],
    ];
    for (const [body, field] of cases) {
      const r = await call<ErrorBody>(gw, 'PATCH', '/v1/profile', owner, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.body.errors?.[field], `${JSON.stringify(body)} -> ${r.text}`);
    }
    const after = await gw.get<Profile>('/v1/profile', owner);
    assert.deepEqual([after.body.first_name, after.body.last_name], ['Lena', 'Lab']);
  });

  it("takes an avatar the member uploaded for their tenant, not another tenant's", async () => {
    const owner = await gw.login('labOwner');
    const avatar = await storeImage(gw, owner);
    const set = await call<Profile>(gw, 'PATCH', '/v1/profile', owner, { avatar });
    assert.equal(set.status, 200, set.text);
    assert.equal((await verify(owner)).avatar, avatar);
    const foreign = await storeImage(gw, await gw.login('acmeOwner'));
    const refused = await call<ErrorBody>(gw, 'PATCH', '/v1/profile', owner, { avatar: foreign });
    assert.deepEqual(refused.body.errors, { avatar: [AVATAR_NOT_STORED] });
    assert.equal((await call<Profile>(gw, 'PATCH', '/v1/profile', owner, { avatar: null })).body.avatar, null);
    assert.equal((await gw.get('/v1/profile', null)).status, 401);
  });

  it('takes the avatar a global admin (no tenant) uploaded for themselves', async () => {
    const global = await gw.login('global');
    const avatar = await storeImage(gw, global);
    const set = await call<Profile>(gw, 'PATCH', '/v1/profile', global, { avatar });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.avatar, avatar);
    assert.equal((await verify(global)).avatar, avatar);
    const served = await fetch(`${gw.url}${new URL(avatar).pathname}`);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
  });

  it("keeps uploads to their owner: a tenant's image is not a global admin's, nor theirs a tenant user's", async () => {
    const global = await gw.login('global');
    const owner = await gw.login('labOwner');
    const tenantImage = await storeImage(gw, await gw.login('acmeOwner'));
    const globalImage = await storeImage(gw, global);
    for (const [who, avatar] of [
      [global, tenantImage],
      [owner, globalImage],
      [owner, tenantImage],
    ] as const) {
      const refused = await call<ErrorBody>(gw, 'PATCH', '/v1/profile', who, { avatar });
      assert.equal(refused.status, 400, refused.text);
      assert.deepEqual(refused.body.errors, { avatar: [AVATAR_NOT_STORED] });
    }
    const acme = await gw.login('acmeOwner');
    const mine = await gw.get<Community>('/v1/communities/my-community', acme);
    const logo = await call<ErrorBody>(gw, 'PATCH', `/v1/communities/${mine.body._id}`, acme, { logo: globalImage });
    assert.equal(logo.status, 400, logo.text);
    assert.ok(logo.body.errors?.logo, logo.text);
  });
});

describe('general settings', () => {
  it('reads and changes them; new e-mails start with the sender name and reply-to; the community page title follows', async () => {
    const owner = await gw.login('basicOwner');
    const read = await gw.get<GeneralSettings>('/v1/settings', owner);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body, {
      community_name: 'Basic Guild',
      default_sender_name: null,
      default_reply_to: null,
      postal_address: null,
      time_zone: 'UTC',
    });
    const changed = await call<GeneralSettings>(gw, 'PATCH', '/v1/settings', owner, {
      community_name: ' The Basic Guild ',
      default_sender_name: 'Guild News',
      default_reply_to: 'Hello@Basic.test',
      postal_address: '2 Guild Road, Leeds',
      time_zone: 'America/New_York',
    });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(changed.body, {
      community_name: 'The Basic Guild',
      default_sender_name: 'Guild News',
      default_reply_to: 'hello@basic.test',
      postal_address: '2 Guild Road, Leeds',
      time_zone: 'America/New_York',
    });
    const community = await gw.get<Community>('/v1/communities/my-community', owner);
    assert.equal(community.body.title, 'The Basic Guild');
    assert.equal((await verify(owner)).time_zone, 'America/New_York', "every member's session follows");

    const campaign = await gw.post<Campaign>('/v1/campaigns', { name: 'Hello' }, owner);
    assert.equal(campaign.status, 201, campaign.text);
    assert.deepEqual([campaign.body.from_name, campaign.body.reply_to], ['Guild News', 'hello@basic.test']);

    const cleared = await call<GeneralSettings>(gw, 'PATCH', '/v1/settings', owner, {
      default_sender_name: '  ',
      default_reply_to: null,
    });
    assert.deepEqual([cleared.body.default_sender_name, cleared.body.default_reply_to], [null, null]);
    const next = await gw.post<Campaign>('/v1/campaigns', { name: 'Again' }, owner);
    assert.equal(next.body.from_name, 'The Basic Guild');
  });

  it('refuses bad input with field errors; needs company_settings', async () => {
    const owner = await gw.login('acmeOwner');
    const cases: [unknown, string][] = [
      [{ community_name: '' }, 'community_name'],
      [{ community_name: 'x'.repeat(256) }, 'community_name'],
      [{ default_reply_to: 'not an address' }, 'default_reply_to'],
      [{ time_zone: 'Nowhere' }, 'time_zone'],
      [{ time_zone: null }, 'time_zone'],
      [{ postal_address: 'x'.repeat(501) }, 'postal_address'],
    ];
    for (const [body, field] of cases) {
      const r = await call<ErrorBody>(gw, 'PATCH', '/v1/settings', owner, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.body.errors?.[field], `${JSON.stringify(body)} -> ${r.text}`);
    }
    assert.equal((await gw.get<GeneralSettings>('/v1/settings', owner)).body.community_name, 'Acme DAO');
    assert.equal((await gw.get('/v1/settings', await gw.login('acmeStaff'))).status, 403);
    assert.equal((await gw.get('/v1/settings', await gw.login('global'))).status, 403);
    assert.equal((await gw.get('/v1/settings', null)).status, 401);
  });
});
