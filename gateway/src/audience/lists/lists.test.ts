import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AffectedResponse, Contact, ContactPage, List, ListPage } from '../../contracts';
import { DUPLICATE_LIST_NAME } from './list-store';
import { type ErrorBody, startGateway, type TestGateway } from '../../../test/helpers';
import { call, qs } from '../../../test/audience-helpers';

let gw: TestGateway;
let token: string; // Basic Guild owner: no seeded audience

before(async () => {
  gw = await startGateway();
  token = await gw.login('basicOwner');
});
after(() => gw.close());

async function create(name: string, extra: Partial<List> = {}): Promise<List> {
  const r = await call<List>(gw, 'POST', '/v1/lists', token, { name, ...extra });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

describe('lists CRUD', () => {
  it('creates a list with the List fields of the spec plus member count', async () => {
    const r = await call<List>(gw, 'POST', '/v1/lists', token, {
      name: '  Newsletter  ',
      description: 'Monthly',
      autoimport: true,
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.name, 'Newsletter');
    assert.equal(r.body.description, 'Monthly');
    assert.equal(r.body.autoimport, true);
    assert.equal(r.body.community_id, null);
    assert.equal(r.body.member_count, 0);
    assert.match(r.body._id, /^[0-9a-f-]{36}$/);
    const got = await gw.get<List>(`/v1/lists/${r.body._id}`, token);
    assert.deepEqual(got.body, r.body);
  });

  it('refuses a duplicate name, case-insensitively, on create and on rename', async () => {
    const dup = await call<ErrorBody>(gw, 'POST', '/v1/lists', token, { name: 'NEWSLETTER' });
    assert.equal(dup.status, 400);
    assert.deepEqual(dup.body.errors, { name: [DUPLICATE_LIST_NAME] });
    const other = await create('Other');
    const rename = await call<ErrorBody>(gw, 'PATCH', `/v1/lists/${other._id}`, token, { name: 'newsletter' });
    assert.equal(rename.status, 400);
    assert.deepEqual(rename.body.errors, { name: [DUPLICATE_LIST_NAME] });
    // Renaming to its own name (another case) is fine.
    const self = await call<List>(gw, 'PATCH', `/v1/lists/${other._id}`, token, { name: 'OTHER' });
    assert.equal(self.status, 200, self.text);
    assert.equal(self.body.name, 'OTHER');
  });

  it('answers one field error for many concurrent creates of one name', async () => {
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => call<List | ErrorBody>(gw, 'POST', '/v1/lists', token, { name: 'Raced' })),
    );
    assert.deepEqual(replies.map((r) => r.status).sort(), [201, 400, 400, 400, 400]);
    for (const r of replies.filter((x) => x.status === 400)) {
      assert.deepEqual((r.body as ErrorBody).errors, { name: [DUPLICATE_LIST_NAME] });
    }
  });

  it('validates names (required, at most 100 characters)', async () => {
    const empty = await call<ErrorBody>(gw, 'POST', '/v1/lists', token, { name: '   ' });
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body.errors, { name: ['Enter a name.'] });
    const long = await call<ErrorBody>(gw, 'POST', '/v1/lists', token, { name: 'x'.repeat(101) });
    assert.deepEqual(long.body.errors, { name: ['Use at most 100 characters.'] });
    const patch = await call<ErrorBody>(gw, 'PATCH', `/v1/lists/${(await create('Valid'))._id}`, token, { name: '' });
    assert.equal(patch.status, 400);
  });

  it('edits only the given fields and bumps updated_at', async () => {
    const l = await create('Editable', { description: 'before' });
    const r = await call<List>(gw, 'PATCH', `/v1/lists/${l._id}`, token, { autoimport: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.name, 'Editable');
    assert.equal(r.body.description, 'before');
    assert.equal(r.body.autoimport, true);
    assert.ok(r.body.updated_at > l.updated_at);
  });

  it('deletes a list (its contacts stay), then 404', async () => {
    const l = await create('Doomed');
    const c = await call<Contact>(gw, 'POST', '/v1/contacts', token, { email: 'stays@example.com', lists: [l._id] });
    assert.equal(c.status, 201, c.text);
    const d = await call<{ message: string }>(gw, 'DELETE', `/v1/lists/${l._id}`, token);
    assert.equal(d.status, 200);
    assert.equal(d.body.message, 'List deleted.');
    assert.equal((await gw.get(`/v1/lists/${l._id}`, token)).status, 404);
    assert.equal((await call(gw, 'DELETE', `/v1/lists/${l._id}`, token)).status, 404);
    assert.equal((await call(gw, 'PATCH', `/v1/lists/${l._id}`, token, { name: 'x' })).status, 404);
    const stays = await gw.get<Contact>(`/v1/contacts/${c.body._id}`, token);
    assert.equal(stays.status, 200);
    assert.deepEqual(stays.body.lists, []);
    assert.equal((await gw.get('/v1/lists/not-a-uuid', token)).status, 404);
  });
});

