import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { Invitation, InvitationList, InvitationLookup, SessionUser, TeamMember, TeamPage } from '../contracts';
import { invitations } from '../db/schema';
import { call } from '../../test/audience-helpers';
import { type ErrorBody, linkIn, type Mail, startGateway, type TestGateway } from '../../test/helpers';
import { ALREADY_INVITED, ALREADY_MEMBER, INVITATION_INVALID } from './invitations';
import { LAST_OWNER, NOT_YOURSELF } from './members';

let gw: TestGateway;
let labOwner: string;
before(async () => {
  gw = await startGateway({ CONSOLE_URL: 'http://console.example:3000' });
  labOwner = await gw.login('labOwner');
});
after(() => gw.close());

const LINK = 'http://console.example:3000/invitation/';
const tokenOf = (mail: Mail) => decodeURIComponent(linkIn(mail, LINK).slice(LINK.length));
const PLAN_403 = 'Your plan does not include this feature. Upgrade your plan to use it.';

async function verify(token: string) {
  return gw.post<{ user: SessionUser }>('/v1/auth/verify', { token });
}

/** Invites `email` as Lab Rats' owner, accepts from the e-mail, answers the new member's token and id. */
async function join(email: string, preset: string, permissions: string[] = [], by = labOwner) {
  const invited = await gw.post<Invitation>('/v1/invitations', { email, preset, permissions }, by);
  assert.equal(invited.status, 201, invited.text);
  const token = tokenOf(await gw.waitForMail(email, /^Join Lab Rats/));
  const accepted = await gw.post<{ token: string }>('/v1/invitations/accept', {
    token,
    first_name: 'New',
    last_name: 'Person',
    password: 'joining-pass-2026',
  });
  assert.equal(accepted.status, 200, accepted.text);
  const me = await verify(accepted.body.token);
  return { token: accepted.body.token, id: me.body.user._id, invitation: invited.body };
}

