import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Community, List, ListPage, PresignResponse } from '../../contracts';
import { cleanWhatYouGet, COMMUNITY_MESSAGES, slugProblem } from '../onboarding-rules';
import { COMMUNITY_LIST_NAME } from './community-store';
import { communities } from '../../db/schema';
import { type ErrorBody, startGateway, type TestGateway } from '../../../test/helpers';
import { removeCommunities, storeImage } from '../../../test/community-helpers';
import { call } from '../../../test/audience-helpers';

describe('community rules (pure)', () => {
  it('slugProblem', () => {
    const cases: [string | undefined, string | null][] = [
      ['acme', null],
      ['acme-dao-2', null],
      ['a', null],
      [undefined, COMMUNITY_MESSAGES.slugRequired],
      ['', COMMUNITY_MESSAGES.slugRequired],
      ['Acme', COMMUNITY_MESSAGES.slugPattern],
      ['acme dao', COMMUNITY_MESSAGES.slugPattern],
      ['acme--dao', COMMUNITY_MESSAGES.slugPattern],
      ['-acme', COMMUNITY_MESSAGES.slugPattern],
      ['acme-', COMMUNITY_MESSAGES.slugPattern],
      ['acme/../x', COMMUNITY_MESSAGES.slugPattern],
      ['ácme', COMMUNITY_MESSAGES.slugPattern],
      ['a'.repeat(101), 'Use at most 100 characters.'],
    ];
    for (const [slug, expected] of cases) assert.equal(slugProblem(slug), expected, String(slug));
  });

  it('cleanWhatYouGet trims entries and drops blank ones', () => {
    assert.deepEqual(cleanWhatYouGet(['  Airdrops ', '', '   ', 'News']), ['Airdrops', 'News']);
    assert.deepEqual(cleanWhatYouGet(['']), []);
  });
});

let gw: TestGateway;
let basic: string; // Basic Guild owner
let lab: string; // Lab Rats owner

before(async () => {
  gw = await startGateway();
  basic = await gw.login('basicOwner');
  lab = await gw.login('labOwner');
  // Every tenant now gets its community at creation; the first-save path (POST) still serves a tenant
  // without one (data from before, a community removed by hand): take the seeded ones away here.
  await removeCommunities(gw, ['Basic Guild', 'Lab Rats', 'Acme DAO']);
});
after(() => gw.close());

const storedImage = (token: string) => storeImage(gw, token);

describe('the community of a tenant', () => {
  let created: Community;

  it("answers 404 'No community yet.' before the first save", async () => {
    const r = await gw.get<ErrorBody>('/v1/communities/my-community', basic);
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { message: 'No community yet.' });
  });

  it('creates it with the tenant name as title, the alias and URL, and a sign-up list tied to it', async () => {
    const logo = await storedImage(basic);
    const r = await call<Community>(gw, 'POST', '/v1/communities', basic, {
      slug: 'basic-guild',
      short_description: 'Guild of basics',
      what_you_get: ['  Weekly news ', '', 'Airdrops', '   '],
      logo,
      priority: 30,
      show: true,
    });
    assert.equal(r.status, 201, r.text);
    created = r.body;
    assert.equal(created.title, 'Basic Guild');
    assert.equal(created.slug, 'basic-guild');
    assert.equal(created.alias, 'basic-guild');
    assert.equal(created.url, `${gw.config.onboarding.publicUrl}/c/basic-guild`);
    assert.deepEqual(created.what_you_get, ['Weekly news', 'Airdrops']);
    assert.equal(created.logo, logo);
    assert.equal(created.background, null);
    assert.equal(created.priority, 30);
    assert.equal(created.show, true);
    assert.equal(created.public, false);
    assert.equal(created.show_on_carousel, false);
    assert.equal(created.carousel_priority, 0);
    assert.equal(created.description, '');
    assert.ok(!Number.isNaN(Date.parse(created.created_at)));
    assert.ok(created.list_id);

    const list = await gw.get<List>(`/v1/lists/${created.list_id}`, basic);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.name, COMMUNITY_LIST_NAME);
    assert.equal(list.body.community_id, created._id);
    assert.equal(list.body.autoimport, false);

    const mine = await gw.get<Community>('/v1/communities/my-community', basic);
    assert.equal(mine.status, 200);
    assert.deepEqual(mine.body, created);
  });

  it('refuses a second community for the same tenant', async () => {
    const r = await call<ErrorBody>(gw, 'POST', '/v1/communities', basic, { slug: 'basic-guild-two' });
    assert.equal(r.status, 400);
    assert.equal(r.body.message, COMMUNITY_MESSAGES.exists);
  });

  it('edits only the given fields; null clears an image; an empty title falls back to the tenant name', async () => {
    const background = await storedImage(basic);
    const r = await call<Community>(gw, 'PATCH', `/v1/communities/${created._id}`, basic, {
      title: 'The Basic Guild',
      background,
      logo: null,
      public: true,
      carousel_priority: 100,
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.title, 'The Basic Guild');
    assert.equal(r.body.background, background);
    assert.equal(r.body.logo, null);
    assert.equal(r.body.public, true);
    assert.equal(r.body.carousel_priority, 100);
    assert.equal(r.body.short_description, 'Guild of basics');
    assert.deepEqual(r.body.what_you_get, ['Weekly news', 'Airdrops']);
    assert.ok(r.body.updated_at > created.updated_at);

    // Saving the form again with its current image address is fine.
    const same = await call<Community>(gw, 'PATCH', `/v1/communities/${created._id}`, basic, { background, title: '' });
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.title, 'Basic Guild');

    const renamed = await call<Community>(gw, 'PATCH', `/v1/communities/${created._id}`, basic, { slug: 'guild' });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.alias, 'guild');
    assert.equal(renamed.body.url, `${gw.config.onboarding.publicUrl}/c/guild`);
    const own = await call<Community>(gw, 'PATCH', `/v1/communities/${created._id}`, basic, { slug: 'guild' });
    assert.equal(own.status, 200, 'its own alias is not taken');
  });
});

