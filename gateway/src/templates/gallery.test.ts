// The starter gallery's platform designs: a super admin puts one of the platform tenant's templates in
// every community's gallery; a community creates a template from a copy of its current content; nobody
// else can put templates in, and a design taken out of the gallery can no longer be copied.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Template, TemplateStarterHtml, TemplateStarterList } from '../contracts';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { call } from '../../test/audience-helpers';
import { GALLERY_SUPER_ADMINS_ONLY, NOT_IN_GALLERY } from './gallery';

let gw: TestGateway;
let admin: string;
let owner: string;

before(async () => {
  gw = await startGateway();
  [admin, owner] = await Promise.all([gw.login('admin'), gw.login('acmeOwner')]);
});
after(() => gw.close());

const MJML = (text: string) =>
  `<mjml><mj-body><mj-section><mj-column><mj-text>${text}</mj-text></mj-column></mj-section></mj-body></mjml>`;

async function platformTemplate(name: string, text: string): Promise<Template> {
  const created = await call<Template>(gw, 'POST', '/v1/templates', admin, { name });
  assert.equal(created.status, 201, created.text);
  const saved = await call(gw, 'PATCH', `/v1/templates/${created.body._id}`, admin, {
    subject: `${name} subject`,
    mjml: MJML(text),
  });
  assert.equal(saved.status, 200, saved.text);
  return created.body;
}

const gallery = async (token: string) => {
  const r = await call<TemplateStarterList>(gw, 'GET', '/v1/templates/starters', token);
  assert.equal(r.status, 200, r.text);
  return r.body;
};

describe('the starter gallery', () => {
  it('a super admin puts a platform design in; every community copies it; taken out, it is gone', async () => {
    const design = await platformTemplate('DAO weekly', 'Platform-made weekly digest');
    assert.deepEqual((await gallery(owner)).gallery, [], 'not in the gallery yet');

    const put = await call(gw, 'PUT', `/v1/templates/${design._id}/gallery`, admin, { in_gallery: true });
    assert.equal(put.status, 200, put.text);
    const listed = await gallery(owner);
    assert.equal(listed.records.length, 4, 'the built-in starters stay');
    assert.deepEqual(listed.gallery, [
      { _id: design._id, name: 'DAO weekly', subject: 'DAO weekly subject', kind: 'marketing' },
    ]);

    const copy = await call<Template>(gw, 'POST', '/v1/templates', owner, {
      name: 'Our weekly',
      gallery_id: design._id,
    });
    assert.equal(copy.status, 201, copy.text);
    assert.notEqual(copy.body._id, design._id);
    assert.equal(copy.body.subject, 'DAO weekly subject');
    assert.match(copy.body.mjml, /Platform-made weekly digest/);
    // The copy is the community's own: later platform edits do not reach it.
    await call(gw, 'PATCH', `/v1/templates/${design._id}`, admin, { mjml: MJML('Changed by the platform') });
    const mine = await call<Template>(gw, 'GET', `/v1/templates/${copy.body._id}`, owner);
    assert.match(mine.body.mjml, /Platform-made weekly digest/);
    // The platform's template itself stays out of reach of the community.
    assert.equal((await call(gw, 'GET', `/v1/templates/${design._id}`, owner)).status, 404);

    const out = await call(gw, 'PUT', `/v1/templates/${design._id}/gallery`, admin, { in_gallery: false });
    assert.equal(out.status, 200, out.text);
    assert.deepEqual((await gallery(owner)).gallery, []);
    const late = await call<ErrorBody>(gw, 'POST', '/v1/templates', owner, { name: 'Late', gallery_id: design._id });
    assert.equal(late.status, 400, late.text);
    assert.deepEqual(late.body.errors, { gallery_id: [NOT_IN_GALLERY] });
  });

  it('only super admins, and only for their own tenant; bad ids are 400/404', async () => {
    const own = await call<Template>(gw, 'POST', '/v1/templates', owner, { name: 'Acme design' });
    const refused = await call<ErrorBody>(gw, 'PUT', `/v1/templates/${own.body._id}/gallery`, owner, {
      in_gallery: true,
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.message, GALLERY_SUPER_ADMINS_ONLY);
    // A super admin cannot reach another tenant's template.
    assert.equal(
      (await call(gw, 'PUT', `/v1/templates/${own.body._id}/gallery`, admin, { in_gallery: true })).status,
      404,
    );
    assert.equal((await call(gw, 'PUT', `/v1/templates/nope/gallery`, admin, { in_gallery: true })).status, 404);
    assert.equal((await call(gw, 'PUT', `/v1/templates/${own.body._id}/gallery`, admin, {})).status, 400);
    for (const gallery_id of ['not-a-uuid', own.body._id]) {
      const r = await call<ErrorBody>(gw, 'POST', '/v1/templates', owner, { name: 'x', gallery_id });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(r.body.errors, { gallery_id: [NOT_IN_GALLERY] });
    }
  });
});

describe("the gallery's thumbnails", () => {
  it("draws each built-in starter merged for the tenant's sample values, and refuses unknown keys", async () => {
    for (const key of ['newsletter', 'announcement', 'token-airdrop', 'event-invite']) {
      const r = await call<TemplateStarterHtml>(gw, 'GET', `/v1/templates/starters/${key}/html`, owner);
      assert.equal(r.status, 200, `${key}: ${r.text}`);
      assert.match(r.body.html, /^<!doctype html>/i, key);
      assert.match(r.body.html, /Acme DAO/, `${key} shows the community's own name`);
      assert.doesNotMatch(r.body.html, /\{\{|\{%/, `${key}: no raw merge tag`);
    }
    // Another community's thumbnail is its own.
    const lab = await call<TemplateStarterHtml>(
      gw,
      'GET',
      '/v1/templates/starters/newsletter/html',
      await gw.login('labOwner'),
    );
    assert.equal(lab.status, 200);
    assert.doesNotMatch(lab.body.html, /Acme DAO/);
    assert.equal((await call(gw, 'GET', '/v1/templates/starters/birthday/html', owner)).status, 400);
    assert.equal(
      (await call(gw, 'GET', '/v1/templates/starters/newsletter/html', await gw.login('acmeStaff'))).status,
      403,
    );
    assert.equal((await call(gw, 'GET', '/v1/templates/starters/newsletter/html', '')).status, 401);
  });

  it("draws a platform design while it is in the gallery, and nothing of a community's own template", async () => {
    const design = await platformTemplate('Thumbnail digest', 'Hello {{ community.name }} members');
    const path = `/v1/templates/starters/gallery/${design._id}/html`;
    assert.equal((await call(gw, 'GET', path, owner)).status, 404, 'not in the gallery yet');
    await call(gw, 'PUT', `/v1/templates/${design._id}/gallery`, admin, { in_gallery: true });
    const r = await call<TemplateStarterHtml>(gw, 'GET', path, owner);
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.html, /Hello Acme DAO members/);
    const own = await call<Template>(gw, 'POST', '/v1/templates', owner, { name: 'Private' });
    assert.equal((await call(gw, 'GET', `/v1/templates/starters/gallery/${own.body._id}/html`, owner)).status, 404);
    await call(gw, 'PUT', `/v1/templates/${design._id}/gallery`, admin, { in_gallery: false });
    assert.equal((await call(gw, 'GET', path, owner)).status, 404, 'taken out');
  });
});
