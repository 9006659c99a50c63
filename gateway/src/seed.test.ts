// The demo data's templates: the demo community gets a design for its first e-mail, compiled like
// any template a person creates; other communities get none.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Template, TemplatePage } from './contracts';
import { startGateway, type TestGateway } from '../test/helpers';
import { call } from '../test/audience-helpers';
import { seedTemplates } from './seed';

let gw: TestGateway;
before(async () => {
  gw = await startGateway();
  await seedTemplates(gw.handle.db, gw.config.onboarding.publicUrl);
});
after(() => gw.close());

it('the demo community has the newsletter starter as a template, ready to pick and preview', async () => {
  const owner = await gw.login('acmeOwner');
  const list = await call<TemplatePage>(gw, 'GET', '/v1/templates', owner);
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(
    list.body.records.map((t) => [t.name, t.kind]),
    // The transactional ones (a receipt, a claim link) are sent through the API with their merge variables.
    [
      ['Claim link', 'transactional'],
      ['Receipt', 'transactional'],
      ['Monthly newsletter', 'marketing'],
    ],
  );
  const id = list.body.records[0]?._id ?? '';
  const template = await call<Template>(gw, 'GET', `/v1/templates/${id}`, owner);
  assert.equal(template.status, 200, template.text);
  assert.match(template.body.mjml, /<mjml/);
  assert.ok(template.body.subject.length > 0, 'the starter brings its subject');
});

it('other communities get no template', async () => {
  const list = await call<TemplatePage>(gw, 'GET', '/v1/templates', await gw.login('basicOwner'));
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.records.length, 0);
});