describe('field errors', () => {
  it('requires a valid alias on create', async () => {
    const none = await call<ErrorBody>(gw, 'POST', '/v1/communities', lab, {});
    assert.equal(none.status, 400);
    assert.deepEqual(none.body.errors, { slug: [COMMUNITY_MESSAGES.slugRequired] });
    for (const slug of ['Lab Rats', 'lab_rats', 'lab--rats', '-lab']) {
      const bad = await call<ErrorBody>(gw, 'POST', '/v1/communities', lab, { slug });
      assert.equal(bad.status, 400, slug);
      assert.deepEqual(bad.body.errors, { slug: [COMMUNITY_MESSAGES.slugPattern] }, slug);
    }
    const long = await call<ErrorBody>(gw, 'POST', '/v1/communities', lab, { slug: 'a'.repeat(101) });
    assert.equal(long.status, 400);
    assert.ok(long.body.errors?.slug);
  });

  it('refuses an alias another tenant has, case-insensitively', async () => {
    const taken = await call<ErrorBody>(gw, 'POST', '/v1/communities', lab, { slug: 'guild' });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body.errors, { slug: ['This alias is already taken.'] });
    assert.equal((await gw.get<ErrorBody>('/v1/communities/my-community', lab)).status, 404, 'nothing created');
    // A row stored with capitals (older data, a manual fix) still blocks its lower-case twin.
    await gw.handle.db.update(communities).set({ slug: 'Guild' }).where(eq(communities.slug, 'guild'));
    try {
      const twin = await call<ErrorBody>(gw, 'POST', '/v1/communities', lab, { slug: 'guild' });
      assert.deepEqual(twin.body.errors, { slug: ['This alias is already taken.'] });
    } finally {
      await gw.handle.db.update(communities).set({ slug: 'guild' }).where(eq(communities.slug, 'Guild'));
    }
  });

  it('limits the title and what_you_get items to 255 characters', async () => {
    const title = await call<ErrorBody>(gw, 'POST', '/v1/communities', lab, { slug: 'lab', title: 'x'.repeat(256) });
    assert.equal(title.status, 400);
    assert.deepEqual(title.body.errors, { title: ['Use at most 255 characters.'] });
    const item = await call<ErrorBody>(gw, 'POST', '/v1/communities', lab, {
      slug: 'lab',
      what_you_get: ['ok', 'y'.repeat(256)],
    });
    assert.equal(item.status, 400);
    const keys = Object.keys(item.body.errors ?? {});
    assert.equal(keys.length, 1);
    assert.match(keys[0] ?? '', /^what_you_get/);
  });

  it('refuses image addresses that are not stored uploads of the tenant', async () => {
    const base = `${gw.config.onboarding.publicUrl}/files`;
    const presigned = await gw.post<PresignResponse>('/v1/files/s3-presigned-url', { type: 'image/png' }, lab);
    const othersImage = await storedImage(basic);
    const cases = [
      'https://evil.example.com/logo.png',
      'javascript:alert(1)',
      `${base}/images/00000000-0000-4000-8000-000000000000.png`,
      `${base}/../jwt-secret`,
      presigned.body.fileUrl, // issued but never uploaded
      othersImage, // another tenant's upload
    ];
    for (const logo of cases) {
      const r = await call<ErrorBody>(gw, 'POST', '/v1/communities', lab, { slug: 'lab', logo, background: logo });
      assert.equal(r.status, 400, logo);
      assert.deepEqual(r.body.errors, { logo: ['Upload the image again.'], background: ['Upload the image again.'] });
    }
  });

  it('gives every field error at once and never a 500 for odd input', async () => {
    const r = await call<ErrorBody>(gw, 'POST', '/v1/communities', lab, { slug: 'Bad Slug', logo: 'nope' });
    assert.equal(r.status, 400);
    assert.deepEqual(Object.keys(r.body.errors ?? {}).sort(), ['logo', 'slug']);
    const odd: unknown[] = [
      { slug: 'lab', priority: 15 },
      { slug: 'lab', priority: 110 },
      { slug: 'lab', what_you_get: 'not a list' },
      { slug: 123 },
      { slug: 'lab', logo: 'x'.repeat(3000) },
      { slug: 'lab', show: 'yes' },
      [],
      'text',
    ];
    for (const body of odd) {
      const res = await call<ErrorBody>(gw, 'POST', '/v1/communities', lab, body);
      assert.equal(res.status, 400, JSON.stringify(body));
    }
  });

  it('creates a community after the errors are fixed; its list name avoids an existing list', async () => {
    const existing = await call<List>(gw, 'POST', '/v1/lists', lab, { name: COMMUNITY_LIST_NAME.toUpperCase() });
    assert.equal(existing.status, 201, existing.text);
    const r = await call<Community>(gw, 'POST', '/v1/communities', lab, { slug: 'lab', title: '  Lab  ' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.title, 'Lab');
    const lists = await gw.get<ListPage>('/v1/lists?perPage=1000', lab);
    const tied = lists.body.records.filter((l) => l.community_id === r.body._id);
    assert.deepEqual(
      tied.map((l) => [l._id, l.name]),
      [[r.body.list_id, `${COMMUNITY_LIST_NAME} 2`]],
    );
  });
});