describe('invitations', () => {
  it('invite, e-mail, look up, accept once: the account has the preset, a confirmed address, a session', async () => {
    const invited = await gw.post<Invitation>(
      '/v1/invitations',
      { email: ' Member@Example.com ', preset: 'member' },
      labOwner,
    );
    assert.equal(invited.status, 201, invited.text);
    assert.equal(invited.body.email, 'member@example.com');
    assert.equal(invited.body.status, 'pending');
    assert.equal(invited.body.preset, 'member');
    assert.deepEqual(invited.body.permissions, ['manage_contacts', 'view_engagement_emails', 'templates']);
    const week = Date.parse(invited.body.expires_at) - Date.parse(invited.body.sent_at);
    assert.equal(week, 7 * 24 * 3600 * 1000);

    const listed = await gw.get<InvitationList>('/v1/invitations', labOwner);
    assert.deepEqual(
      listed.body.records.map((i) => i.email),
      ['member@example.com'],
    );
    assert.equal(listed.body.records[0]?.invited_by?.email, 'owner@lab.test');

    const mail = await gw.waitForMail('member@example.com', /^Join Lab Rats/);
    assert.match(mail.text, /Lena Lab invited you to join the team of Lab Rats/);
    const token = tokenOf(mail);
    const lookup = await gw.post<InvitationLookup>('/v1/invitations/lookup', { token });
    assert.equal(lookup.status, 200, lookup.text);
    assert.deepEqual(
      { email: lookup.body.email, tenant: lookup.body.tenant_name, by: lookup.body.invited_by },
      { email: 'member@example.com', tenant: 'Lab Rats', by: 'Lena Lab' },
    );

    const weak = await gw.post<ErrorBody>('/v1/invitations/accept', { token, first_name: 'M', password: 'short' });
    assert.equal(weak.status, 400);
    assert.deepEqual(Object.keys(weak.body.errors ?? {}), ['password']);
    // NIST SP 800-63B: a repetitive password, or one made of the invitation's own words, is refused.
    for (const password of ['aaaaaaaaaa', 'member@example.com']) {
      const easy = await gw.post<ErrorBody>('/v1/invitations/accept', { token, first_name: 'Mia', password });
      assert.equal(easy.status, 400, `${password}: ${easy.text}`);
      assert.deepEqual(Object.keys(easy.body.errors ?? {}), ['password']);
      assert.ok((easy.body.errors?.password?.[0] ?? '').length > 0);
    }

    const accepted = await gw.post<{ token: string }>('/v1/invitations/accept', {
      token,
      first_name: 'Mia',
      last_name: 'Member',
      password: 'member-pass-2026',
    });
    assert.equal(accepted.status, 200, accepted.text);
    const me = (await verify(accepted.body.token)).body.user;
    assert.equal(me.tenant_name, 'Lab Rats');
    assert.equal(me.role, 'staff');
    assert.deepEqual(me.permissions, ['manage_contacts', 'view_engagement_emails', 'templates']);
    assert.equal((await gw.get('/v1/contacts', accepted.body.token)).status, 200);
    assert.equal((await gw.get('/v1/invitations', accepted.body.token)).status, 403);

    const again = await gw.post<ErrorBody>('/v1/invitations/accept', {
      token,
      first_name: 'Mia',
      password: 'member-pass-2026',
    });
    assert.equal(again.status, 400);
    assert.equal(again.body.message, INVITATION_INVALID);
    assert.equal((await gw.post('/v1/invitations/lookup', { token })).status, 400);
    assert.deepEqual((await gw.get<InvitationList>('/v1/invitations', labOwner)).body.records, []);
    const signIn = await gw.post('/v1/auth/login', { email: 'member@example.com', password: 'member-pass-2026' });
    assert.equal(signIn.status, 200);

    const team = await gw.get<TeamPage>('/v1/users?sortField=email&sortOrder=asc', labOwner);
    const mia = team.body.records.find((m) => m.email === 'member@example.com');
    assert.ok(mia);
    assert.deepEqual(
      { name: `${mia.first_name} ${mia.last_name}`, preset: mia.preset, status: mia.status },
      { name: 'Mia Member', preset: 'member', status: 'active' },
    );
    assert.ok(mia.last_sign_in_at);
  });

  it('expires after 7 days; resending renews it with a new link and kills the old one; revoking ends it', async () => {
    const invited = await gw.post<Invitation>(
      '/v1/invitations',
      { email: 'late@example.com', preset: 'admin' },
      labOwner,
    );
    assert.equal(invited.status, 201, invited.text);
    const first = tokenOf(await gw.waitForMail('late@example.com', /^Join/));
    await gw.handle.db
      .update(invitations)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(invitations.id, invited.body._id));
    assert.equal(
      (await gw.post<ErrorBody>('/v1/invitations/lookup', { token: first })).body.message,
      INVITATION_INVALID,
    );
    const listed = await gw.get<InvitationList>('/v1/invitations', labOwner);
    assert.equal(listed.body.records.find((i) => i._id === invited.body._id)?.status, 'expired');
    // Inviting the address again while the expired one stands: resend it.
    const twice = await gw.post<ErrorBody>('/v1/invitations', { email: 'late@example.com', preset: 'admin' }, labOwner);
    assert.deepEqual(twice.body.errors, { email: [ALREADY_INVITED] });

    const resent = await gw.post<Invitation>(`/v1/invitations/${invited.body._id}/resend`, {}, labOwner);
    assert.equal(resent.status, 200, resent.text);
    assert.equal(resent.body.status, 'pending');
    const second = tokenOf(await gw.waitForMail('late@example.com', /^Join/, 2));
    assert.notEqual(second, first);
    assert.equal((await gw.post('/v1/invitations/lookup', { token: first })).status, 400);
    assert.equal((await gw.post('/v1/invitations/lookup', { token: second })).status, 200);

    assert.equal((await call(gw, 'DELETE', `/v1/invitations/${invited.body._id}`, labOwner)).status, 200);
    assert.equal((await gw.post('/v1/invitations/lookup', { token: second })).status, 400);
    assert.equal((await call(gw, 'DELETE', `/v1/invitations/${invited.body._id}`, labOwner)).status, 404);
    const accept = await gw.post('/v1/invitations/accept', {
      token: second,
      first_name: 'L',
      password: 'late-pass-2026',
    });
    assert.equal(accept.status, 400);
  });

  it('refuses bad input with field errors, and addresses already in the team', async () => {
    const cases: [unknown, string, string][] = [
      [{ email: 'not-an-address', preset: 'member' }, 'email', 'Enter a valid e-mail address.'],
      [{ email: 'x@example.com', preset: 'boss' }, 'preset', 'Choose a role.'],
      [{ email: 'owner@lab.test', preset: 'member' }, 'email', ALREADY_MEMBER],
      [
        { email: 'x@example.com', preset: 'custom', permissions: ['view_advertising_emails'] },
        'permissions',
        'Your plan does not include: View advertising e-mails.',
      ],
      [
        { email: 'x@example.com', preset: 'custom', permissions: ['admin_tenants'] },
        'permissions',
        'Your plan does not include: Platform: tenants.',
      ],
    ];
    for (const [body, field, message] of cases) {
      const r = await gw.post<ErrorBody>('/v1/invitations', body, labOwner);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(r.body.errors?.[field], [message], JSON.stringify(body));
    }
    const empty = await call<ErrorBody>(gw, 'POST', '/v1/invitations', labOwner, 'null');
    assert.equal(empty.status, 400);
    assert.equal((await gw.post('/v1/invitations/lookup', { token: 'x'.repeat(600) })).status, 400);
    assert.equal(
      (await gw.post<ErrorBody>('/v1/invitations/lookup', { token: 'nope' })).body.message,
      INVITATION_INVALID,
    );
  });

  it('nobody grants more than they hold; only owners make owners', async () => {
    const helper = await join('helper@example.com', 'custom', ['manage_users', 'team_features', 'manage_contacts']);
    const owner = await gw.post<ErrorBody>(
      '/v1/invitations',
      { email: 'o@example.com', preset: 'owner' },
      helper.token,
    );
    assert.deepEqual(owner.body.errors, { preset: ['Only an owner can make someone an owner.'] });
    const more = await gw.post<ErrorBody>(
      '/v1/invitations',
      { email: 'o@example.com', preset: 'custom', permissions: ['manage_contacts', 'templates'] },
      helper.token,
    );
    assert.deepEqual(more.body.errors, {
      permissions: ['You can only give permissions you hold yourself (not: Templates).'],
    });
    const fine = await gw.post<Invitation>(
      '/v1/invitations',
      { email: 'o@example.com', preset: 'custom', permissions: ['manage_contacts'] },
      helper.token,
    );
    assert.equal(fine.status, 201, fine.text);
    assert.equal(fine.body.invited_by?.email, 'helper@example.com');
  });

  it('needs manage_users and the plan feature team_features; lookup and accept are public', async () => {
    assert.equal((await gw.get('/v1/invitations', null)).status, 401);
    assert.equal((await gw.post('/v1/invitations', { email: 'a@b.co', preset: 'member' }, null)).status, 401);
    // Acme DAO is on START UP: no team features.
    const acme = await gw.login('acmeOwner');
    for (const r of [
      await gw.get<ErrorBody>('/v1/invitations', acme),
      await gw.post<ErrorBody>('/v1/invitations', { email: 'a@b.co', preset: 'member' }, acme),
      await call<ErrorBody>(gw, 'PATCH', '/v1/users/00000000-0000-0000-0000-000000000000', acme, { preset: 'member' }),
    ]) {
      assert.equal(r.status, 403);
      assert.equal(r.body.message, PLAN_403);
    }
    // Reading the team needs manage_users only (a tenant admin's impersonation list on every plan).
    assert.equal((await gw.get('/v1/users', acme)).status, 200);
    assert.equal((await gw.get('/v1/users', await gw.login('acmeStaff'))).status, 403);
  });
});

