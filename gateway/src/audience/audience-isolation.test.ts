// Tenant isolation and permissions of the audience API: another tenant's contact, list, attribute
// or segment is 404 everywhere (never told apart from an id that does not exist), lists and
// filters never show another tenant's rows, and every route checks its permission and plan.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type {
  AffectedResponse,
  Contact,
  ContactPage,
  CustomAttribute,
  CustomAttributePage,
  List,
  ListPage,
} from '../contracts';
import { UNKNOWN_LISTS } from './contacts/contact-store';
import { hashPassword } from '../auth/passwords';
import { plans, segments, users } from '../db/schema';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { call, type Method, qs, tenantId } from '../../test/audience-helpers';

const PLAN_MESSAGE = 'Your plan does not include this feature. Upgrade your plan to use it.';

let gw: TestGateway;
let acme: string;
let lab: string;
let acmeContacts: Contact[];
let acmeList: List;
let acmeAttribute: CustomAttribute;
let acmeSegmentId: string;
let labList: List;
let labContact: Contact;

before(async () => {
  gw = await startGateway();
  acme = await gw.login('acmeOwner');
  lab = await gw.login('labOwner');
  acmeContacts = (await gw.get<ContactPage>('/v1/contacts?perPage=100', acme)).body.records;
  const lists = (await gw.get<ListPage>('/v1/lists', acme)).body.records;
  const attributes = (await gw.get<CustomAttributePage>('/v1/custom-attributes', acme)).body.records;
  assert.equal(acmeContacts.length, 60, 'the demo audience is seeded');
  assert.ok(lists[0] && attributes[0]);
  acmeList = lists[0];
  acmeAttribute = attributes[0];
  const [segment] = await gw.handle.db
    .insert(segments)
    .values({
      tenantId: await tenantId(gw, 'Acme DAO'),
      name: 'Acme subscribers',
      rule: { combinator: 'and', rules: [{ field: 'status', operator: '=', value: 'subscribed' }] },
    })
    .returning({ id: segments.id });
  assert.ok(segment);
  acmeSegmentId = segment.id;
  labList = (await call<List>(gw, 'POST', '/v1/lists', lab, { name: 'Lab list' })).body;
  labContact = (await call<Contact>(gw, 'POST', '/v1/contacts', lab, { email: 'rat@lab.example' })).body;
});
after(() => gw.close());

const acmeContact = () => {
  const c = acmeContacts[0];
  assert.ok(c);
  return c;
};

describe('another tenant\u2019s ids answer 404', () => {
  it('contacts', async () => {
    const id = acmeContact()._id;
    const cases: [Method, string, unknown?][] = [
      ['GET', `/v1/contacts/${id}`],
      ['PATCH', `/v1/contacts/${id}`, { first_name: 'Hacked' }],
      ['DELETE', `/v1/contacts/${id}`],
    ];
    for (const [method, path, body] of cases) {
      const r = await call<ErrorBody>(gw, method, path, lab, body);
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.body.message, 'Contact not found.');
    }
  });

  it('lists and their members', async () => {
    const id = acmeList._id;
    const cases: [Method, string, unknown?][] = [
      ['GET', `/v1/lists/${id}`],
      ['PATCH', `/v1/lists/${id}`, { name: 'Hacked' }],
      ['DELETE', `/v1/lists/${id}`],
      ['PATCH', `/v1/lists/${id}/contacts`, { contacts: [labContact._id] }],
      ['DELETE', `/v1/lists/${id}/contacts`, { contacts: [acmeContact()._id] }],
      ['GET', `/v1/contacts?${qs({ listId: id })}`],
      ['GET', `/v1/contacts/export?${qs({ listId: id })}`],
      ['POST', '/v1/contacts/bulk', { action: 'add_to_list', listId: id, selection: { ids: [labContact._id] } }],
      ['POST', '/v1/contacts/bulk', { action: 'remove_from_list', listId: id, selection: { filter: {} } }],
      ['POST', '/v1/contacts/bulk', { action: 'delete', selection: { filter: { listId: id } } }],
    ];
    for (const [method, path, body] of cases) {
      const r = await call<ErrorBody>(gw, method, path, lab, body);
      assert.equal(r.status, 404, `${method} ${path} ${JSON.stringify(body)}`);
    }
  });

  it('custom attributes (by id and by key) and segments', async () => {
    const id = acmeAttribute._id;
    const cases: [Method, string, unknown?][] = [
      ['GET', `/v1/custom-attributes/${id}`],
      ['PATCH', `/v1/custom-attributes/${id}`, { name: 'Hacked' }],
      ['DELETE', `/v1/custom-attributes/${id}`],
      ['GET', `/v1/contacts?${qs({ attribute: id })}`],
      ['GET', `/v1/contacts?${qs({ attribute: acmeAttribute.key, attributeValue: 'gold' })}`],
      ['GET', `/v1/contacts?${qs({ segmentId: acmeSegmentId })}`],
      ['GET', `/v1/contacts/export?${qs({ segmentId: acmeSegmentId })}`],
      ['POST', '/v1/contacts/bulk', { action: 'unsubscribe', selection: { filter: { segmentId: acmeSegmentId } } }],
    ];
    for (const [method, path, body] of cases) {
      const r = await call<ErrorBody>(gw, method, path, lab, body);
      assert.equal(r.status, 404, `${method} ${path}`);
    }
  });

  it('a contact cannot join another tenant\u2019s list', async () => {
    const create = await call<ErrorBody>(gw, 'POST', '/v1/contacts', lab, {
      email: 'x@lab.example',
      lists: [acmeList._id],
    });
    assert.equal(create.status, 400);
    assert.deepEqual(create.body.errors, { lists: [UNKNOWN_LISTS] });
    const edit = await call<ErrorBody>(gw, 'PATCH', `/v1/contacts/${labContact._id}`, lab, { lists: [acmeList._id] });
    assert.deepEqual(edit.body.errors, { lists: [UNKNOWN_LISTS] });
    // Values for another tenant's attribute keys are unknown keys here.
    const attr = await call<ErrorBody>(gw, 'POST', '/v1/contacts', lab, {
      email: 'y@lab.example',
      attributes: { [acmeAttribute.key]: 'gold' },
    });
    assert.ok(attr.body.errors?.[`attributes.${acmeAttribute.key}`]);
  });
});

