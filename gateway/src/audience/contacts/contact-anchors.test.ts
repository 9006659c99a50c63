// Page anchors (contact-anchors.ts): with an anchor every few rows, every page of every sort, both
// orders, equals the plain OFFSET query; inserts, deletes and sort-key changes invalidate them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { CONTACT_SORT_FIELDS, type Contact, type ContactSortField, type SortOrder } from '../../contracts';
import { anchoredPage, anchorsKept, type AnchorFilter, type AnchorOptions } from './contact-anchors';
import { contactOrder, contactPage, countContacts, resolveContactFilter } from './contact-query';
import { queryRows, textOf } from '../../lib/raw-sql';
import { contacts } from '../../db/schema';
import { startGateway, type TestGateway } from '../../../test/helpers';
import { call, tenantId } from '../../../test/audience-helpers';

const N = 241;
/** An anchor every 7 rows, used from the first page on. */
const SMALL: AnchorOptions = { every: 7, from: 0 };
const ORDERS: readonly SortOrder[] = ['asc', 'desc'];

let gw: TestGateway;
let lab: string;
let labId: string;

before(async () => {
  gw = await startGateway();
  lab = await gw.login('labOwner');
  labId = await tenantId(gw, 'Lab Rats');
  // Ties everywhere: created_at in threes, updated_at in tens, eight last names in mixed case; every
  // 6th contact without an e-mail, every 4th (from 1) without a wallet, never both; three statuses.
  // Times in the past.
  await gw.handle.db.execute(sql`
    insert into contacts (tenant_id, email, wallet, first_name, last_name, status, created_at, updated_at)
    select ${labId}::uuid,
      case when g % 6 = 0 then null else 'p' || lpad(((g * 37) % 1000)::text, 3, '0') || '.' || g || '@Example.com' end,
      case when g % 4 = 1 and g % 6 <> 0 then null else '0x' || lpad(to_hex(g * 7919), 40, '0') end,
      'Ada',
      (array['smith', 'Smith', 'Ålund', '', 'O’Brien', 'abbott', 'Zed', 'mc_coy'])[1 + g % 8],
      (array['subscribed', 'unsubscribed', 'subscribed', 'bounced', 'subscribed'])[1 + g % 5],
      timestamptz '2025-01-01 00:00:00.123456+00' + (g / 3) * interval '1 minute',
      timestamptz '2025-02-01 00:00:00+00' + (g % 10) * interval '1 second'
    from generate_series(1, ${N}) g`);
});
after(() => gw.close());

/** A filter as the grid's query takes it. */
function filterInput(filter: AnchorFilter) {
  if (filter === null) return {};
  return 'status' in filter ? { status: filter.status } : { listId: filter.listId };
}

/** Every id of the tenant (of a filter) in the grid's order: the plain ORDER BY, no anchors, no index walk. */
async function plainOrder(
  sortField: ContactSortField,
  sortOrder: SortOrder,
  filter: AnchorFilter = null,
): Promise<string[]> {
  const scope = await resolveContactFilter(gw.handle.db, labId, filterInput(filter));
  const rows = await gw.handle.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(scope.where)
    .orderBy(...contactOrder(sortField, sortOrder));
  return rows.map((r) => r.id);
}

async function total(filter: AnchorFilter = null): Promise<number> {
  return countContacts(gw.handle.db, await resolveContactFilter(gw.handle.db, labId, filterInput(filter)));
}

/** Every page through the anchors equals the plain order; returns how many pages were checked. */
async function checkEveryPage(
  perPages: readonly number[],
  fields: readonly ContactSortField[] = CONTACT_SORT_FIELDS,
  options: AnchorOptions = SMALL,
  filter: AnchorFilter = null,
) {
  const n = await total(filter);
  const label = JSON.stringify(filter);
  let pages = 0;
  for (const sortField of fields) {
    for (const sortOrder of ORDERS) {
      const expected = await plainOrder(sortField, sortOrder, filter);
      assert.equal(expected.length, n);
      for (const perPage of perPages) {
        for (let offset = 0; offset < n; offset += perPage) {
          const rows = await anchoredPage(gw.handle.db, labId, sortField, sortOrder, offset, perPage, n, options, filter); // prettier-ignore
          assert.ok(rows, `${sortField} ${sortOrder} ${label}: anchors were used`);
          assert.deepEqual(
            rows.map((r) => r.id),
            expected.slice(offset, offset + perPage),
            `${sortField} ${sortOrder} ${label}, ${perPage} per page, offset ${offset}`,
          );
          pages++;
        }
      }
    }
  }
  return pages;
}

