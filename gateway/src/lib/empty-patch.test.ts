// An empty PATCH body (`{}`) is never a 500: every PATCH route answers a 2xx or a 4xx, for one of the
// caller's own resources and for an unknown id; an empty PATCH of a widget returns it unchanged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Community, List, WidgetDetail } from '../contracts';
import { call } from '../../test/audience-helpers';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';

let gw: TestGateway;
let owner: string;
let admin: string;
before(async () => {
  gw = await startGateway();
  owner = await gw.login('acmeOwner');
  admin = await gw.login('admin');
});
after(() => gw.close());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('PATCH with {}', () => {
  it('an existing widget comes back unchanged; an unknown one is 404', async () => {
    const list = await call<List>(gw, 'POST', '/v1/lists', owner, { name: 'Empty patch target' });
    const created = await call<WidgetDetail>(gw, 'POST', '/v1/widgets', owner, {
      type: 'Subscription Widget',
      target_id: list.body._id,
      url: 'https://acme.example.com',
    });
    assert.equal(created.status, 201, created.text);
    const same = await call<WidgetDetail>(gw, 'PATCH', `/v1/widgets/${created.body._id}`, owner, {});
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(same.body, created.body);
    const unknown = await call<ErrorBody>(gw, 'PATCH', `/v1/widgets/${UNKNOWN}`, owner, {});
    assert.equal(unknown.status, 404, unknown.text);
  });

  it('no PATCH route answers 5xx, for an existing or an unknown id', async () => {
    const list = await call<List>(gw, 'POST', '/v1/lists', owner, { name: 'Empty patch list' });
    const community = await gw.get<Community>('/v1/communities/my-community', owner);
    const spec = await gw.get<{ paths: Record<string, Record<string, unknown>> }>('/docs/json');
    const patches = Object.entries(spec.body.paths).filter(([, ops]) => 'patch' in ops);
    assert.ok(patches.length >= 7, `PATCH routes found: ${patches.map(([p]) => p).join(', ')}`);
    const existing: Record<string, string> = {
      '/v1/lists/{id}': list.body._id,
      '/v1/communities/{id}': community.body._id,
    };
    for (const [path] of patches) {
      for (const id of [existing[path] ?? UNKNOWN, UNKNOWN]) {
        const url = path.replace(/\{[^}]+\}/g, id);
        const token = path.startsWith('/v1/plans') ? admin : owner;
        const r = await call<ErrorBody>(gw, 'PATCH', url, token, {});
        assert.ok(r.status < 500, `${url}: ${r.status} ${r.text}`);
      }
    }
  });
});