describe('members', () => {
  it("a member's access changes and removal reach their sessions at once", async () => {
    const m = await join('changing@example.com', 'member');
    assert.equal((await gw.get('/v1/contacts', m.token)).status, 200);
    const changed = await call<TeamMember>(gw, 'PATCH', `/v1/users/${m.id}`, labOwner, {
      preset: 'custom',
      permissions: ['templates'],
    });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(
      { preset: changed.body.preset, permissions: changed.body.permissions },
      {
        preset: 'custom',
        permissions: ['templates'],
      },
    );
    assert.equal((await gw.get('/v1/contacts', m.token)).status, 403);
    assert.deepEqual((await verify(m.token)).body.user.permissions, ['templates']);

    const other = await gw.login('acmeOwner');
    assert.equal((await call(gw, 'DELETE', `/v1/users/${m.id}`, other)).status, 403, 'another plan, no team');
    assert.equal((await call(gw, 'DELETE', `/v1/users/${m.id}`, labOwner)).status, 200);
    assert.equal((await verify(m.token)).status, 401);
    assert.equal((await gw.get('/v1/templates', m.token)).status, 401);
    assert.equal((await call(gw, 'DELETE', `/v1/users/${m.id}`, labOwner)).status, 404);
  });

  it("another tenant's member is not found; yourself is refused", async () => {
    const acmeStaff = (await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token: await gw.login('acmeStaff') }))
      .body.user._id;
    assert.equal((await call(gw, 'PATCH', `/v1/users/${acmeStaff}`, labOwner, { preset: 'member' })).status, 404);
    assert.equal((await call(gw, 'DELETE', `/v1/users/${acmeStaff}`, labOwner)).status, 404);
    assert.equal((await call(gw, 'PATCH', '/v1/users/not-a-uuid', labOwner, { preset: 'member' })).status, 404);
    const me = (await verify(labOwner)).body.user._id;
    const self = await call<ErrorBody>(gw, 'DELETE', `/v1/users/${me}`, labOwner);
    assert.equal(self.status, 400);
    assert.equal(self.body.message, NOT_YOURSELF);
  });

  it('keeps one owner: two owners demoting each other at once, one wins; the last one cannot step down', async () => {
    const second = await join('co-owner@example.com', 'owner');
    const first = (await verify(labOwner)).body.user._id;
    assert.equal((await verify(second.token)).body.user.role, 'tenant_admin');
    const [a, b] = await Promise.all([
      call<ErrorBody>(gw, 'PATCH', `/v1/users/${second.id}`, labOwner, { preset: 'admin' }),
      call<ErrorBody>(gw, 'PATCH', `/v1/users/${first}`, second.token, { preset: 'admin' }),
    ]);
    const statuses = [a.status, b.status].sort();
    assert.deepEqual(statuses, [200, 400], `${a.text} ${b.text}`);
    const loser = a.status === 400 ? a : b;
    // The loser's change ran after the winner's, under the lock: the loser is no longer an owner.
    assert.equal(loser.body.message, 'Only an owner can change an owner.');
    const firstWon = a.status === 200;
    const ownerToken = firstWon ? labOwner : second.token;
    const team = await gw.get<TeamPage>('/v1/users?perPage=100', ownerToken);
    assert.deepEqual(
      team.body.records.filter((m) => m.role === 'tenant_admin').map((m) => m._id),
      [firstWon ? first : second.id],
    );

    // Put Lab Rats back as it was: the first owner alone.
    if (!firstWon) {
      assert.equal((await call(gw, 'PATCH', `/v1/users/${first}`, second.token, { preset: 'owner' })).status, 200);
    }
    // An owner may step down while another owner remains.
    assert.equal((await call(gw, 'PATCH', `/v1/users/${second.id}`, labOwner, { preset: 'owner' })).status, 200);
    const down = await call<TeamMember>(gw, 'PATCH', `/v1/users/${second.id}`, second.token, { preset: 'admin' });
    assert.equal(down.status, 200, down.text);
    assert.equal(down.body.role, 'staff');
    assert.equal((await call(gw, 'DELETE', `/v1/users/${second.id}`, labOwner)).status, 200);
    // The one owner may not step down; an owner may while another remains (checked above by the winner).
    const last = await call<ErrorBody>(gw, 'PATCH', `/v1/users/${first}`, labOwner, { preset: 'admin' });
    assert.equal(last.status, 400);
    assert.deepEqual(last.body.errors, { preset: [LAST_OWNER] });
  });
});
