// Requests without a body that still say `Content-Type: application/json` (curl scripts, Postman,
// many SDKs): GET and DELETE are served; a malformed non-empty body or an empty body where one is
// needed is still a 400.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { List, WidgetDetail } from '../contracts';
import { call } from '../../test/audience-helpers';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
let owner: string;
before(async () => {
  gw = await startGateway();
  owner = await gw.login('acmeOwner');
});
after(() => gw.close());

const json = (method: string, rawBody = '') => ({ method, rawBody, contentType: 'application/json', token: owner });

describe('bodiless requests with a JSON content type', () => {
  it('DELETE /v1/lists/{id} with an empty JSON body deletes the list', async () => {
    const list = await call<List>(gw, 'POST', '/v1/lists', owner, { name: 'Throwaway' });
    assert.equal(list.status, 201, list.text);
    const r = await gw.request(`/v1/lists/${list.body._id}`, json('DELETE'));
    assert.ok(r.status === 200 || r.status === 204, `${r.status} ${r.text}`);
    assert.equal((await gw.get(`/v1/lists/${list.body._id}`, owner)).status, 404);
  });

  it('DELETE /v1/widgets/{id} with an empty JSON body deletes the widget', async () => {
    const target = await call<List>(gw, 'POST', '/v1/lists', owner, { name: 'Widget target' });
    const widget = await call<WidgetDetail>(gw, 'POST', '/v1/widgets', owner, {
      type: 'Subscription Widget',
      target_id: target.body._id,
      url: 'https://acme.example.com',
    });
    assert.equal(widget.status, 201, widget.text);
    const r = await gw.request(`/v1/widgets/${widget.body._id}`, json('DELETE'));
    assert.ok(r.status === 200 || r.status === 204, `${r.status} ${r.text}`);
    assert.equal((await gw.get(`/v1/widgets/${widget.body._id}`, owner)).status, 404);
  });

  it('GET with an empty JSON body answers as without the header', async () => {
    for (const path of ['/v1/contacts?perPage=5', '/v1/lists', '/v1/communities/my-community']) {
      // fetch sends no body on GET: the header alone, as a client that sets it on every call.
      const r = await gw.request(path, { contentType: 'application/json', token: owner });
      assert.equal(r.status, 200, `${path}: ${r.text}`);
    }
  });

  it('a malformed non-empty body on DELETE is still a 400', async () => {
    const list = await call<List>(gw, 'POST', '/v1/lists', owner, { name: 'Kept' });
    const r = await gw.request<ErrorBody>(`/v1/lists/${list.body._id}`, json('DELETE', '{"oops":'));
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.message, /JSON/);
    assert.equal((await gw.get(`/v1/lists/${list.body._id}`, owner)).status, 200, 'nothing deleted');
  });

  it('an empty body where one is needed (POST, PATCH) is still a 400', async () => {
    for (const [method, path] of [
      ['POST', '/v1/lists'],
      ['PATCH', '/v1/communities/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const r = await gw.request<ErrorBody>(path, json(method));
      assert.equal(r.status, 400, `${method} ${path}: ${r.text}`);
    }
  });
});
