import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import {
  CONTACT_SORT_FIELDS,
  SELECT_A_LIST_MESSAGE,
  type AffectedResponse,
  type Contact,
  type ContactPage,
  type CustomAttribute,
  type List,
} from '../../contracts';
import { MESSAGES } from './contact-fields';
import { UNKNOWN_ATTRIBUTE } from './contact-input';
import {
  contactBatches,
  contactOrder,
  contactPage,
  countContacts,
  resolveContactFilter,
  searchCondition,
  searchWalkPage,
  SORT_MATCHES_UP_TO,
} from './contact-query';
import { DUPLICATE_EMAIL, DUPLICATE_WALLET, UNKNOWN_LISTS } from './contact-store';
import { contacts, segments } from '../../db/schema';
import { toChecksumAddress } from '../../lib/eip55';
import { type ErrorBody, startGateway, type TestGateway } from '../../../test/helpers';
import { call, parseCsv, qs, tenantId } from '../../../test/audience-helpers';

const wallet = (n: number) => toChecksumAddress(`0x${n.toString(16).padStart(40, '0')}`);

let gw: TestGateway;
let basic: string; // Basic Guild owner: contacts made through the API
let lab: string; // Lab Rats owner: a generated data set for sorting, paging and filters
let labId: string;

before(async () => {
  gw = await startGateway();
  basic = await gw.login('basicOwner');
  lab = await gw.login('labOwner');
  labId = await tenantId(gw, 'Lab Rats');
});
after(() => gw.close());

