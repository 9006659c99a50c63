import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InvitationLookup, MemberCommunityList, SessionUser, TeamPage } from '../contracts';
import { call } from '../../test/audience-helpers';
import { type ErrorBody, linkIn, startGateway, type TestGateway } from '../../test/helpers';
import { HAS_ACCOUNT, NO_ACCOUNT, WRONG_PASSWORD } from '../team/invitations';
import { NOT_YOUR_COMMUNITY, SWITCH_NOT_WHILE_IMPERSONATING } from './communities';

let gw: TestGateway;
before(async () => {
  gw = await startGateway({ CONSOLE_URL: 'http://console.example:3000' });
});
after(() => gw.close());

const LINK = 'http://console.example:3000/invitation/';
const CONFIRM = 'http://console.example:3000/confirm-email?';
const RESET = 'http://console.example:3000/reset/';
const ACME = { email: 'owner@acme.test', password: 'owner-pass-2026' };

async function me(token: string): Promise<SessionUser | null> {
  const r = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token });
  return r.status === 200 ? r.body.user : null;
}

async function signIn(email: string, password: string): Promise<string> {
  const r = await gw.post<{ token: string }>('/v1/auth/login', { email, password });
  assert.equal(r.status, 200, r.text);
  return r.body.token;
}

/** Lab Rats' owner invites `email` as a member; the link's token from the e-mail. */
async function inviteToLab(email: string): Promise<string> {
  const invited = await gw.post('/v1/invitations', { email, preset: 'member' }, await gw.login('labOwner'));
  assert.equal(invited.status, 201, invited.text);
  const mail = await gw.waitForMail(email, /^Join Lab Rats/);
  return decodeURIComponent(linkIn(mail, LINK).slice(LINK.length));
}