describe('another tenant\u2019s contacts are never touched or shown', () => {
  it('bulk actions and membership changes by id skip them', async () => {
    const ids = acmeContacts.slice(0, 5).map((c) => c._id);
    for (const action of ['delete', 'unsubscribe']) {
      const r = await call<AffectedResponse>(gw, 'POST', '/v1/contacts/bulk', lab, { action, selection: { ids } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.affected, 0, action);
    }
    const add = await call<AffectedResponse>(gw, 'POST', '/v1/contacts/bulk', lab, {
      action: 'add_to_list',
      listId: labList._id,
      selection: { ids },
    });
    assert.equal(add.body.affected, 0);
    const member = await call<AffectedResponse>(gw, 'PATCH', `/v1/lists/${labList._id}/contacts`, lab, {
      contacts: ids,
    });
    assert.equal(member.body.affected, 0);
    const acmeNow = await gw.get<ContactPage>('/v1/contacts?perPage=100', acme);
    assert.deepEqual(acmeNow.body.records, acmeContacts, 'Acme is unchanged');
  });

  it('"all that match" bulk actions stay in the caller\u2019s tenant', async () => {
    const r = await call<AffectedResponse>(gw, 'POST', '/v1/contacts/bulk', lab, {
      action: 'unsubscribe',
      selection: { filter: {} },
    });
    assert.equal(r.body.affected, 1, 'only the Lab contact');
    const acmeSubscribed = acmeContacts.filter((c) => c.status === 'subscribed').length;
    const now = await gw.get<ContactPage>('/v1/contacts?status=subscribed&perPage=1', acme);
    assert.equal(now.body.pagination.count, acmeSubscribed);
  });

  it('grids, searches and exports show only the caller\u2019s rows', async () => {
    const contacts = await gw.get<ContactPage>('/v1/contacts?perPage=100', lab);
    assert.deepEqual(
      contacts.body.records.map((c) => c._id),
      [labContact._id],
    );
    assert.equal(contacts.body.pagination.count, 1);
    const email = acmeContact().email ?? acmeContacts.find((c) => c.email)?.email ?? '';
    const search = await gw.get<ContactPage>(`/v1/contacts?${qs({ searchString: email.slice(0, 8) })}`, lab);
    assert.deepEqual(search.body.records, []);
    const lists = await gw.get<ListPage>('/v1/lists?perPage=1000', lab);
    const labCommunity = await gw.get<{ list_id: string }>('/v1/communities/my-community', lab);
    assert.deepEqual(
      lists.body.records.map((l) => l._id).sort(),
      [labList._id, labCommunity.body.list_id].sort(),
      'its own list and its community list',
    );
    const attributes = await gw.get<CustomAttributePage>('/v1/custom-attributes?perPage=100', lab);
    assert.deepEqual(attributes.body.records, []);
    const csv = await gw.get('/v1/contacts/export', lab);
    assert.ok(csv.text.includes('rat@lab.example'));
    for (const c of acmeContacts) {
      if (c.email) assert.ok(!csv.text.includes(c.email), c.email);
    }
  });
});

describe('permissions', () => {
  let noContacts: string;

  before(async () => {
    await gw.handle.db.insert(users).values({
      tenantId: await tenantId(gw, 'Acme DAO'),
      email: 'mailer@acme.test',
      passwordHash: await hashPassword('mailer-pass-2026'),
      role: 'staff',
      permissions: ['view_engagement_emails'],
      emailConfirmedAt: new Date(),
    });
    const r = await gw.post<{ token: string }>('/v1/auth/login', {
      email: 'mailer@acme.test',
      password: 'mailer-pass-2026',
    });
    assert.equal(r.status, 200, r.text);
    noContacts = r.body.token;
  });

  const contactRoutes = (): [Method, string, unknown?][] => [
    ['GET', '/v1/contacts'],
    ['POST', '/v1/contacts', { email: 'new@example.com' }],
    ['GET', `/v1/contacts/${acmeContact()._id}`],
    ['PATCH', `/v1/contacts/${acmeContact()._id}`, { first_name: 'x' }],
    ['DELETE', `/v1/contacts/${acmeContact()._id}`],
    ['POST', '/v1/contacts/bulk', { action: 'delete', selection: { filter: {} } }],
    ['GET', '/v1/contacts/export'],
    ['GET', '/v1/lists'],
    ['POST', '/v1/lists', { name: 'New' }],
    ['GET', `/v1/lists/${acmeList._id}`],
    ['PATCH', `/v1/lists/${acmeList._id}`, { name: 'x' }],
    ['DELETE', `/v1/lists/${acmeList._id}`],
    ['PATCH', `/v1/lists/${acmeList._id}/contacts`, { contacts: [acmeContact()._id] }],
    ['DELETE', `/v1/lists/${acmeList._id}/contacts`, { contacts: [acmeContact()._id] }],
  ];
  const attributeRoutes = (): [Method, string, unknown?][] => [
    ['POST', '/v1/custom-attributes', { name: 'New', key: 'new_key', type: 'text' }],
    ['GET', `/v1/custom-attributes/${acmeAttribute._id}`],
    ['PATCH', `/v1/custom-attributes/${acmeAttribute._id}`, { name: 'x' }],
    ['DELETE', `/v1/custom-attributes/${acmeAttribute._id}`],
  ];

  it('staff without manage_contacts get 403 on every contacts and lists route (before the body is read)', async () => {
    for (const [method, path, body] of [...contactRoutes(), ['GET', '/v1/custom-attributes'] as [Method, string]]) {
      const r = await call<ErrorBody>(gw, method, path, noContacts, body);
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.body.message, 'You do not have permission to do this.');
    }
    const badBody = await call(gw, 'POST', '/v1/contacts', noContacts, { email: 42 });
    assert.equal(badBody.status, 403);
  });

  it('staff with manage_contacts but not custom_attributes may read attributes, not manage them', async () => {
    const staff = await gw.login('acmeStaff');
    assert.equal((await gw.get('/v1/custom-attributes', staff)).status, 200);
    assert.equal((await gw.get('/v1/contacts', staff)).status, 200);
    assert.equal((await gw.get('/v1/lists', staff)).status, 200);
    for (const [method, path, body] of attributeRoutes()) {
      const r = await call<ErrorBody>(gw, method, path, staff, body);
      assert.equal(r.status, 403, `${method} ${path}`);
    }
  });

  it('no token: 401; a global admin (no tenant, no manage_contacts): 403', async () => {
    for (const [method, path, body] of [...contactRoutes(), ...attributeRoutes()]) {
      assert.equal((await call(gw, method, path, '', body)).status, 401, `${method} ${path}`);
    }
    const global = await gw.login('global');
    assert.equal((await gw.get('/v1/contacts', global)).status, 403);
    assert.equal((await gw.get('/v1/custom-attributes', global)).status, 403);
  });

  it('a plan without custom_attributes: the plan\u2019s 403 on managing attributes, reading still allowed with manage_contacts', async () => {
    const basic = await gw.login('basicOwner');
    const [plan] = await gw.handle.db.select({ features: plans.features }).from(plans).where(eq(plans.key, 'basic'));
    assert.ok(plan);
    try {
      await gw.handle.db
        .update(plans)
        .set({ features: sql`array_remove(${plans.features}, 'custom_attributes')` })
        .where(eq(plans.key, 'basic'));
      gw.sessionsChanged();
      for (const [method, path, body] of attributeRoutes()) {
        const r = await call<ErrorBody>(gw, method, path, basic, body);
        assert.equal(r.status, 403, `${method} ${path}`);
        assert.equal(r.body.message, PLAN_MESSAGE);
      }
      assert.equal((await gw.get('/v1/custom-attributes', basic)).status, 200);

      // Neither feature: the attribute list gives the plan's 403 too, and so do contacts.
      await gw.handle.db
        .update(plans)
        .set({ features: sql`array_remove(${plans.features}, 'manage_contacts')` })
        .where(eq(plans.key, 'basic'));
      gw.sessionsChanged();
      for (const path of ['/v1/custom-attributes', '/v1/contacts', '/v1/lists']) {
        const r = await gw.get<ErrorBody>(path, basic);
        assert.equal(r.status, 403, path);
        assert.equal(r.body.message, PLAN_MESSAGE, path);
      }
    } finally {
      await gw.handle.db.update(plans).set({ features: plan.features }).where(eq(plans.key, 'basic'));
      gw.sessionsChanged();
    }
    assert.equal((await gw.get('/v1/contacts', basic)).status, 200);
  });
});
