import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SessionUser } from '../contracts';
import { users } from '../db/schema';
import { type ErrorBody, startGateway, type TestGateway, type Who } from '../../test/helpers';

let gw: TestGateway;
const ids: Partial<Record<Who, string>> = {};
const tokens: Partial<Record<Who, string>> = {};

before(async () => {
  gw = await startGateway();
  for (const who of ['admin', 'global', 'acmeOwner', 'acmeStaff', 'basicOwner', 'labOwner'] as const) {
    const token = await gw.login(who);
    tokens[who] = token;
    const r = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token });
    ids[who] = r.body.user._id;
  }
});
after(() => gw.close());

const idOf = (who: Who) => ids[who] ?? assert.fail(`no id for ${who}`);
const tokenOf = (who: Who) => tokens[who] ?? assert.fail(`no token for ${who}`);
const impersonate = (token: string, userId: string) =>
  gw.post<{ token: string } & ErrorBody>('/v1/auth/impersonate', { user_id: userId }, token);

describe('POST /v1/auth/impersonate', () => {
  it('super admin impersonates a tenant user; the token acts as that user and names the impersonator', async () => {
    const r = await impersonate(tokenOf('admin'), idOf('acmeStaff'));
    assert.equal(r.status, 200, r.text);
    const v = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token: r.body.token });
    assert.equal(v.body.user.email, 'staff@acme.test');
    assert.equal(v.body.user.tenant_name, 'Acme DAO');
    assert.deepEqual(v.body.user.impersonator, { _id: idOf('admin'), email: 'admin@console.test' });
    assert.deepEqual([...v.body.user.permissions].sort(), ['manage_contacts', 'view_engagement_emails']);
    // Acting as staff: no admin rights.
    assert.equal((await gw.get('/v1/tenants', r.body.token)).status, 403);
  });

  it('tenant admin impersonates a user of their own tenant', async () => {
    const r = await impersonate(tokenOf('acmeOwner'), idOf('acmeStaff'));
    assert.equal(r.status, 200, r.text);
    const v = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token: r.body.token });
    assert.equal(v.body.user.impersonator?.email, 'owner@acme.test');
  });

  it("another tenant's user, a super admin and an unknown id are the same 404", async () => {
    const unknown = await impersonate(tokenOf('acmeOwner'), '00000000-0000-4000-8000-000000000000');
    assert.equal(unknown.status, 404);
    for (const [caller, target] of [
      ['acmeOwner', 'basicOwner'],
      ['acmeOwner', 'admin'],
      ['basicOwner', 'admin'],
    ] as const) {
      const r = await impersonate(tokenOf(caller), idOf(target));
      assert.equal(r.status, 404, `${caller} -> ${target}`);
      assert.equal(r.text, unknown.text, `${caller} -> ${target}: the same body`);
    }
    // A super admin impersonating another super admin: the same 404 as an unknown id.
    const [other] = await gw.handle.db
      .insert(users)
      .values({ email: 'second-admin@console.test', passwordHash: 'x', role: 'super_admin', permissions: [] })
      .returning({ id: users.id });
    assert.ok(other);
    const admins = await impersonate(tokenOf('admin'), other.id);
    const nobody = await impersonate(tokenOf('admin'), '00000000-0000-4000-8000-000000000000');
    assert.equal(admins.status, 404);
    assert.equal(admins.text, nobody.text);
  });

  it('staff and global admins may not impersonate (403)', async () => {
    assert.equal((await impersonate(tokenOf('acmeStaff'), idOf('acmeOwner'))).status, 403);
    assert.equal((await impersonate(tokenOf('global'), idOf('acmeOwner'))).status, 403);
  });

  it('an impersonation token cannot start another impersonation (403)', async () => {
    const asOwner = (await impersonate(tokenOf('admin'), idOf('acmeOwner'))).body.token;
    const r = await impersonate(asOwner, idOf('acmeStaff'));
    assert.equal(r.status, 403);
    assert.match(r.body.message, /Stop impersonating/);
  });

  it('unknown user 404, yourself 400 with a field error, bad id 400, no token 401', async () => {
    const unknown = await impersonate(tokenOf('admin'), '00000000-0000-4000-8000-000000000000');
    assert.equal(unknown.status, 404);
    const self = await impersonate(tokenOf('admin'), idOf('admin'));
    assert.equal(self.status, 400);
    assert.ok(self.body.errors?.user_id?.length);
    const bad = await impersonate(tokenOf('admin'), 'not-a-uuid');
    assert.equal(bad.status, 400);
    assert.ok(bad.body.errors?.user_id?.length);
    assert.equal((await gw.post('/v1/auth/impersonate', { user_id: idOf('acmeStaff') })).status, 401);
  });
});