async function createAttribute(token: string, key: string, type: CustomAttribute['type']): Promise<CustomAttribute> {
  const r = await call<CustomAttribute>(gw, 'POST', '/v1/custom-attributes', token, { name: key, key, type });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function createList(token: string, name: string): Promise<List> {
  const r = await call<List>(gw, 'POST', '/v1/lists', token, { name });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

describe('POST /v1/contacts', () => {
  before(async () => {
    await createAttribute(basic, 'tier', 'text');
    await createAttribute(basic, 'score', 'number');
    await createAttribute(basic, 'vip', 'boolean');
    await createAttribute(basic, 'joined', 'date');
    await createAttribute(basic, 'payout', 'wallet');
  });

  it('creates a contact: e-mail lower-cased, wallet checksummed, source manual, 201', async () => {
    const list = await createList(basic, 'Create test');
    const r = await call<Contact>(gw, 'POST', '/v1/contacts', basic, {
      email: '  Ada@Example.COM ',
      wallet: wallet(1).toLowerCase(),
      first_name: ' Ada ',
      last_name: 'Lovelace',
      lists: [list._id],
      attributes: { tier: 'gold', score: '1,500', vip: 'yes', joined: '2024-02-29', payout: wallet(2).toLowerCase() },
      source: 'import',
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.email, 'ada@example.com');
    assert.equal(r.body.wallet, wallet(1));
    assert.equal(r.body.first_name, 'Ada');
    assert.equal(r.body.status, 'subscribed');
    assert.equal(r.body.source, 'manual', 'source is set by the server');
    assert.deepEqual(r.body.lists, [list._id]);
    assert.deepEqual(r.body.attributes, {
      tier: 'gold',
      score: 1500,
      vip: true,
      joined: '2024-02-29',
      payout: wallet(2),
    });
    const again = await gw.get<Contact>(`/v1/contacts/${r.body._id}`, basic);
    assert.deepEqual(again.body, r.body);
  });

  it('needs an e-mail or a wallet (field errors on both)', async () => {
    for (const body of [{}, { email: '', wallet: null }, { first_name: 'Nobody' }]) {
      const r = await call<ErrorBody>(gw, 'POST', '/v1/contacts', basic, body);
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(r.body.errors, { email: [MESSAGES.identity], wallet: [MESSAGES.identity] });
    }
  });

  it('answers field errors for bad values, unknown attributes and lists that are not the tenant\u2019s', async () => {
    const r = await call<ErrorBody>(gw, 'POST', '/v1/contacts', basic, {
      email: 'not-an-email',
      wallet: '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      lists: ['not-a-uuid'],
      attributes: { score: 'lots', joined: '2023-02-29', nope: 1 },
    });
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(r.body.errors, {
      email: [MESSAGES.email],
      wallet: [MESSAGES.walletChecksum],
      lists: [UNKNOWN_LISTS],
      'attributes.score': [MESSAGES.number],
      'attributes.joined': [MESSAGES.date],
      'attributes.nope': [UNKNOWN_ATTRIBUTE],
    });
    const otherList = await createList(lab, 'Lab only');
    const foreign = await call<ErrorBody>(gw, 'POST', '/v1/contacts', basic, {
      email: 'x1@example.com',
      lists: [otherList._id],
    });
    assert.equal(foreign.status, 400);
    assert.deepEqual(foreign.body.errors, { lists: [UNKNOWN_LISTS] });
  });

  it('refuses an e-mail or wallet another contact of the tenant has (case-insensitive)', async () => {
    const first = await call<Contact>(gw, 'POST', '/v1/contacts', basic, {
      email: 'dup@example.com',
      wallet: wallet(3),
    });
    assert.equal(first.status, 201);
    const r = await call<ErrorBody>(gw, 'POST', '/v1/contacts', basic, {
      email: 'DUP@example.com',
      wallet: wallet(3).toLowerCase(),
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.errors, { email: [DUPLICATE_EMAIL], wallet: [DUPLICATE_WALLET] });
    // Another tenant may hold the same address.
    const elsewhere = await call<Contact>(gw, 'POST', '/v1/contacts', lab, { email: 'dup@example.com' });
    assert.equal(elsewhere.status, 201, elsewhere.text);
    await call(gw, 'DELETE', `/v1/contacts/${elsewhere.body._id}`, lab);
  });

  it('lets exactly one of many concurrent creates of one e-mail win; the others get the field error', async () => {
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call<Contact | ErrorBody>(gw, 'POST', '/v1/contacts', basic, {
          email: 'race@example.com',
          first_name: `Racer ${i}`,
        }),
      ),
    );
    assert.deepEqual(replies.map((r) => r.status).sort(), [201, 400, 400, 400, 400, 400]);
    for (const r of replies.filter((x) => x.status === 400)) {
      assert.deepEqual((r.body as ErrorBody).errors, { email: [DUPLICATE_EMAIL] });
    }
  });

  it('validates the body by the contract (unknown status, too long names)', async () => {
    const r = await call<ErrorBody>(gw, 'POST', '/v1/contacts', basic, {
      email: 'long@example.com',
      status: 'asleep',
      first_name: 'x'.repeat(101),
    });
    assert.equal(r.status, 400);
    assert.ok(r.body.errors?.status);
    assert.ok(r.body.errors?.first_name);
  });
});

describe('GET, PATCH, DELETE /v1/contacts/{id}', () => {
  it('edits only the given fields, replaces lists, clears attributes with null, bumps updated_at', async () => {
    const a = await createList(basic, 'Edit A');
    const b = await createList(basic, 'Edit B');
    const created = await call<Contact>(gw, 'POST', '/v1/contacts', basic, {
      email: 'edit@example.com',
      first_name: 'Eve',
      lists: [a._id],
      attributes: { tier: 'silver', score: 3 },
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body._id;
    const r = await call<Contact>(gw, 'PATCH', `/v1/contacts/${id}`, basic, {
      last_name: 'Edited',
      status: 'unsubscribed',
      lists: [b._id],
      attributes: { tier: null, vip: false },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.first_name, 'Eve');
    assert.equal(r.body.last_name, 'Edited');
    assert.equal(r.body.email, 'edit@example.com');
    assert.equal(r.body.status, 'unsubscribed');
    assert.deepEqual(r.body.lists, [b._id]);
    assert.deepEqual(r.body.attributes, { score: 3, vip: false });
    assert.ok(r.body.updated_at > created.body.updated_at);
    assert.equal(r.body.created_at, created.body.created_at);

    const none = await call<Contact>(gw, 'PATCH', `/v1/contacts/${id}`, basic, { lists: [] });
    assert.deepEqual(none.body.lists, []);
  });

  it('keeps the identity rule and uniqueness on edit', async () => {
    const c = await call<Contact>(gw, 'POST', '/v1/contacts', basic, { email: 'only@example.com' });
    const clear = await call<ErrorBody>(gw, 'PATCH', `/v1/contacts/${c.body._id}`, basic, { email: null });
    assert.equal(clear.status, 400);
    assert.deepEqual(clear.body.errors, { email: [MESSAGES.identity], wallet: [MESSAGES.identity] });
    const swap = await call<Contact>(gw, 'PATCH', `/v1/contacts/${c.body._id}`, basic, {
      email: null,
      wallet: wallet(77),
    });
    assert.equal(swap.status, 200, swap.text);
    assert.equal(swap.body.email, null);
    const taken = await call<ErrorBody>(gw, 'PATCH', `/v1/contacts/${c.body._id}`, basic, {
      email: 'dup@example.com',
    });
    assert.deepEqual(taken.body.errors, { email: [DUPLICATE_EMAIL] });
    // Its own address is not a duplicate of itself.
    const same = await call<Contact>(gw, 'PATCH', `/v1/contacts/${c.body._id}`, basic, { wallet: wallet(77) });
    assert.equal(same.status, 200, same.text);
  });

  it('deletes, then answers 404; malformed ids are 404 too', async () => {
    const c = await call<Contact>(gw, 'POST', '/v1/contacts', basic, { email: 'gone@example.com' });
    const d = await call<{ message: string }>(gw, 'DELETE', `/v1/contacts/${c.body._id}`, basic);
    assert.equal(d.status, 200);
    assert.equal(d.body.message, 'Contact deleted.');
    assert.equal((await gw.get(`/v1/contacts/${c.body._id}`, basic)).status, 404);
    assert.equal((await call(gw, 'DELETE', `/v1/contacts/${c.body._id}`, basic)).status, 404);
    assert.equal((await call(gw, 'PATCH', `/v1/contacts/${c.body._id}`, basic, { first_name: 'x' })).status, 404);
    assert.equal((await gw.get('/v1/contacts/not-a-uuid', basic)).status, 404);
    assert.equal((await gw.get("/v1/contacts/1' or '1'='1", basic)).status, 404);
  });
});

// ------------------------------------------------------------------------------------------
// The grid over a generated data set (Lab Rats): sorting, paging in both halves, search, filters
// ------------------------------------------------------------------------------------------

const N = 57;
const LAST_NAMES = ['smith', 'Smith', 'Ålund', '', 'O’Brien', 'abbott', 'Zed', 'mc_coy'];

describe('GET /v1/contacts over a generated data set', () => {
  let tierId: string;
  let scoreId: string;
  let list: List;

  before(async () => {
    const tier = await createAttribute(lab, 'tier', 'text');
    const score = await createAttribute(lab, 'score', 'number');
    tierId = tier._id;
    scoreId = score._id;
    list = await createList(lab, 'Generated');
    // Every third row shares its created_at with the next two (ties broken by id), with microseconds;
    // every 6th has no e-mail, every 4th (from 1) no wallet, never both.
    await gw.handle.db.execute(sql`
      insert into contacts (tenant_id, email, wallet, first_name, last_name, status, source, attributes, created_at, updated_at)
      select ${labId}::uuid,
        case when g % 6 = 0 then null else 'person' || lpad(g::text, 3, '0') || '@example.com' end,
        case when g % 4 = 1 and g % 6 <> 0 then null else '0x' || lpad(to_hex(g * 7919), 40, '0') end,
        (array['Ada','ada','Ben','Ölaf'])[1 + g % 4],
        (${sql.raw(`array[${LAST_NAMES.map((n) => `'${n.replace(/'/g, "''")}'`).join(',')}]`)})[1 + g % 8],
        (array['subscribed','subscribed','unsubscribed','bounced','complained'])[1 + g % 5],
        (array['import','widget','api','manual'])[1 + g % 4],
        case when g % 2 = 0 then jsonb_build_object(${tierId}::text, (array['Gold','silver'])[1 + g % 4 / 2], ${scoreId}::text, g % 7 + 0.5)
             else '{}'::jsonb end,
        timestamptz '2026-01-01 00:00:00.123456+00' + (g / 3) * interval '1 minute',
        timestamptz '2026-02-01 00:00:00+00' + (g % 10) * interval '1 second'
      from generate_series(1, ${N}) g`);
    await gw.handle.db.execute(sql`
      insert into list_members (list_id, contact_id)
      select ${list._id}::uuid, id from contacts where tenant_id = ${labId}::uuid and email like 'person0%'`);
  });

  async function page(params: Record<string, string | number | undefined>): Promise<ContactPage> {
    const r = await gw.get<ContactPage>(`/v1/contacts?${qs(params)}`, lab);
    assert.equal(r.status, 200, r.text);
    return r.body;
  }

  /** Every row in the grid's order, read with a plain OFFSET (no reverse reading, no index walk trick). */
  async function plainOrder(sortField: (typeof CONTACT_SORT_FIELDS)[number], sortOrder: 'asc' | 'desc') {
    const rows = await gw.handle.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(eq(contacts.tenantId, labId))
      .orderBy(...contactOrder(sortField, sortOrder));
    return rows.map((r) => r.id);
  }

  it('every sort field, both orders, every page (both halves) gives exactly the rows of a plain OFFSET', async () => {
    for (const sortField of CONTACT_SORT_FIELDS) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        const expected = await plainOrder(sortField, sortOrder);
        assert.equal(expected.length, N);
        const seen: string[] = [];
        for (let p = 1; p <= 6; p++) {
          const body = await page({ sortField, sortOrder, page: p, perPage: 10 });
          assert.deepEqual(
            body.records.map((c) => c._id),
            expected.slice((p - 1) * 10, p * 10),
            `${sortField} ${sortOrder} page ${p}`,
          );
          seen.push(...body.records.map((c) => c._id));
          assert.equal(body.pagination.count, N);
        }
        assert.equal(new Set(seen).size, N, 'no row twice, none missing');
        const beyond = await page({ sortField, sortOrder, page: 7, perPage: 10 });
        assert.deepEqual(beyond.records, []);
        assert.deepEqual(beyond.pagination, { starting: 0, ending: 0, count: N, previous: 6, next: null });
      }
    }
  });

  it('the index walk (over SORT_MATCHES_UP_TO matches) pages exactly like a plain OFFSET too', async () => {
    // Same query code, with the walk forced: the data set is far below the threshold.
    assert.ok(N < SORT_MATCHES_UP_TO);
    const scope = await resolveContactFilter(gw.handle.db, labId, {});
    for (const sortField of ['created_at', 'updated_at', 'last_name'] as const) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        const expected = await plainOrder(sortField, sortOrder);
        const ids: string[] = [];
        for (let p = 1; p <= 6; p++) {
          const { rows } = await contactPage(gw.handle.db, scope, { page: p, perPage: 10, sortField, sortOrder }, 0);
          ids.push(...rows.map((r) => r.id));
        }
        assert.deepEqual(ids, expected, `${sortField} ${sortOrder}`);
      }
    }
  });

  it('orders text case-insensitively by code point, contacts without an e-mail last (asc) or first (desc)', async () => {
    const all = (await page({ sortField: 'email', sortOrder: 'asc', perPage: 100 })).records;
    const emails = all.map((c) => c.email);
    const firstNull = emails.indexOf(null);
    assert.ok(firstNull > 0);
    assert.ok(emails.slice(firstNull).every((e) => e === null));
    const present = emails.slice(0, firstNull);
    assert.deepEqual(present, [...present].sort());
    const desc = (await page({ sortField: 'email', sortOrder: 'desc', perPage: 100 })).records;
    assert.equal(desc[0]?.email, null);

    const names = (await page({ sortField: 'last_name', sortOrder: 'asc', perPage: 100 })).records.map((c) =>
      c.last_name.toLowerCase(),
    );
    assert.deepEqual(names, [...names].sort());
  });

  it('rejects a sort field outside the whitelist and bad paging with 400', async () => {
    for (const sortField of ['password_hash', 'first_name', 'status', 'attributes', 'email; drop table contacts']) {
      const r = await gw.get<ErrorBody>(`/v1/contacts?${qs({ sortField })}`, lab);
      assert.equal(r.status, 400, sortField);
      assert.ok(r.body.errors?.sortField);
    }
    const r = await gw.get<ErrorBody>('/v1/contacts?page=0&perPage=1001&sortOrder=up', lab);
    assert.equal(r.status, 400);
    assert.ok(r.body.errors?.page && r.body.errors.perPage && r.body.errors.sortOrder);
  });

  it('searches by prefix on e-mail, wallet, first and last name, case-insensitively', async () => {
    const found = async (searchString: string) =>
      (await page({ searchString, perPage: 100, sortField: 'email', sortOrder: 'asc' })).records;
    assert.deepEqual(
      (await found('PERSON01')).map((c) => c.email),
      Array.from({ length: 10 }, (_, i) => `person${String(10 + i).padStart(3, '0')}@example.com`).filter(
        (_, i) => (10 + i) % 6 !== 0,
      ),
    );
    // Not a substring search.
    assert.deepEqual(await found('erson01'), []);
    // A wallet prefix in any case.
    const w = await found(`0x${'0'.repeat(36)}7`);
    assert.ok(w.length > 0 && w.every((c) => c.wallet?.toLowerCase().startsWith(`0x${'0'.repeat(36)}7`)));
    // First and last names, accents included.
    assert.equal((await found('ölaf')).length, (await found('ÖLAF')).length);
    assert.ok((await found('ölaf')).every((c) => c.first_name === 'Ölaf'));
    assert.ok((await found('ålund')).every((c) => c.last_name === 'Ålund'));
    const smiths = await found('smi');
    assert.ok(smiths.length > 0 && smiths.every((c) => c.last_name.toLowerCase() === 'smith'));
    // LIKE wildcards are literal.
    assert.deepEqual(await found('%'), []);
    assert.deepEqual(await found('_'), []);
    const mc = await found('mc_');
    assert.ok(mc.length > 0 && mc.every((c) => c.last_name === 'mc_coy'));
    assert.deepEqual(await found('mcx'), []);
    // Counts agree with the rows.
    const counted = await page({ searchString: 'ada', perPage: 5 });
    assert.equal(counted.pagination.count, (await found('ada')).length);
  });

  it('counts a search from the indexes exactly as count(*) of the OR would, and pages it by time like a plain OFFSET', async () => {
    for (const search of ['ada', 'ÖLAF', 'person01', `0x${'0'.repeat(35)}`, 'smi', 'zzz']) {
      const where = and(eq(contacts.tenantId, labId), searchCondition(search));
      const [counted] = await gw.handle.db
        .select({ n: sql<number>`count(*)::int` })
        .from(contacts)
        .where(where);
      for (const sortField of ['created_at', 'updated_at'] as const) {
        for (const sortOrder of ['asc', 'desc'] as const) {
          const expected = await gw.handle.db
            .select({ id: contacts.id })
            .from(contacts)
            .where(where)
            .orderBy(...contactOrder(sortField, sortOrder));
          assert.equal(expected.length, counted?.n);
          const ids: string[] = [];
          for (let p = 1; p <= Math.ceil(expected.length / 7) + 1; p++) {
            const body = await page({ searchString: search, sortField, sortOrder, page: p, perPage: 7 });
            assert.equal(body.pagination.count, expected.length, `${search} count`);
            ids.push(...body.records.map((c) => c._id));
          }
          assert.deepEqual(
            ids,
            expected.map((r) => r.id),
            `${search} ${sortField} ${sortOrder}`,
          );
        }
      }
    }
  });

  it('gives up a walk that does not fill the page within its bound (the caller then sorts every match)', async () => {
    // person001..person009 (but 6) are the oldest contacts: last in created_at desc order.
    const db = gw.handle.db;
    const scope = await resolveContactFilter(db, labId, { searchString: 'person00' });
    const total = await countContacts(db, scope);
    assert.equal(total, 8);
    const tenant = await countContacts(db, await resolveContactFilter(db, labId, {}));
    const q = { page: 1, perPage: 1, sortField: 'created_at', sortOrder: 'desc' } as const;
    // The shortest bound the estimate accepts (page 1 after tenant / matches rows, twice that as room)...
    const bound = Math.ceil((2 * tenant) / total);
    // ...walks the newest quarter of the tenant, where none match: no page rather than a short or wrong one.
    assert.equal(await searchWalkPage(db, scope, 'person00', q, total, bound), null);
    // A bound below the estimate is not even tried.
    assert.equal(await searchWalkPage(db, scope, 'person00', q, total, bound - 1), null);
    // A bound over the whole tenant finds the newest match.
    const rows = await searchWalkPage(db, scope, 'person00', q, total, tenant);
    assert.deepEqual(
      rows?.map((c) => c.email),
      ['person009@example.com'],
    );
    // Through the API the fallback (every match sorted) answers the same page.
    const body = await page({ searchString: 'person00', sortField: 'created_at', sortOrder: 'desc', perPage: 1 });
    assert.deepEqual(
      body.records.map((c) => c.email),
      ['person009@example.com'],
    );
  });

  it('filters by status, source, list, attribute (any value, text case-insensitive, typed), with exact counts', async () => {
    const all = (await page({ perPage: 100 })).records;
    const check = async (params: Record<string, string>, keep: (c: Contact) => boolean) => {
      const body = await page({ ...params, perPage: 100 });
      const expected = all.filter(keep).map((c) => c._id);
      assert.deepEqual(body.records.map((c) => c._id).sort(), [...expected].sort(), JSON.stringify(params));
      assert.equal(body.pagination.count, expected.length, `count ${JSON.stringify(params)}`);
    };
    await check({ status: 'bounced' }, (c) => c.status === 'bounced');
    await check({ status: 'complained', source: 'api' }, (c) => c.status === 'complained' && c.source === 'api');
    await check({ listId: list._id }, (c) => c.lists.includes(list._id));
    await check(
      { listId: list._id, status: 'subscribed' },
      (c) => c.lists.includes(list._id) && c.status === 'subscribed',
    );
    await check({ attribute: 'tier' }, (c) => c.attributes.tier !== undefined);
    await check({ attribute: tierId }, (c) => c.attributes.tier !== undefined);
    await check({ attribute: 'tier', attributeValue: 'GOLD' }, (c) => c.attributes.tier === 'Gold');
    await check({ attribute: 'score', attributeValue: '3.50' }, (c) => c.attributes.score === 3.5);
    await check({ attribute: 'score', attributeValue: '3.50', searchString: 'person0' }, (c) =>
      Boolean(c.attributes.score === 3.5 && c.email?.startsWith('person0')),
    );
    await check(
      { searchString: 'ada', status: 'subscribed' },
      (c) => c.first_name.toLowerCase() === 'ada' && c.status === 'subscribed',
    );
  });

  it('answers 400 for an attribute value of the wrong type and 404 for unknown lists, attributes, segments', async () => {
    const bad = await gw.get<ErrorBody>(`/v1/contacts?${qs({ attribute: 'score', attributeValue: 'many' })}`, lab);
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors, { attributeValue: [MESSAGES.number] });
    for (const params of [
      { attribute: 'nope' },
      { listId: '00000000-0000-4000-8000-000000000000' },
      { listId: 'junk' },
      { segmentId: '00000000-0000-4000-8000-000000000000' },
    ]) {
      assert.equal((await gw.get(`/v1/contacts?${qs(params)}`, lab)).status, 404, JSON.stringify(params));
    }
  });

  it('filters by a saved segment with the segment compiler', async () => {
    const [segment] = await gw.handle.db
      .insert(segments)
      .values({
        tenantId: labId,
        name: 'Bounced or complained',
        rule: {
          combinator: 'or',
          rules: [
            { field: 'status', operator: '=', value: 'bounced' },
            { field: 'status', operator: '=', value: 'complained' },
          ],
        },
      })
      .returning({ id: segments.id });
    assert.ok(segment);
    const body = await page({ segmentId: segment.id, perPage: 100 });
    const bounced = await page({ status: 'bounced', perPage: 100 });
    const complained = await page({ status: 'complained', perPage: 100 });
    assert.equal(body.pagination.count, bounced.pagination.count + complained.pagination.count);
    assert.ok(body.records.every((c) => c.status === 'bounced' || c.status === 'complained'));
  });

  it('reads every match by keyset in batches: none twice, none lost, even with equal created_at', async () => {
    const scope = await resolveContactFilter(gw.handle.db, labId, {});
    const expected = await plainOrder('created_at', 'asc');
    for (const size of [1, 3, 7, N, N + 1]) {
      const ids: string[] = [];
      for await (const batch of contactBatches(gw.handle.db, scope, size)) ids.push(...batch.map((r) => r.id));
      assert.deepEqual(ids, expected, `batch size ${size}`);
    }
  });
});

