import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import {
  MAX_ATTRIBUTES_PER_TENANT,
  RESERVED_ATTRIBUTE_KEYS,
  type Contact,
  type ContactPage,
  type CustomAttribute,
  type CustomAttributePage,
} from '../../contracts';
import {
  DUPLICATE_ATTRIBUTE_KEY,
  DUPLICATE_ATTRIBUTE_NAME,
  RESERVED_KEY,
  TOO_MANY_ATTRIBUTES,
} from './attribute-store';
import { contacts } from '../../db/schema';
import { type ErrorBody, startGateway, type TestGateway } from '../../../test/helpers';
import { call, qs, tenantId } from '../../../test/audience-helpers';

let gw: TestGateway;
let token: string; // Basic Guild owner
let basicId: string;

before(async () => {
  gw = await startGateway();
  token = await gw.login('basicOwner');
  basicId = await tenantId(gw, 'Basic Guild');
});
after(() => gw.close());

async function create(name: string, key: string, type: CustomAttribute['type']): Promise<CustomAttribute> {
  const r = await call<CustomAttribute>(gw, 'POST', '/v1/custom-attributes', token, { name, key, type });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

describe('POST /v1/custom-attributes', () => {
  it('creates an attribute (201) without value_count', async () => {
    const r = await call<CustomAttribute>(gw, 'POST', '/v1/custom-attributes', token, {
      name: ' Token balance ',
      key: 'token_balance',
      type: 'number',
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.name, 'Token balance');
    assert.equal(r.body.key, 'token_balance');
    assert.equal(r.body.type, 'number');
    assert.equal(r.body.value_count, undefined);
  });

  it('checks the key pattern, reserved keys and uniqueness of key and name (field errors)', async () => {
    for (const key of ['Tier', '1tier', 'tier-x', '', 'a'.repeat(41), 'tier x']) {
      const r = await call<ErrorBody>(gw, 'POST', '/v1/custom-attributes', token, {
        name: `N ${key}`,
        key,
        type: 'text',
      });
      assert.equal(r.status, 400, key);
      assert.ok(r.body.errors?.key, key);
    }
    for (const key of RESERVED_ATTRIBUTE_KEYS.filter((k) => /^[a-z]/.test(k))) {
      const r = await call<ErrorBody>(gw, 'POST', '/v1/custom-attributes', token, {
        name: `N ${key}`,
        key,
        type: 'text',
      });
      assert.equal(r.status, 400, key);
      assert.deepEqual(r.body.errors, { key: [RESERVED_KEY] }, key);
    }
    const dup = await call<ErrorBody>(gw, 'POST', '/v1/custom-attributes', token, {
      name: 'TOKEN BALANCE',
      key: 'token_balance',
      type: 'text',
    });
    assert.equal(dup.status, 400);
    assert.deepEqual(dup.body.errors, { key: [DUPLICATE_ATTRIBUTE_KEY], name: [DUPLICATE_ATTRIBUTE_NAME] });
    const badType = await call<ErrorBody>(gw, 'POST', '/v1/custom-attributes', token, {
      name: 'X',
      key: 'x',
      type: 'json',
    });
    assert.ok(badType.body.errors?.type);
  });

  it('answers one field error for concurrent creates of one key', async () => {
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        call<CustomAttribute | ErrorBody>(gw, 'POST', '/v1/custom-attributes', token, {
          name: `Raced ${i}`,
          key: 'raced',
          type: 'text',
        }),
      ),
    );
    assert.deepEqual(replies.map((r) => r.status).sort(), [201, 400, 400, 400]);
    for (const r of replies.filter((x) => x.status === 400)) {
      assert.deepEqual((r.body as ErrorBody).errors, { key: [DUPLICATE_ATTRIBUTE_KEY] });
    }
  });
});