describe('GET /v1/lists', () => {
  it('searches, sorts (created_at, name, member_count) and pages; perPage 1000 is the all-lists fetch', async () => {
    const all = await gw.get<ListPage>('/v1/lists?perPage=1000', token);
    assert.equal(all.status, 200, all.text);
    const names = all.body.records.map((l) => l.name);
    assert.equal(all.body.pagination.count, names.length);
    assert.equal(names[0], 'Editable', 'newest first by default');
    await call(gw, 'POST', '/v1/contacts', token, { email: 'counted@example.com', lists: [all.body.records[2]?._id] });
    const byCount = await gw.get<ListPage>(`/v1/lists?${qs({ sortField: 'member_count', sortOrder: 'desc' })}`, token);
    assert.equal(byCount.body.records[0]?._id, all.body.records[2]?._id);
    assert.equal(byCount.body.records[0]?.member_count, 1);

    const byName = await gw.get<ListPage>(
      `/v1/lists?${qs({ sortField: 'name', sortOrder: 'asc', perPage: 1000 })}`,
      token,
    );
    const sorted = byName.body.records.map((l) => l.name.toLowerCase());
    assert.deepEqual(sorted, [...sorted].sort());

    const found = await gw.get<ListPage>(`/v1/lists?${qs({ searchString: 'EDIT' })}`, token);
    assert.deepEqual(
      found.body.records.map((l) => l.name),
      ['Editable'],
    );
    const literal = await gw.get<ListPage>(`/v1/lists?${qs({ searchString: '%' })}`, token);
    assert.deepEqual(literal.body.records, []);

    const p2 = await gw.get<ListPage>(
      `/v1/lists?${qs({ perPage: 2, page: 2, sortField: 'name', sortOrder: 'asc' })}`,
      token,
    );
    assert.deepEqual(
      p2.body.records.map((l) => l.name.toLowerCase()),
      sorted.slice(2, 4),
    );
    assert.equal(p2.body.pagination.previous, 1);
  });

  it('rejects unknown sort fields and perPage over 1000', async () => {
    const r = await gw.get<ErrorBody>('/v1/lists?sortField=tenant_id&perPage=1001', token);
    assert.equal(r.status, 400);
    assert.ok(r.body.errors?.sortField && r.body.errors.perPage);
  });
});

describe('PATCH and DELETE /v1/lists/{id}/contacts', () => {
  let list: List;
  let ids: string[];

  before(async () => {
    list = await create('Members');
    ids = [];
    for (let i = 0; i < 4; i++) {
      const r = await call<Contact>(gw, 'POST', '/v1/contacts', token, { email: `member${i}@example.com` });
      ids.push(r.body._id);
    }
  });

  it('adds contacts (once each) and keeps member_count', async () => {
    const r = await call<AffectedResponse>(gw, 'PATCH', `/v1/lists/${list._id}/contacts`, token, {
      contacts: ids.slice(0, 3),
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { message: '3 contacts added to the list.', affected: 3 });
    const again = await call<AffectedResponse>(gw, 'PATCH', `/v1/lists/${list._id}/contacts`, token, {
      contacts: [...ids, 'junk'],
    });
    assert.equal(again.body.affected, 1);
    assert.equal((await gw.get<List>(`/v1/lists/${list._id}`, token)).body.member_count, 4);
  });

  it('shows members through GET /v1/contacts?listId= and on each contact', async () => {
    const members = await gw.get<ContactPage>(`/v1/contacts?${qs({ listId: list._id, perPage: 50 })}`, token);
    assert.equal(members.status, 200, members.text);
    assert.deepEqual(members.body.records.map((c) => c._id).sort(), [...ids].sort());
    assert.equal(members.body.pagination.count, 4);
    assert.ok(members.body.records.every((c) => c.lists.includes(list._id)));
  });

  it('removes contacts', async () => {
    const r = await call<AffectedResponse>(gw, 'DELETE', `/v1/lists/${list._id}/contacts`, token, {
      contacts: [ids[0], ids[1]],
    });
    assert.deepEqual(r.body, { message: '2 contacts removed from the list.', affected: 2 });
    const one = await call<AffectedResponse>(gw, 'DELETE', `/v1/lists/${list._id}/contacts`, token, {
      contacts: [ids[0], ids[2]],
    });
    assert.deepEqual(one.body, { message: '1 contact removed from the list.', affected: 1 });
    assert.equal((await gw.get<List>(`/v1/lists/${list._id}`, token)).body.member_count, 1);
  });

  it('validates the body and 404s for unknown lists', async () => {
    const empty = await call<ErrorBody>(gw, 'PATCH', `/v1/lists/${list._id}/contacts`, token, { contacts: [] });
    assert.equal(empty.status, 400);
    assert.ok(empty.body.errors?.contacts);
    assert.equal((await call(gw, 'PATCH', `/v1/lists/${list._id}/contacts`, token, {})).status, 400);
    const missing = '00000000-0000-4000-8000-000000000000';
    assert.equal((await call(gw, 'PATCH', `/v1/lists/${missing}/contacts`, token, { contacts: ids })).status, 404);
    assert.equal((await call(gw, 'DELETE', `/v1/lists/junk/contacts`, token, { contacts: ids })).status, 404);
  });
});

describe('the demo audience of Acme DAO', () => {
  it('has 3 lists with members (besides its community list), 60 contacts and 2 custom attributes', async () => {
    const acme = await gw.login('acmeOwner');
    const lists = await gw.get<ListPage>('/v1/lists?perPage=1000&sortField=name&sortOrder=asc', acme);
    const demo = lists.body.records.filter((l) => l.community_id === null);
    assert.deepEqual(
      demo.map((l) => l.name),
      ['Early adopters', 'Governance voters', 'Newsletter'],
    );
    assert.ok(demo.every((l) => l.member_count > 0));
    assert.deepEqual(
      lists.body.records.filter((l) => l.community_id !== null).map((l) => l.name),
      ['Community sign-ups'],
    );
    const contacts = await gw.get<ContactPage>('/v1/contacts?perPage=1', acme);
    assert.equal(contacts.body.pagination.count, 60);
    const attributes = await gw.get<{ records: { key: string }[] }>('/v1/custom-attributes', acme);
    assert.deepEqual(attributes.body.records.map((a) => a.key).sort(), ['tier', 'token_balance']);
  });
});