describe('a person in several communities', () => {
  it('joins with the password of their account elsewhere, switches, and keeps one password and address', async () => {
    const acmeToken = await signIn(ACME.email, ACME.password);
    const acme = await me(acmeToken);
    assert.ok(acme?.tenant_id);
    const token = await inviteToLab(ACME.email);

    const lookup = await gw.post<InvitationLookup>('/v1/invitations/lookup', { token });
    assert.equal(lookup.body.has_account, true);
    // A new password for an address with an account is refused: that would be a second password.
    const accept = await gw.post<ErrorBody>('/v1/invitations/accept', {
      token,
      first_name: 'Other',
      password: 'another-pass-2026',
    });
    assert.equal(accept.status, 400);
    assert.deepEqual(accept.body.errors?.password, [HAS_ACCOUNT]);
    const wrong = await gw.post<ErrorBody>('/v1/invitations/join', { token, password: 'not-the-password' });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body.errors?.password, [WRONG_PASSWORD]);

    const joined = await gw.post<{ token: string }>('/v1/invitations/join', { token, password: ACME.password });
    assert.equal(joined.status, 200, joined.text);
    const lab = await me(joined.body.token);
    assert.equal(lab?.tenant_name, 'Lab Rats');
    assert.equal(lab?.role, 'staff');
    assert.equal(lab?.email, ACME.email);
    assert.deepEqual([lab?.first_name, lab?.last_name], [acme.first_name, acme.last_name]);
    assert.deepEqual(lab?.permissions, ['manage_contacts', 'view_engagement_emails', 'templates']);
    assert.equal((await gw.post('/v1/invitations/join', { token, password: ACME.password })).status, 400);

    // Signing in opens the community signed into last; the switcher lists both, by name.
    const signedIn = await me(await signIn(ACME.email, ACME.password));
    assert.equal(signedIn?.tenant_name, 'Lab Rats');
    const listed = await gw.get<MemberCommunityList>('/v1/auth/communities', joined.body.token);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.records.map((c) => [c.tenant_name, c.role, c.current]),
      [
        [acme.tenant_name, 'tenant_admin', false],
        ['Lab Rats', 'staff', true],
      ],
    );

    // Switching answers a token of the other account; the token it replaces stops working.
    const switched = await gw.post<{ token: string }>(
      '/v1/auth/switch',
      { tenant_id: acme.tenant_id },
      joined.body.token,
    );
    assert.equal(switched.status, 200, switched.text);
    assert.equal((await me(switched.body.token))?.tenant_id, acme.tenant_id);
    assert.equal((await me(switched.body.token))?.role, 'tenant_admin');
    assert.equal(await me(joined.body.token), null);
    const basic = await me(await gw.login('basicOwner'));
    const foreign = await gw.post<ErrorBody>('/v1/auth/switch', { tenant_id: basic?.tenant_id }, switched.body.token);
    assert.equal(foreign.status, 400);
    assert.deepEqual(foreign.body.errors?.tenant_id, [NOT_YOUR_COMMUNITY]);

    // Impersonated, the account sees only its own community and cannot switch.
    const labOwner = await gw.login('labOwner');
    const imp = await gw.post<{ token: string }>('/v1/auth/impersonate', { user_id: lab?._id }, labOwner);
    assert.equal(imp.status, 200, imp.text);
    const seen = await gw.get<MemberCommunityList>('/v1/auth/communities', imp.body.token);
    assert.deepEqual(
      seen.body.records.map((c) => c.tenant_name),
      ['Lab Rats'],
    );
    const refused = await gw.post<ErrorBody>('/v1/auth/switch', { tenant_id: acme.tenant_id }, imp.body.token);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.message, SWITCH_NOT_WHILE_IMPERSONATING);

    // One password: changed in one community, it changes in both and ends the other's sessions.
    const changed = await gw.post<{ token: string }>(
      '/v1/auth/change-password',
      { current_password: ACME.password, new_password: 'shared-pass-2027' },
      switched.body.token,
    );
    assert.equal(changed.status, 200, changed.text);
    assert.equal((await me(changed.body.token))?.tenant_id, acme.tenant_id);
    assert.equal(await me(acmeToken), null);
    assert.equal((await gw.post('/v1/auth/login', ACME)).status, 401);
    const labAgain = await gw.post<{ token: string }>(
      '/v1/auth/switch',
      { tenant_id: lab?.tenant_id },
      changed.body.token,
    );
    assert.equal((await me(labAgain.body.token))?.tenant_name, 'Lab Rats');

    // Removed from Lab Rats: only that account goes; Acme's stays and is the one signed into.
    const team = await gw.get<TeamPage>('/v1/users?searchString=owner%40acme.test', labOwner);
    const member = team.body.records.find((m) => m.email === ACME.email);
    assert.ok(member);
    assert.equal((await call(gw, 'DELETE', `/v1/users/${member._id}`, labOwner)).status, 200);
    assert.equal(await me(labAgain.body.token), null);
    const after = await me(await signIn(ACME.email, 'shared-pass-2027'));
    assert.equal(after?.tenant_id, acme.tenant_id);
  });

  it('an address without an account cannot use the join route', async () => {
    const token = await inviteToLab('newcomer@example.com');
    const lookup = await gw.post<InvitationLookup>('/v1/invitations/lookup', { token });
    assert.equal(lookup.body.has_account, false);
    const join = await gw.post<ErrorBody>('/v1/invitations/join', { token, password: 'whatever-2026' });
    assert.equal(join.status, 400);
    assert.deepEqual(join.body.errors?.password, [NO_ACCOUNT]);
  });
  it('a confirmed address change moves the accounts of every community; the password reset reaches them all', async () => {
    const token = await inviteToLab('staff@acme.test');
    const joined = await gw.post<{ token: string }>('/v1/invitations/join', { token, password: 'staff-pass-2026' });
    assert.equal(joined.status, 200, joined.text);
    const asked = await call(gw, 'POST', '/v1/profile/email', joined.body.token, {
      email: 'sam@moved.test',
      current_password: 'staff-pass-2026',
    });
    assert.equal(asked.status, 200, asked.text);
    const link = new URL(linkIn(await gw.waitForMail('sam@moved.test', /new e-mail address/i), CONFIRM));
    const confirmed = await gw.post('/v1/auth/confirm-email', {
      user_id: link.searchParams.get('user_id'),
      token: link.searchParams.get('token'),
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.equal(
      (await gw.post('/v1/auth/login', { email: 'staff@acme.test', password: 'staff-pass-2026' })).status,
      401,
    );
    const moved = await signIn('sam@moved.test', 'staff-pass-2026');
    const listed = await gw.get<MemberCommunityList>('/v1/auth/communities', moved);
    assert.deepEqual(
      listed.body.records.map((c) => c.tenant_name),
      ['Acme DAO', 'Lab Rats'],
    );

    // A reset from either account's link sets the password of both.
    assert.equal((await gw.post('/v1/auth/reset-request', { email: 'sam@moved.test' })).status, 200);
    const reset = new URL(linkIn(await gw.waitForMail('sam@moved.test', /reset/i), RESET));
    const [userId, resetToken] = reset.pathname.split('/').slice(2).map(decodeURIComponent);
    const done = await gw.post('/v1/auth/reset', {
      user_id: userId,
      reset_token: resetToken,
      password: 'reset-for-both-2027',
    });
    assert.equal(done.status, 200, done.text);
    const after = await signIn('sam@moved.test', 'reset-for-both-2027');
    assert.equal(await me(moved), null, 'the reset ended the sessions');
    const other = listed.body.records.find((c) => !c.current);
    const switched = await gw.post<{ token: string }>('/v1/auth/switch', { tenant_id: other?.tenant_id }, after);
    assert.equal((await me(switched.body.token))?.tenant_id, other?.tenant_id);
  });
});
