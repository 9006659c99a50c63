// The contacts a community may hold on this database (docs/storage.md): with PGLITE_CONTACT_LIMIT=3,
// embedded PGlite refuses the contact that would pass it (409, the spec's {message}) and stops an
// import before the batch that would, saying what lifts the limit; a PostgreSQL server has none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ContactPage, ImportJob } from '../../contracts';
import { storageCapabilities } from '../../db/storage';
import { type ErrorBody, startGateway, type TestGateway } from '../../../test/helpers';

const LIMIT = 3;

let gw: TestGateway;
let token: string;
let limit: number;

before(async () => {
  gw = await startGateway({ PGLITE_CONTACT_LIMIT: String(LIMIT) });
  token = await gw.login('basicOwner');
  limit = storageCapabilities(gw.handle.db).contactsPerTenant;
});
after(() => gw.close());

const create = (email: string) => gw.post<ErrorBody>('/v1/contacts', { email }, token);

async function contactCount(): Promise<number> {
  const r = await gw.get<ContactPage>('/v1/contacts?perPage=10', token);
  assert.equal(r.status, 200, r.text);
  return r.body.pagination.count;
}

/** Uploads a CSV of e-mails, starts it and waits for its end. */
async function importEmails(emails: string[]): Promise<ImportJob> {
  const res = await fetch(`${gw.url}/v1/imports?fileName=limit.csv`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: `email\n${emails.join('\n')}\n`,
  });
  const uploaded = (await res.json()) as ImportJob;
  assert.equal(res.status, 201);
  const started = await gw.post<ImportJob>(`/v1/imports/${uploaded._id}/start`, { mapping: ['email'], mode: 'update' }, token); // prettier-ignore
  assert.equal(started.status, 200, started.text);
  const end = Date.now() + 60_000;
  for (;;) {
    const r = await gw.get<ImportJob>(`/v1/imports/${uploaded._id}`, token);
    if (['completed', 'failed', 'cancelled'].includes(r.body.status)) return r.body;
    assert.ok(Date.now() < end, `import did not finish: ${r.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the contact limit of the database', () => {
  it('is the configured number on a database of this process alone, none on a server', () => {
    if (storageCapabilities(gw.handle.db).ownedByProcess) assert.equal(limit, LIMIT);
    else assert.equal(limit, Infinity);
  });

  it('an import whose new contacts would pass it stops with a message; the rows before are kept', async () => {
    assert.equal(await contactCount(), 0);
    assert.equal((await create('first@limit.test')).status, 201);
    const job = await importEmails(['a@limit.test', 'b@limit.test', 'c@limit.test']);
    if (limit === Infinity) {
      assert.equal(job.status, 'completed');
      assert.equal(await contactCount(), 4);
      return;
    }
    assert.equal(job.status, 'failed');
    assert.match(job.error ?? '', /holds up to 3 contacts per community/);
    assert.match(job.error ?? '', /PostgreSQL server \(DATABASE_URL\)/);
    assert.equal(await contactCount(), 1);
  });

  it('creating the contact that would pass it is refused with 409, and updates still go in', async () => {
    if (limit === Infinity) {
      assert.equal((await create('more@limit.test')).status, 201);
      return;
    }
    assert.equal((await create('second@limit.test')).status, 201);
    assert.equal((await create('third@limit.test')).status, 201);
    const refused = await create('fourth@limit.test');
    assert.equal(refused.status, 409, refused.text);
    assert.match(refused.body.message, /^The embedded database holds up to 3 contacts per community\./);
    assert.match(refused.body.message, /DATABASE_URL/);
    assert.equal(refused.body.errors, undefined);
    assert.equal(await contactCount(), 3);
    // An import of contacts it already has creates nothing: it runs to its end.
    const job = await importEmails(['first@limit.test', 'second@limit.test']);
    assert.equal(job.status, 'completed', job.error ?? '');
  });
});
