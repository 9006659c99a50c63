// The team's activity (GET /v1/team-events): each of the six events is written where it happens, with
// who did it, whom it was about and when; owners only, enforced by the server; one community's only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Invitation, SessionUser, TeamEvent, TeamEventPage } from '../contracts';
import { call } from '../../test/audience-helpers';
import { linkIn, type Mail, startGateway, type TestGateway } from '../../test/helpers';
import { listTeamEvents, OWNERS_ONLY } from './events';

let gw: TestGateway;
let labOwner: string;
before(async () => {
  gw = await startGateway({ CONSOLE_URL: 'http://console.example:3000' });
  labOwner = await gw.login('labOwner');
});
after(() => gw.close());

const INVITE = 'http://console.example:3000/invitation/';
const CONFIRM = 'http://console.example:3000/confirm-email?';
const tokenOf = (mail: Mail) => decodeURIComponent(linkIn(mail, INVITE).slice(INVITE.length));

async function events(token = labOwner, query = ''): Promise<TeamEvent[]> {
  const r = await gw.get<TeamEventPage>(`/v1/team-events${query}`, token);
  assert.equal(r.status, 200, r.text);
  return r.body.records;
}

/** The newest event, checked for its kind, who did it and whom it was about. */
async function newest(kind: TeamEvent['kind'], actor: string | null, subject: string): Promise<TeamEvent> {
  const [event] = await events();
  assert.ok(event, 'an event was recorded');
  assert.deepEqual([event.kind, event.actor?.email ?? null, event.subject.email], [kind, actor, subject]);
  assert.ok(Date.now() - Date.parse(event.created_at) < 60_000, 'and when');
  return event;
}

/** Invites `email` as Lab Rats' owner and accepts from the e-mail: the new member's token and id. */
async function join(email: string, preset: string) {
  const invited = await gw.post<Invitation>('/v1/invitations', { email, preset }, labOwner);
  assert.equal(invited.status, 201, invited.text);
  const accepted = await gw.post<{ token: string }>('/v1/invitations/accept', {
    token: tokenOf(await gw.waitForMail(email, /^Join Lab Rats/)),
    first_name: 'Nina',
    last_name: 'Newbie',
    password: 'joining-pass-2026',
  });
  assert.equal(accepted.status, 200, accepted.text);
  const me = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token: accepted.body.token });
  return { token: accepted.body.token, id: me.body.user._id };
}

describe('team activity', () => {
  it('records invitations, access changes, impersonation, password and e-mail changes, and removals', async () => {
    const member = await join('nina@example.com', 'member');
    const invited = (await events()).find((e) => e.kind === 'invited');
    assert.deepEqual(
      [invited?.actor?.email, invited?.subject.email, invited?.preset],
      ['owner@lab.test', 'nina@example.com', 'member'],
    );

    const changed = await call(gw, 'PATCH', `/v1/users/${member.id}`, labOwner, { preset: 'admin' });
    assert.equal(changed.status, 200, changed.text);
    const access = await newest('access_changed', 'owner@lab.test', 'nina@example.com');
    assert.equal(access.preset, 'admin');
    assert.equal(access.subject._id, member.id);

    const acting = await gw.post('/v1/auth/impersonate', { user_id: member.id }, labOwner);
    assert.equal(acting.status, 200, acting.text);
    await newest('impersonated', 'owner@lab.test', 'nina@example.com');
    // A platform admin acting as a member is recorded too, under their own address.
    const admin = await gw.login('admin');
    assert.equal((await gw.post('/v1/auth/impersonate', { user_id: member.id }, admin)).status, 200);
    await newest('impersonated', 'admin@console.test', 'nina@example.com');

    const password = await gw.post<{ token: string }>(
      '/v1/auth/change-password',
      { current_password: 'joining-pass-2026', new_password: 'a much longer nina pass 2026' },
      member.token,
    );
    assert.equal(password.status, 200, password.text);
    await newest('password_changed', 'nina@example.com', 'nina@example.com');

    const asked = await call(gw, 'POST', '/v1/profile/email', password.body.token, {
      email: 'nina.new@example.com',
      current_password: 'a much longer nina pass 2026',
    });
    assert.equal(asked.status, 200, asked.text);
    const link = new URL(linkIn(await gw.waitForMail('nina.new@example.com', /new e-mail address/i), CONFIRM));
    const confirmed = await gw.post('/v1/auth/confirm-email', {
      user_id: link.searchParams.get('user_id'),
      token: link.searchParams.get('token'),
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    const moved = await newest('email_changed', 'nina.new@example.com', 'nina.new@example.com');
    assert.equal(moved.previous_email, 'nina@example.com');
    // The former address is told.
    const notice = await gw.waitForMail('nina@example.com', /sign-in e-mail address was changed/i);
    assert.match(notice.text, /nina\.new@example\.com/);

    const removed = await call(gw, 'DELETE', `/v1/users/${member.id}`, labOwner);
    assert.equal(removed.status, 200, removed.text);
    const gone = await newest('removed', 'owner@lab.test', 'nina.new@example.com');
    assert.equal(gone.subject._id, null);

    // Newest first, in pages.
    const kinds = (await events()).map((e) => e.kind);
    assert.deepEqual(kinds.slice(0, 7), [
      'removed',
      'email_changed',
      'password_changed',
      'impersonated',
      'impersonated',
      'access_changed',
      'invited',
    ]);
    const first = await gw.get<TeamEventPage>('/v1/team-events?perPage=2&page=2', labOwner);
    assert.deepEqual(
      first.body.records.map((e) => e.kind),
      ['password_changed', 'impersonated'],
    );
    assert.equal(first.body.pagination.count, kinds.length);
    const found = await events(labOwner, '?searchString=admin%40console');
    assert.deepEqual(
      found.map((e) => e.kind),
      ['impersonated'],
    );
  });

  it('is for owners only, of their own community', async () => {
    const member = await join('adam@example.com', 'admin');
    const refused = await gw.get<{ message: string }>('/v1/team-events', member.token);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.message, OWNERS_ONLY);
    assert.equal((await gw.get('/v1/team-events')).status, 401);
    // The plan feature of teams, as Manage Users: START UP and BASIC have none.
    assert.equal((await gw.get('/v1/team-events', await gw.login('acmeOwner'))).status, 403);
    assert.equal((await gw.get('/v1/team-events', await gw.login('basicOwner'))).status, 403);
    // One community's activity only: Acme's has none of Lab Rats' events.
    const acmeOwner = await gw.post<{ user: SessionUser }>('/v1/auth/verify', { token: await gw.login('acmeOwner') });
    const acme = await listTeamEvents(gw.handle.db, acmeOwner.body.user.tenant_id ?? '', {
      page: 1,
      perPage: 100,
      sortField: 'created_at',
      sortOrder: 'desc',
      searchString: '',
    });
    assert.ok(
      acme.records.every((e) => !e.subject.email.endsWith('@example.com')),
      JSON.stringify(acme),
    );
    assert.ok((await events()).some((e) => e.subject.email === 'adam@example.com'));
  });
});