describe('POST /v1/contacts/bulk', () => {
  let list: List;
  let ids: string[];

  before(async () => {
    list = await createList(basic, 'Bulk target');
    ids = [];
    for (let i = 0; i < 6; i++) {
      const r = await call<Contact>(gw, 'POST', '/v1/contacts', basic, {
        email: `bulk${i}@example.com`,
        first_name: 'Bulky',
        status: i < 2 ? 'bounced' : 'subscribed',
      });
      assert.equal(r.status, 201, r.text);
      ids.push(r.body._id);
    }
  });

  const bulk = (body: unknown) => call<AffectedResponse & ErrorBody>(gw, 'POST', '/v1/contacts/bulk', basic, body);

  it('needs a list for the list actions', async () => {
    for (const action of ['add_to_list', 'remove_from_list']) {
      const r = await bulk({ action, selection: { ids } });
      assert.equal(r.status, 400);
      assert.equal(r.body.message, SELECT_A_LIST_MESSAGE);
      assert.deepEqual(r.body.errors, { listId: [SELECT_A_LIST_MESSAGE] });
    }
    assert.equal((await bulk({ action: 'add_to_list', listId: '', selection: { ids } })).status, 400);
    const missing = await bulk({
      action: 'add_to_list',
      listId: '00000000-0000-4000-8000-000000000000',
      selection: { ids },
    });
    assert.equal(missing.status, 404);
  });

  it('adds picked rows to a list, once', async () => {
    const r = await bulk({ action: 'add_to_list', listId: list._id, selection: { ids: ids.slice(0, 3) } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { message: '3 contacts added to the list.', affected: 3 });
    const again = await bulk({ action: 'add_to_list', listId: list._id, selection: { ids: ids.slice(0, 4) } });
    assert.equal(again.body.affected, 1);
    const l = await gw.get<List>(`/v1/lists/${list._id}`, basic);
    assert.equal(l.body.member_count, 4);
  });

  it('adds and removes every contact that matches a filter', async () => {
    const add = await bulk({
      action: 'add_to_list',
      listId: list._id,
      selection: { filter: { searchString: 'bulk' } },
    });
    assert.equal(add.body.affected, 2);
    const members = await gw.get<ContactPage>(`/v1/contacts?${qs({ listId: list._id })}`, basic);
    assert.equal(members.body.pagination.count, 6);
    const remove = await bulk({
      action: 'remove_from_list',
      listId: list._id,
      selection: { filter: { searchString: 'bulk', status: 'bounced' } },
    });
    assert.deepEqual(remove.body, { message: '2 contacts removed from the list.', affected: 2 });
    const l = await gw.get<List>(`/v1/lists/${list._id}`, basic);
    assert.equal(l.body.member_count, 4);
  });

  it('unsubscribes subscribed contacts only (bounced stay bounced)', async () => {
    const r = await bulk({ action: 'unsubscribe', selection: { filter: { searchString: 'bulk' } } });
    assert.deepEqual(r.body, { message: '4 contacts unsubscribed.', affected: 4 });
    const statuses = (
      await gw.get<ContactPage>(`/v1/contacts?${qs({ searchString: 'bulk', perPage: 50 })}`, basic)
    ).body.records
      .map((c) => c.status)
      .sort();
    assert.deepEqual(statuses, ['bounced', 'bounced', 'unsubscribed', 'unsubscribed', 'unsubscribed', 'unsubscribed']);
    const counts = await gw.get<ContactPage>(`/v1/contacts?${qs({ status: 'unsubscribed', perPage: 1 })}`, basic);
    assert.ok(counts.body.pagination.count >= 4);
  });

  it('deletes picked rows and rows that match a filter; malformed ids match nothing', async () => {
    // ids[2] is a member of the list.
    const picked = await bulk({ action: 'delete', selection: { ids: [ids[2], 'junk', ids[2]] } });
    assert.deepEqual(picked.body, { message: '1 contact deleted.', affected: 1 });
    const byFilter = await bulk({
      action: 'delete',
      selection: { filter: { searchString: 'bulk', status: 'bounced' } },
    });
    assert.equal(byFilter.body.affected, 2);
    const left = await gw.get<ContactPage>(`/v1/contacts?${qs({ searchString: 'bulk' })}`, basic);
    assert.equal(left.body.pagination.count, 3);
    const l = await gw.get<List>(`/v1/lists/${list._id}`, basic);
    assert.equal(l.body.member_count, 3, 'memberships of deleted contacts are gone');
    const nothing = await bulk({ action: 'delete', selection: { ids: ['junk'] } });
    assert.equal(nothing.body.affected, 0);
  });

  it('validates the body', async () => {
    assert.equal((await bulk({ action: 'explode', selection: { ids } })).status, 400);
    assert.equal((await bulk({ action: 'delete', selection: { ids: [] } })).status, 400);
    assert.equal((await bulk({ action: 'delete', selection: { filter: { status: 'x' } } })).status, 400);
    assert.equal((await bulk({ action: 'delete' })).status, 400);
  });
});

describe('GET /v1/contacts/export', () => {
  it('streams the filtered contacts as CSV with escaped cells, list names and attribute columns', async () => {
    const vip = await createList(basic, '=Export VIPs');
    const other = await createList(basic, 'Export B');
    const c = await call<Contact>(gw, 'POST', '/v1/contacts', basic, {
      email: 'export1@example.com',
      first_name: '=HYPERLINK("http://evil.example","x")',
      last_name: '+1',
      lists: [other._id, vip._id],
      attributes: { tier: '@gold', score: -3, vip: true },
    });
    assert.equal(c.status, 201, c.text);
    await call(gw, 'POST', '/v1/contacts', basic, { email: 'export2@example.com', last_name: 'Plain, Jr.' });

    const r = await gw.get(`/v1/contacts/export?${qs({ searchString: 'export' })}`, basic);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.match(
      r.headers.get('content-disposition') ?? '',
      /^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    // The file starts with a UTF-8 BOM (fetch's text() drops it, so read the bytes).
    const raw = await fetch(`${gw.url}/v1/contacts/export?searchString=export`, {
      headers: { authorization: `Bearer ${basic}` },
    });
    assert.deepEqual([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)], [0xef, 0xbb, 0xbf]);
    const rows = parseCsv(r.text);
    assert.deepEqual(rows[0], [
      'email',
      'wallet',
      'first_name',
      'last_name',
      'status',
      'source',
      'created_at',
      'updated_at',
      'lists',
      'tier',
      'score',
      'vip',
      'joined',
      'payout',
    ]);
    assert.equal(rows.length, 3);
    const [first, second] = [rows[1], rows[2]];
    assert.equal(first?.[0], 'export1@example.com');
    assert.equal(first?.[2], `'=HYPERLINK("http://evil.example","x")`);
    assert.equal(first?.[3], '+1', 'a plain number runs nothing: left as it is');
    assert.equal(first?.[8], "'=Export VIPs; Export B");
    assert.deepEqual(first?.slice(9), ["'@gold", '-3', 'true', '', '']);
    assert.equal(second?.[3], 'Plain, Jr.');
    // Every cell that starts with a formula character is defused, unless it is a plain number.
    for (const cell of rows.flat()) {
      assert.ok(!/^[=+\-@\t\r]/.test(cell) || /^[+-]?\d+(\.\d+)?$/.test(cell), JSON.stringify(cell));
    }
  });

  it('exports every contact of the tenant when unfiltered, and 404s for a list that is not the tenant\u2019s', async () => {
    const r = await gw.get('/v1/contacts/export', lab);
    const rows = parseCsv(r.text);
    const count = await gw.get<ContactPage>('/v1/contacts?perPage=1', lab);
    assert.equal(rows.length - 1, count.body.pagination.count);
    const foreign = await gw.get(`/v1/contacts/export?${qs({ listId: '00000000-0000-4000-8000-000000000000' })}`, lab);
    assert.equal(foreign.status, 404);
    assert.equal((await gw.get('/v1/contacts/export?status=asleep', lab)).status, 400);
  });
});

describe('trigger-kept counters agree with count(*)', () => {
  it('for the tenant and per status after all of the above', async () => {
    for (const [token, name] of [
      [basic, 'Basic Guild'],
      [lab, 'Lab Rats'],
    ] as const) {
      const id = await tenantId(gw, name);
      const [real] = await gw.handle.db
        .select({ n: sql<number>`count(*)::int` })
        .from(contacts)
        .where(eq(contacts.tenantId, id));
      const body = (await gw.get<ContactPage>('/v1/contacts?perPage=1', token)).body;
      assert.equal(body.pagination.count, real?.n);
      for (const status of ['subscribed', 'unsubscribed', 'bounced', 'complained'] as const) {
        const [n] = await gw.handle.db
          .select({ n: sql<number>`count(*)::int` })
          .from(contacts)
          .where(and(eq(contacts.tenantId, id), eq(contacts.status, status)));
        const viaApi = (await gw.get<ContactPage>(`/v1/contacts?status=${status}&perPage=1`, token)).body;
        assert.equal(viaApi.pagination.count, n?.n, `${name} ${status}`);
      }
    }
  });
});