describe('page anchors', () => {
  it('every page of every sort, both orders, equals the plain OFFSET query', async () => {
    // 10 and 25 per page cross anchors and the e-mail / wallet boundary (contacts without one) anywhere.
    const pages = await checkEveryPage([3, 10, 25]);
    assert.ok(pages > 5 * 2 * (N / 3));
  });

  it('contactPage reads deep pages through the anchors and agrees with OFFSET', async () => {
    const db = gw.handle.db;
    const scope = await resolveContactFilter(db, labId, {});
    for (const sortField of CONTACT_SORT_FIELDS) {
      for (const sortOrder of ORDERS) {
        const expected = await plainOrder(sortField, sortOrder);
        const ids: string[] = [];
        for (let page = 1; (page - 1) * 20 < N; page++) {
          // sortUpTo 0: the index-walk paths (no sort of all matches); anchors from offset 40 on.
          const { rows, count } = await contactPage(db, scope, { page, perPage: 20, sortField, sortOrder }, 0, {
            every: 11,
            from: 40,
          });
          assert.equal(count, N);
          ids.push(...rows.map((r) => r.id));
        }
        assert.deepEqual(ids, expected, `${sortField} ${sortOrder}`);
      }
    }
  });

  it('stays exact after an insert, a delete, an e-mail change and an insert + delete that keeps the count', async () => {
    const db = gw.handle.db;
    await checkEveryPage([10], ['email', 'created_at']); // anchors built and kept

    const created = await call<Contact>(gw, 'POST', '/v1/contacts', lab, { email: 'mmm.new@example.com' });
    assert.equal(created.status, 201, created.text);
    await checkEveryPage([10]);

    const [victim] = await db
      .select({ id: contacts.id })
      .from(contacts)
      .where(eq(contacts.tenantId, labId))
      .orderBy(...contactOrder('email', 'asc'))
      .limit(1);
    assert.ok(victim);
    const removed = await call(gw, 'DELETE', `/v1/contacts/${victim.id}`, lab);
    assert.equal(removed.status, 200, removed.text);
    await checkEveryPage([10]);

    // The first contact by e-mail becomes the last one: ranks shift, the count does not.
    const [firstByEmail] = await db
      .select({ id: contacts.id })
      .from(contacts)
      .where(eq(contacts.tenantId, labId))
      .orderBy(...contactOrder('email', 'asc'))
      .limit(1);
    assert.ok(firstByEmail);
    const changed = await call<Contact>(gw, 'PATCH', `/v1/contacts/${firstByEmail.id}`, lab, {
      email: 'zzz.moved@example.com',
    });
    assert.equal(changed.status, 200, changed.text);
    await checkEveryPage([10]);

    // A contact inserted with an old updated_at and another (not the last updated) deleted, in one
    // statement: the count and max(updated_at) are unchanged; the counters' row versions are not.
    const before = await total();
    await db.execute(sql`
      with gone as (
        delete from contacts where id = (
          select id from contacts where tenant_id = ${labId}::uuid and email is not null
            and updated_at < timestamptz '2025-03-01 00:00:00+00'
          order by lower(email) collate "C" desc, id desc limit 1)
      )
      insert into contacts (tenant_id, email, first_name, last_name, created_at, updated_at)
      values (${labId}::uuid, 'aaa.early@example.com', 'Early', 'Aaa', timestamptz '2024-06-01 00:00:00+00', timestamptz '2024-06-01 00:00:00+00')`);
    assert.equal(await total(), before);
    await checkEveryPage([10]);
  });

  it('the grid of one status: every page of every sort equals the plain OFFSET query, also after a status change', async () => {
    const db = gw.handle.db;
    for (const status of ['subscribed', 'unsubscribed', 'bounced'] as const) {
      assert.ok((await total({ status })) > 20, status);
      assert.ok((await checkEveryPage([4, 10], CONTACT_SORT_FIELDS, SMALL, { status })) > 0);
    }
    // Unsubscribing the first subscribed contact by e-mail shifts both statuses' ranks; no count of
    // the tenant changes.
    const [first] = await db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.tenantId, labId), eq(contacts.status, 'subscribed')))
      .orderBy(...contactOrder('email', 'asc'))
      .limit(1);
    assert.ok(first);
    const tenantBefore = await total();
    const r = await call<Contact>(gw, 'PATCH', `/v1/contacts/${first.id}`, lab, { status: 'unsubscribed' });
    assert.equal(r.status, 200, r.text);
    assert.equal(await total(), tenantBefore);
    await checkEveryPage([10], ['email', 'updated_at'], SMALL, { status: 'subscribed' });
    await checkEveryPage([10], ['email', 'updated_at'], SMALL, { status: 'unsubscribed' });
  });

  it('contactPage reads deep pages of a status through anchors built in the background', async () => {
    const db = gw.handle.db;
    const options: AnchorOptions = { every: 6, from: 20 };
    const scope = await resolveContactFilter(db, labId, { status: 'subscribed' });
    const n = await total({ status: 'subscribed' });
    const expected = await plainOrder('last_name', 'desc', { status: 'subscribed' });
    const ids: string[] = [];
    for (let page = 1; (page - 1) * 15 < n; page++) {
      const { rows, count } = await contactPage(db, scope, { page, perPage: 15, sortField: 'last_name', sortOrder: 'desc' }, 0, options); // prettier-ignore
      assert.equal(count, n);
      ids.push(...rows.map((row) => row.id));
    }
    assert.deepEqual(ids, expected);
    const deadline = Date.now() + 20_000;
    while (!CONTACT_SORT_FIELDS.every((f) => anchorsKept(db, labId, f, options.every, { status: 'subscribed' }))) {
      assert.ok(Date.now() < deadline, 'anchors of the status built in the background within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(!anchorsKept(db, labId, 'email', options.every, { status: 'bounced' }), 'only the status asked for');
  });

  it('the grid of one list: every page equals the plain OFFSET query, also after members join and leave', async () => {
    const list = await call<{ _id: string }>(gw, 'POST', '/v1/lists', lab, { name: 'Anchored list' });
    assert.equal(list.status, 201, list.text);
    const listId = list.body._id;
    const ids = await plainOrder('created_at', 'asc');
    const every3rd = ids.filter((_, i) => i % 3 === 1);
    const added = await call(gw, 'PATCH', `/v1/lists/${listId}/contacts`, lab, { contacts: every3rd });
    assert.equal(added.status, 200, added.text);
    assert.equal(await total({ listId }), every3rd.length);
    assert.ok((await checkEveryPage([5, 10], CONTACT_SORT_FIELDS, SMALL, { listId })) > 0);

    // A member leaves and another joins: the count is the same, the ranks are not.
    const left = await call(gw, 'DELETE', `/v1/lists/${listId}/contacts`, lab, { contacts: [every3rd[0]] });
    assert.equal(left.status, 200, left.text);
    const joined = await call(gw, 'PATCH', `/v1/lists/${listId}/contacts`, lab, { contacts: [ids.at(-1)] });
    assert.equal(joined.status, 200, joined.text);
    assert.equal(await total({ listId }), every3rd.length);
    await checkEveryPage([10], ['email', 'created_at'], SMALL, { listId });

    // A member deleted (its membership goes with it), and a page through contactPage from there on.
    const gone = await call(gw, 'DELETE', `/v1/contacts/${every3rd[5]}`, lab);
    assert.equal(gone.status, 200, gone.text);
    await checkEveryPage([10], ['wallet'], SMALL, { listId });
    const scope = await resolveContactFilter(gw.handle.db, labId, { listId });
    const expected = await plainOrder('email', 'desc', { listId });
    const paged: string[] = [];
    for (let page = 1; (page - 1) * 9 < expected.length; page++) {
      const { rows } = await contactPage(gw.handle.db, scope, { page, perPage: 9, sortField: 'email', sortOrder: 'desc' }, 0, { every: 4, from: 9 }); // prettier-ignore
      paged.push(...rows.map((r) => r.id));
    }
    assert.deepEqual(paged, expected);
  });

  it('a first page starts building the anchors of every sort field in the background', async () => {
    const db = gw.handle.db;
    // An anchor every 5 rows: no set of this size was built by the tests above.
    const options: AnchorOptions = { every: 5, from: 0 };
    assert.ok(CONTACT_SORT_FIELDS.every((f) => !anchorsKept(db, labId, f, options.every)));
    const scope = await resolveContactFilter(db, labId, {});
    const first = await contactPage(db, scope, { page: 1, perPage: 10, sortField: 'email', sortOrder: 'desc' }, 0, options); // prettier-ignore
    assert.equal(first.rows.length, 10);
    // No further request: the anchors of all sort fields appear on their own.
    const deadline = Date.now() + 20_000;
    while (!CONTACT_SORT_FIELDS.every((f) => anchorsKept(db, labId, f, options.every))) {
      assert.ok(Date.now() < deadline, 'anchors built in the background within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok((await checkEveryPage([10, 25], CONTACT_SORT_FIELDS, options)) > 0);
  });

  it('builds no anchors while a transaction that began before the last write is open (PostgreSQL)', async (t) => {
    if (!process.env.TEST_DATABASE_URL) {
      t.skip('needs a second connection to a PostgreSQL server (TEST_DATABASE_URL)');
      return;
    }
    const db = gw.handle.db;
    const [current] = await queryRows(db, sql`select current_database() as name`);
    const name = current ? textOf(current, 'name') : null;
    assert.ok(name);
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    const other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select 1');
      // A write after that transaction began: a writer begun then could still commit an older updated_at.
      const created = await call<Contact>(gw, 'POST', '/v1/contacts', lab, { email: 'open.txn@example.com' });
      assert.equal(created.status, 201, created.text);
      const n = await total();
      assert.equal(await anchoredPage(db, labId, 'last_name', 'asc', 50, 10, n, SMALL), null);
      await other.query('commit');
      assert.ok(await anchoredPage(db, labId, 'last_name', 'asc', 50, 10, n, SMALL));
    } finally {
      await other.end();
    }
  });
});