describe('GET, PATCH /v1/custom-attributes', () => {
  it('lists with search and sort', async () => {
    await create('Favourite chain', 'chain', 'text');
    const all = await gw.get<CustomAttributePage>('/v1/custom-attributes?perPage=100', token);
    assert.equal(all.status, 200, all.text);
    assert.equal(all.body.records[0]?.key, 'chain', 'newest first');
    const byKey = await gw.get<CustomAttributePage>(
      `/v1/custom-attributes?${qs({ sortField: 'key', sortOrder: 'asc' })}`,
      token,
    );
    const keys = byKey.body.records.map((a) => a.key);
    assert.deepEqual(keys, [...keys].sort());
    const found = await gw.get<CustomAttributePage>(`/v1/custom-attributes?${qs({ searchString: 'CHAIN' })}`, token);
    assert.deepEqual(
      found.body.records.map((a) => a.key),
      ['chain'],
    );
    const bad = await gw.get<ErrorBody>('/v1/custom-attributes?sortField=type', token);
    assert.equal(bad.status, 400);
  });

  it('GET by id counts the contacts holding a value', async () => {
    const a = await create('Level', 'level', 'number');
    for (const [i, level] of [1, 2, null].entries()) {
      const body =
        level === null ? { email: `lvl${i}@example.com` } : { email: `lvl${i}@example.com`, attributes: { level } };
      assert.equal((await call(gw, 'POST', '/v1/contacts', token, body)).status, 201);
    }
    const r = await gw.get<CustomAttribute>(`/v1/custom-attributes/${a._id}`, token);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.value_count, 2);
    assert.equal(r.body.key, 'level');
  });

  it('renames (name only; key and type stay), refusing a taken name', async () => {
    const a = await create('Old name', 'renamed', 'text');
    const r = await call<CustomAttribute>(gw, 'PATCH', `/v1/custom-attributes/${a._id}`, token, {
      name: 'New name',
      key: 'other',
      type: 'number',
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.body.name, r.body.key, r.body.type], ['New name', 'renamed', 'text']);
    const taken = await call<ErrorBody>(gw, 'PATCH', `/v1/custom-attributes/${a._id}`, token, { name: 'level' });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body.errors, { name: [DUPLICATE_ATTRIBUTE_NAME] });
    const empty = await call<ErrorBody>(gw, 'PATCH', `/v1/custom-attributes/${a._id}`, token, { name: ' ' });
    assert.deepEqual(empty.body.errors, { name: ['Enter a name.'] });
    assert.equal((await call(gw, 'PATCH', '/v1/custom-attributes/junk', token, { name: 'x' })).status, 404);
  });
});

describe('DELETE /v1/custom-attributes/{id}', () => {
  it('hides the values at once and removes them from the contacts in the background', async () => {
    const a = await create('Doomed', 'doomed', 'text');
    const keep = await create('Kept', 'kept', 'text');
    const made: Contact[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await call<Contact>(gw, 'POST', '/v1/contacts', token, {
        email: `doomed${i}@example.com`,
        attributes: { doomed: `v${i}`, kept: 'yes' },
      });
      made.push(r.body);
    }
    const before = made[0];
    assert.ok(before);
    const r = await call<{ message: string }>(gw, 'DELETE', `/v1/custom-attributes/${a._id}`, token);
    assert.equal(r.status, 200);
    assert.equal(r.body.message, 'Custom attribute deleted.');
    const shown = await gw.get<Contact>(`/v1/contacts/${before._id}`, token);
    assert.deepEqual(shown.body.attributes, { kept: 'yes' });
    assert.equal(shown.body.updated_at, before.updated_at, 'not an edit of the contact');
    await gw.app.deps.background.drain();
    const [left] = await gw.handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(contacts)
      .where(sql`${contacts.tenantId} = ${basicId} and ${contacts.attributes} ? ${a._id}`);
    assert.equal(left?.n, 0, 'values removed');
    const [kept] = await gw.handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(contacts)
      .where(sql`${contacts.tenantId} = ${basicId} and ${contacts.attributes} ? ${keep._id}`);
    assert.equal(kept?.n, 3, 'other values stay');
    assert.equal((await gw.get(`/v1/custom-attributes/${a._id}`, token)).status, 404);
    assert.equal((await call(gw, 'DELETE', `/v1/custom-attributes/${a._id}`, token)).status, 404);
    // The key is free again; old values do not come back (they were keyed by the old id).
    const again = await create('Doomed again', 'doomed', 'text');
    const after = await gw.get<Contact>(`/v1/contacts/${before._id}`, token);
    assert.equal(after.body.attributes.doomed, undefined);
    assert.ok(again._id !== a._id);
  });

  it('filtering by a deleted attribute is 404', async () => {
    const a = await create('Short lived', 'short_lived', 'text');
    await call(gw, 'DELETE', `/v1/custom-attributes/${a._id}`, token);
    const r = await gw.get<ContactPage>(`/v1/contacts?${qs({ attribute: 'short_lived' })}`, token);
    assert.equal(r.status, 404);
  });
});

describe('at most MAX_ATTRIBUTES_PER_TENANT', () => {
  it('refuses one more', async () => {
    const list = await gw.get<CustomAttributePage>('/v1/custom-attributes?perPage=1', token);
    const have = list.body.pagination.count;
    await gw.handle.db.execute(sql`
      insert into custom_attributes (tenant_id, name, key, type)
      select ${basicId}::uuid, 'Filler ' || g, 'filler_' || g, 'text'
      from generate_series(1, ${MAX_ATTRIBUTES_PER_TENANT - have}) g`);
    const r = await call<ErrorBody>(gw, 'POST', '/v1/custom-attributes', token, {
      name: 'One more',
      key: 'one_more',
      type: 'text',
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.message, TOO_MANY_ATTRIBUTES);
  });
});
