// The session check and the caller's community are serialized with plain JSON.stringify
// (lib/plain-json.ts): every answer must be exactly what its response schema would have sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { ApiErrorBody, Community, VerifyResponse } from '../contracts';
import { users } from '../db/schema';
import { startGateway, type TestGateway, type Who } from '../../test/helpers';

let gw: TestGateway;
before(async () => {
  gw = await startGateway();
});
after(() => gw.close());

const verify = (token: string) => gw.post('/v1/auth/verify', { token });

describe('answers equal their response schema', () => {
  it('POST /v1/auth/verify, for every kind of user and an impersonation token', async () => {
    const tokens: string[] = [];
    for (const who of ['admin', 'global', 'acmeOwner', 'acmeStaff', 'basicOwner'] as Who[])
      tokens.push(await gw.login(who));
    const [staff] = await gw.handle.db.select({ id: users.id }).from(users).where(eq(users.email, 'staff@acme.test'));
    assert.ok(staff);
    const imp = await gw.post<{ token: string }>('/v1/auth/impersonate', { user_id: staff.id }, tokens[0]);
    assert.equal(imp.status, 200, imp.text);
    tokens.push(imp.body.token);
    for (const token of tokens) {
      const r = await verify(token);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.deepEqual(r.body, VerifyResponse.parse(r.body));
      assert.equal(r.text, JSON.stringify(VerifyResponse.parse(r.body)), 'same keys, same order');
    }
    const refused = await verify('not-a-token');
    assert.equal(refused.status, 401);
    assert.equal(refused.text, JSON.stringify(ApiErrorBody.parse(refused.body)));
  });

  it('GET /v1/communities/my-community', async () => {
    const token = await gw.login('acmeOwner');
    const r = await gw.get('/v1/communities/my-community', token);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(r.text, JSON.stringify(Community.parse(r.body)));
    const refused = await gw.get('/v1/communities/my-community', 'not-a-token');
    assert.equal(refused.status, 401);
    assert.equal(refused.text, JSON.stringify(ApiErrorBody.parse(refused.body)));
  });
});