describe('races', () => {
  it('answers one community and clear 400s for concurrent first saves (same tenant, same alias)', async () => {
    const owner = await gw.login('acmeOwner');
    const replies = await Promise.all([
      call<Community & ErrorBody>(gw, 'POST', '/v1/communities', owner, { slug: 'raced' }),
      call<Community & ErrorBody>(gw, 'POST', '/v1/communities', owner, { slug: 'raced-too' }),
      call<Community & ErrorBody>(gw, 'POST', '/v1/communities', owner, { slug: 'raced-three' }),
    ]);
    assert.deepEqual(replies.map((r) => r.status).sort(), [201, 400, 400]);
    for (const r of replies.filter((x) => x.status === 400)) assert.equal(r.body.message, COMMUNITY_MESSAGES.exists);
    const lists = await gw.get<ListPage>('/v1/lists?perPage=1000', owner);
    assert.equal(lists.body.records.filter((l) => l.community_id !== null).length, 1, 'one community list');
  });
});

describe('isolation and permission', () => {
  it("answers 404 for another tenant's community and for ids that are not uuids", async () => {
    const mine = await gw.get<Community>('/v1/communities/my-community', basic);
    const r = await call<ErrorBody>(gw, 'PATCH', `/v1/communities/${mine.body._id}`, lab, { title: 'Hijacked' });
    assert.equal(r.status, 404);
    assert.equal(r.body.message, COMMUNITY_MESSAGES.notFound);
    assert.equal((await call(gw, 'PATCH', '/v1/communities/not-a-uuid', lab, { title: 'x' })).status, 404);
    assert.equal((await gw.get<Community>('/v1/communities/my-community', basic)).body.title, 'Basic Guild');
  });

  it('needs manage_community (staff without it: 403) and a session (401)', async () => {
    const staff = await gw.login('acmeStaff');
    assert.equal((await gw.get('/v1/communities/my-community', staff)).status, 403);
    assert.equal((await call(gw, 'POST', '/v1/communities', staff, { slug: 'acme' })).status, 403);
    assert.equal((await gw.get('/v1/communities/my-community')).status, 401);
    const acme = await gw.login('acmeOwner');
    assert.equal(
      (await gw.get('/v1/communities/my-community', acme)).status,
      200,
      'the owner may (created in the race above)',
    );
  });
});
