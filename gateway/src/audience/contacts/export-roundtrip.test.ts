// An export can be imported back unchanged: numbers (negative ones included) are written as numbers,
// only text a spreadsheet would run is defused. Export from one tenant, import into another, compare.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Contact, ContactPage, CustomAttribute, ImportJob } from '../../contracts';
import { call, parseCsv, qs } from '../../../test/audience-helpers';
import { startGateway, type TestGateway } from '../../../test/helpers';

let gw: TestGateway;
let from: string;
let to: string;
before(async () => {
  gw = await startGateway();
  from = await gw.login('acmeOwner');
  to = await gw.login('labOwner');
});
after(() => gw.close());

async function attribute(token: string, key: string, type: CustomAttribute['type']) {
  const r = await call<CustomAttribute>(gw, 'POST', '/v1/custom-attributes', token, { name: key, key, type });
  assert.equal(r.status, 201, r.text);
}

describe('export → import', () => {
  it('keeps negative numbers and defused text as they were', async () => {
    for (const token of [from, to]) {
      await attribute(token, 'balance', 'number');
      await attribute(token, 'motto', 'text');
    }
    const made = await call<Contact>(gw, 'POST', '/v1/contacts', from, {
      email: 'roundtrip@example.com',
      first_name: '-Dash',
      last_name: '+1',
      attributes: { balance: -5.25, motto: '=not a formula' },
    });
    assert.equal(made.status, 201, made.text);

    const res = await fetch(`${gw.url}/v1/contacts/export?${qs({ searchString: 'roundtrip@' })}`, {
      headers: { authorization: `Bearer ${from}` },
    });
    assert.equal(res.status, 200);
    const csv = await res.text();
    const [header, row] = parseCsv(csv.replace(/^\uFEFF/, ''));
    assert.ok(header && row);
    assert.equal(row[header.indexOf('balance')], '-5.25', 'a negative number stays a number');
    assert.equal(row[header.indexOf('motto')], "'=not a formula", 'a formula is defused');

    const mapping = header.map((column) =>
      ['email', 'first_name', 'last_name'].includes(column)
        ? column
        : ['balance', 'motto'].includes(column)
          ? `attr:${column}`
          : null,
    );
    const up = await fetch(`${gw.url}/v1/imports?fileName=export.csv`, {
      method: 'POST',
      headers: { authorization: `Bearer ${to}`, 'content-type': 'text/csv' },
      body: csv,
    });
    assert.equal(up.status, 201, await up.clone().text());
    const job = (await up.json()) as ImportJob;
    const started = await gw.post<ImportJob>(`/v1/imports/${job._id}/start`, { mapping, mode: 'update' }, to);
    assert.equal(started.status, 200, started.text);
    for (let i = 0; ; i++) {
      const r = await gw.get<ImportJob>(`/v1/imports/${job._id}`, to);
      if (r.body.status === 'completed') break;
      assert.ok(!['failed', 'cancelled'].includes(r.body.status) && i < 400, r.text);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const back = await gw.get<ContactPage>(`/v1/contacts?${qs({ searchString: 'roundtrip@' })}`, to);
    const contact = back.body.records[0];
    assert.ok(contact, back.text);
    assert.equal(contact.attributes.balance, -5.25);
    assert.equal(contact.first_name, "'-Dash", 'defused text comes back with its quote');
    assert.equal(contact.last_name, '+1');
  });
});
