import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PLAN_FEATURES, TENANT_PERMISSIONS } from '@console/shared/access';
import type { Invitation, TeamMember } from '@console/shared/contracts';
import { formatDate, formatDateTime } from '@console/shared/format';
import { consoleStore, type ConsoleState, type ConsoleUser } from '@console/shared/session';
import { notify } from '@console/shared/ui';
import UsersPage from '../src/pages/users-page';
import { fakeGateway, json, makeUser, renderPage } from './account-kit';
import { pageOf, signInAs } from '../../jest/fake-gateway';

jest.setTimeout(20_000);

const features = PLAN_FEATURES.growup;

function makeMember(id: string, over: Partial<TeamMember> = {}): TeamMember {
  return {
    _id: id,
    email: `${id}@acme.test`,
    first_name: id.toUpperCase(),
    last_name: 'Member',
    avatar: null,
    role: 'staff',
    permissions: ['manage_contacts', 'view_engagement_emails', 'templates'],
    preset: 'member',
    status: 'active',
    last_sign_in_at: '2026-05-03T10:15:00.000Z',
    created_at: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

const me = makeMember('u1', {
  email: 'owner@acme.test',
  first_name: 'Ada',
  last_name: 'Owner',
  role: 'tenant_admin',
  permissions: [...TENANT_PERMISSIONS],
  preset: 'owner',
});
const bob = makeMember('bob', {
  first_name: 'Bob',
  last_name: 'Builder',
  last_sign_in_at: null,
  status: 'unconfirmed',
});
const cy = makeMember('cy', {
  first_name: 'Cy',
  last_name: 'Custom',
  preset: 'custom',
  permissions: ['manage_contacts', 'templates', 'automations', 'api_access'],
});
const olga = makeMember('olga', {
  first_name: 'Olga',
  last_name: 'Owner',
  role: 'tenant_admin',
  permissions: [...TENANT_PERMISSIONS],
  preset: 'owner',
});

function makeInvitation(id: string, over: Partial<Invitation> = {}): Invitation {
  return {
    _id: id,
    email: `${id}@new.test`,
    role: 'staff',
    permissions: ['manage_contacts', 'view_engagement_emails', 'templates'],
    preset: 'member',
    status: 'pending',
    invited_by: { _id: 'u1', email: 'owner@acme.test' },
    sent_at: '2026-05-01T09:00:00.000Z',
    expires_at: '2026-05-08T09:00:00.000Z',
    created_at: '2026-05-01T09:00:00.000Z',
    ...over,
  };
}

const pending = makeInvitation('dan');
const expired = makeInvitation('eve', { status: 'expired', preset: 'admin', invited_by: null });

/** The signed-in owner of a GROW UP community (team features), as the gateway sends them. */
function signInOwner(over: Partial<ConsoleUser> = {}) {
  const owner: ConsoleUser = { ...makeUser([...TENANT_PERMISSIONS]), features: [...features], ...over };
  signInAs(consoleStore, owner);
}
/** A staff member who manages users but holds little else. */
function signInManager() {
  const manager: ConsoleUser = {
    ...makeUser(['manage_users', 'team_features', 'manage_contacts', 'view_engagement_emails']),
    role: 'staff',
    features: [...features],
  };
  signInAs(consoleStore, manager);
}

const initialState: ConsoleState = consoleStore.getState();
let success: jest.SpyInstance;
let failure: jest.SpyInstance;

beforeEach(() => {
  window.localStorage.clear();
  signInOwner();
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
  failure = jest.spyOn(notify, 'error').mockReturnValue('t');
});
afterEach(() => {
  jest.restoreAllMocks();
  consoleStore.setState(initialState, true);
});

function gateway(extra: Parameters<typeof fakeGateway>[0] = {}, members = [me, bob, cy, olga]) {
  return fakeGateway({
    'GET /v1/users': () => json(pageOf(members, 14)),
    'GET /v1/invitations': () => json({ records: [pending, expired] }),
    ...extra,
  });
}

async function renderUsers() {
  const view = renderPage(<UsersPage />, '/account/users');
  await screen.findByText('Showing 1 to 4 of 14 results');
  return view;
}

const grid = () => screen.getByRole('table', { name: 'Team members' });
const rowOf = (text: string) => {
  const row = within(grid()).getByText(text).closest('tr');
  if (!row) throw new Error(`no row for ${text}`);
  return row;
};
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('Manage Users: the members grid', () => {
  it('shows the members with the list query of spec section 4 and their columns', async () => {
    const gw = gateway();
    await renderUsers();
    expect(screen.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeInTheDocument();
    expect(gw.lastQuery('GET', '/v1/users')).toEqual({
      page: '1',
      perPage: '10',
      sortField: 'created_at',
      sortOrder: 'desc',
      searchString: '',
    });
    expect(
      within(grid())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'E-mail', 'Role', 'Permissions', 'Last sign-in', 'Status', 'Actions']);
    expect(cells(rowOf('bob@acme.test')).slice(0, 6)).toEqual([
      'Bob Builder',
      'bob@acme.test',
      'Member',
      'Contacts and lists, E-mails +1 more',
      '—',
      'Unconfirmed',
    ]);
    expect(cells(rowOf('cy@acme.test')).slice(0, 6)).toEqual([
      'Cy Custom',
      'cy@acme.test',
      'Custom',
      'Contacts and lists, Templates +2 more',
      formatDateTime('2026-05-03T10:15:00.000Z'),
      'Active',
    ]);
    expect(
      within(rowOf('cy@acme.test')).getByTitle('Contacts and lists, Templates, Automations, API access'),
    ).toBeVisible();
    expect(cells(rowOf('owner@acme.test')).slice(0, 4)).toEqual([
      'Ada Owner(you)',
      'owner@acme.test',
      'Owner',
      'Everything',
    ]);
  });

  it('sorts by e-mail and last sign-in (same field flips), pages, and searches after the debounce', async () => {
    const gw = gateway();
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(within(grid()).getByRole('button', { name: 'E-mail' }));
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/users')).toMatchObject({ sortField: 'email', sortOrder: 'desc' }),
    );
    await user.click(within(grid()).getByRole('button', { name: 'E-mail' }));
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/users')).toMatchObject({ sortField: 'email', sortOrder: 'asc' }),
    );
    await user.click(within(grid()).getByRole('button', { name: 'Last sign-in' }));
    await waitFor(() =>
      expect(gw.lastQuery('GET', '/v1/users')).toMatchObject({
        sortField: 'last_sign_in_at',
        sortOrder: 'asc',
        page: '1',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/users')).toMatchObject({ page: '2' }));

    await user.type(screen.getByRole('searchbox', { name: 'Search members' }), 'bob');
    expect(gw.lastQuery('GET', '/v1/users')).toMatchObject({ searchString: '' });
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/users')).toMatchObject({ searchString: 'bob', page: '1' }), {
      timeout: 3000,
    });
  });

  it('your own row offers no edit or removal and says why; owners may impersonate the others', async () => {
    gateway();
    await renderUsers();
    const own = rowOf('owner@acme.test');
    expect(within(own).queryByRole('button')).not.toBeInTheDocument();
    expect(own).toHaveTextContent('You cannot change or remove yourself.');
    const other = rowOf('bob@acme.test');
    expect(within(other).getByRole('button', { name: 'Edit access of Bob Builder' })).toBeEnabled();
    expect(within(other).getByRole('button', { name: 'Remove Bob Builder' })).toBeEnabled();
    expect(within(other).getByRole('button', { name: 'Impersonate bob@acme.test' })).toBeEnabled();
  });

  it('no Impersonate while impersonating', async () => {
    signInOwner({ is_impersonating: true });
    gateway();
    await renderUsers();
    expect(screen.queryByRole('button', { name: /^Impersonate/ })).not.toBeInTheDocument();
    expect(within(rowOf('bob@acme.test')).getByRole('button', { name: 'Edit access of Bob Builder' })).toBeEnabled();
  });

  it('a non-owner manager cannot change an owner, and cannot impersonate', async () => {
    signInManager();
    gateway();
    await renderUsers();
    const owner = rowOf('olga@acme.test');
    expect(within(owner).queryByRole('button')).not.toBeInTheDocument();
    expect(owner).toHaveTextContent('Only an owner can change an owner.');
    expect(screen.queryByRole('button', { name: /^Impersonate/ })).not.toBeInTheDocument();
  });

  it('without manage_users: the grid only, no actions, no invitations fetched', async () => {
    signInOwner({ role: 'staff', permissions: ['team_features'] });
    const gw = gateway();
    await renderUsers();
    expect(screen.queryByRole('button', { name: 'Invite member' })).not.toBeInTheDocument();
    expect(within(grid()).queryByRole('button', { name: /Edit access|Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Invitations' })).not.toBeInTheDocument();
    expect(gw.to('GET', '/v1/invitations')).toHaveLength(0);
  });

  it('shows a failed load as an alert', async () => {
    fakeGateway({
      'GET /v1/users': () => json({ message: 'You may not manage users.' }, 403),
      'GET /v1/invitations': () => json({ records: [] }),
    });
    renderPage(<UsersPage />, '/account/users');
    expect(await screen.findByText('You may not manage users.')).toHaveAttribute('role', 'alert');
  });
});

describe('Edit access', () => {
  it('opens with the focus inside and the current preset, describes each preset, closes on Escape', async () => {
    gateway();
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    const opener = within(rowOf('bob@acme.test')).getByRole('button', { name: 'Edit access of Bob Builder' });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'Edit access of Bob Builder' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    const member = within(dialog).getByRole('radio', { name: 'Member' });
    expect(member).toBeChecked();
    expect(member).toHaveAccessibleDescription('Contacts, e-mails and templates.');
    expect(within(dialog).getByRole('radio', { name: 'Owner' })).toHaveAccessibleDescription(
      'Everything, including billing and the team; can act as any member.',
    );
    expect(within(dialog).getByRole('radio', { name: 'Owner' })).toBeEnabled();
    expect(within(dialog).queryByRole('group', { name: 'Permissions' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('custom: starts from the previous preset, PATCHes the chosen permissions, toasts and refetches', async () => {
    const gw = gateway({
      'PATCH /v1/users/:id': () =>
        json({ ...bob, preset: 'custom', permissions: ['manage_contacts', 'templates', 'automations'] }),
    });
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(within(rowOf('bob@acme.test')).getByRole('button', { name: 'Edit access of Bob Builder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit access of Bob Builder' });
    await user.click(within(dialog).getByRole('radio', { name: 'Custom' }));
    const permissions = within(dialog).getByRole('group', { name: 'Permissions' });
    // GROW UP has no advertising: not offered; admin permissions never.
    expect(within(permissions).queryByRole('checkbox', { name: 'View advertising e-mails' })).not.toBeInTheDocument();
    expect(within(permissions).queryByRole('checkbox', { name: 'Platform: tenants' })).not.toBeInTheDocument();
    expect(within(permissions).getByRole('checkbox', { name: 'Contacts and lists' })).toBeChecked();
    expect(within(permissions).getByRole('checkbox', { name: 'E-mails' })).toBeChecked();
    expect(within(permissions).getByRole('checkbox', { name: 'Templates' })).toBeChecked();
    expect(within(permissions).getByRole('checkbox', { name: 'Automations' })).not.toBeChecked();
    await user.click(within(permissions).getByRole('checkbox', { name: 'E-mails' }));
    await user.click(within(permissions).getByRole('checkbox', { name: 'Automations' }));
    const before = gw.to('GET', '/v1/users').length;
    await user.click(within(dialog).getByRole('button', { name: 'Save access' }));
    await waitFor(() => expect(gw.to('PATCH', '/v1/users/bob')).toHaveLength(1));
    expect(gw.to('PATCH', '/v1/users/bob')[0]?.body).toEqual({
      preset: 'custom',
      permissions: ['manage_contacts', 'templates', 'automations'],
    });
    await waitFor(() => expect(success).toHaveBeenCalledWith('bob@acme.test is now Custom.'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gw.to('GET', '/v1/users').length).toBeGreaterThan(before);
  });

  it('a preset sends no permissions', async () => {
    const gw = gateway({ 'PATCH /v1/users/:id': () => json({ ...cy, preset: 'admin' }) });
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(within(rowOf('cy@acme.test')).getByRole('button', { name: 'Edit access of Cy Custom' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit access of Cy Custom' });
    expect(within(dialog).getByRole('radio', { name: 'Custom' })).toBeChecked();
    await user.click(within(dialog).getByRole('radio', { name: 'Admin' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save access' }));
    await waitFor(() => expect(gw.to('PATCH', '/v1/users/cy')[0]?.body).toEqual({ preset: 'admin', permissions: [] }));
  });

  it("shows the server's field error under the roles and stays open", async () => {
    const last = 'A community needs at least one owner.';
    gateway({ 'PATCH /v1/users/:id': () => json({ message: last, errors: { preset: [last] } }, 400) });
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(within(rowOf('olga@acme.test')).getByRole('button', { name: 'Edit access of Olga Owner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit access of Olga Owner' });
    await user.click(within(dialog).getByRole('radio', { name: 'Admin' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save access' }));
    const roles = within(dialog).getByRole('group', { name: 'Role' });
    await waitFor(() => expect(roles).toHaveAccessibleDescription(last));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit access of Olga Owner' })).toBeInTheDocument();
    expect(success).not.toHaveBeenCalled();
  });

  it('a custom set with nothing chosen is not sent', async () => {
    const gw = gateway();
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(within(rowOf('bob@acme.test')).getByRole('button', { name: 'Edit access of Bob Builder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit access of Bob Builder' });
    await user.click(within(dialog).getByRole('radio', { name: 'Custom' }));
    for (const name of ['Contacts and lists', 'E-mails', 'Templates']) {
      await user.click(within(dialog).getByRole('checkbox', { name }));
    }
    await user.click(within(dialog).getByRole('button', { name: 'Save access' }));
    expect(within(dialog).getByRole('group', { name: 'Permissions' })).toHaveAccessibleDescription(
      'Choose at least one permission.',
    );
    expect(gw.to('PATCH', '/v1/users/bob')).toHaveLength(0);
  });

  it('a non-owner manager: Owner is disabled with the reason, custom offers only what they hold', async () => {
    signInManager();
    gateway();
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(within(rowOf('bob@acme.test')).getByRole('button', { name: 'Edit access of Bob Builder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit access of Bob Builder' });
    const ownerRadio = within(dialog).getByRole('radio', { name: 'Owner' });
    expect(ownerRadio).toBeDisabled();
    expect(ownerRadio).toHaveAccessibleDescription(
      'Everything, including billing and the team; can act as any member. Only an owner can make someone an owner.',
    );
    expect(within(dialog).getByRole('radio', { name: 'Admin' })).toBeDisabled();
    // Bob is a Member, which gives Templates: the manager does not hold it, so Member is refused too.
    expect(within(dialog).getByRole('radio', { name: 'Member' })).toBeDisabled();
    await user.click(within(dialog).getByRole('radio', { name: 'Custom' }));
    const offered = within(within(dialog).getByRole('group', { name: 'Permissions' }))
      .getAllByRole('checkbox')
      .map((box) => (box instanceof HTMLInputElement ? box.labels?.[0]?.textContent : null));
    expect(offered).toEqual(['Manage users', 'Contacts and lists', 'E-mails', 'Team features']);
  });
});

describe('Remove', () => {
  it("confirms, saying the member's sessions end at once; DELETE, toast, refetch", async () => {
    const gw = gateway({ 'DELETE /v1/users/:id': () => json({ message: 'Bob Builder was removed.' }) });
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(within(rowOf('bob@acme.test')).getByRole('button', { name: 'Remove Bob Builder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Bob Builder?' });
    expect(dialog).toHaveTextContent(
      'bob@acme.test loses access to Acme DAO at once: every session of theirs ends now, and they are signed out wherever they are signed in.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gw.to('DELETE', '/v1/users/bob')).toHaveLength(0);

    await user.click(within(rowOf('bob@acme.test')).getByRole('button', { name: 'Remove Bob Builder' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove Bob Builder?' })).getByRole('button', {
        name: 'Confirm',
      }),
    );
    await waitFor(() => expect(gw.to('DELETE', '/v1/users/bob')).toHaveLength(1));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Bob Builder was removed.'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gw.to('GET', '/v1/users').length).toBeGreaterThan(1);
  });

  it("a refusal closes the dialog and shows the server's message", async () => {
    gateway({ 'DELETE /v1/users/:id': () => json({ message: 'A community needs at least one owner.' }, 400) });
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(within(rowOf('olga@acme.test')).getByRole('button', { name: 'Remove Olga Owner' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove Olga Owner?' })).getByRole('button', {
        name: 'Confirm',
      }),
    );
    await waitFor(() => expect(failure).toHaveBeenCalledWith('A community needs at least one owner.'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(success).not.toHaveBeenCalled();
  });
});

describe('Invite member', () => {
  it('focus in the e-mail; own checks first; POST with the e-mail and preset; toast; invitations refetched', async () => {
    const gw = gateway({
      'POST /v1/invitations': () => json(makeInvitation('fay', { email: 'fay@new.test' }), 201),
    });
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(screen.getByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite member' });
    const email = within(dialog).getByRole('textbox', { name: 'E-mail' });
    await waitFor(() => expect(email).toHaveFocus());
    expect(within(dialog).getByRole('radio', { name: 'Member' })).toBeChecked();

    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(email).toHaveAccessibleDescription('Enter an e-mail address.');
    expect(gw.to('POST', '/v1/invitations')).toHaveLength(0);

    await user.type(email, ' fay@new.test ');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(gw.to('POST', '/v1/invitations')).toHaveLength(1));
    expect(gw.to('POST', '/v1/invitations')[0]?.body).toEqual({
      email: 'fay@new.test',
      preset: 'member',
      permissions: [],
    });
    await waitFor(() => expect(success).toHaveBeenCalledWith('Invitation sent to fay@new.test.'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gw.to('GET', '/v1/invitations')).toHaveLength(2);
  });

  it('custom permissions go with the invitation', async () => {
    const gw = gateway({ 'POST /v1/invitations': () => json(makeInvitation('fay'), 201) });
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(screen.getByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite member' });
    await user.type(within(dialog).getByRole('textbox', { name: 'E-mail' }), 'fay@new.test');
    await user.click(within(dialog).getByRole('radio', { name: 'Custom' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Templates' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Custom domains' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() =>
      expect(gw.to('POST', '/v1/invitations')[0]?.body).toEqual({
        email: 'fay@new.test',
        preset: 'custom',
        permissions: ['manage_domains', 'manage_contacts', 'view_engagement_emails'],
      }),
    );
  });

  it("shows the server's e-mail error under the field and keeps the dialog open", async () => {
    gateway({
      'POST /v1/invitations': () =>
        json({ message: 'Invalid input', errors: { email: ['This person is already a member.'] } }, 400),
    });
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(screen.getByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite member' });
    const email = within(dialog).getByRole('textbox', { name: 'E-mail' });
    await user.type(email, 'bob@acme.test');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(email).toHaveAccessibleDescription('This person is already a member.'));
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveFocus();
    expect(screen.getByRole('dialog', { name: 'Invite member' })).toBeInTheDocument();
    expect(success).not.toHaveBeenCalled();
  });
});

describe('Invitations', () => {
  it('lists pending and expired invitations', async () => {
    gateway();
    await renderUsers();
    const table = await screen.findByRole('table', { name: 'Invitations' });
    await within(table).findByText('dan@new.test');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['E-mail', 'Role', 'Invited by', 'Sent', 'Expires', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => cells(row).slice(0, 5))).toEqual([
      ['dan@new.test', 'Member', 'owner@acme.test', formatDate(pending.sent_at), formatDate(pending.expires_at)],
      ['eve@new.test', 'Admin', '—', formatDate(expired.sent_at), 'Expired'],
    ]);
  });

  it('Resend: POST, toast, refetch', async () => {
    const gw = gateway({ 'POST /v1/invitations/:id/resend': () => json({ ...expired, status: 'pending' }) });
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(await screen.findByRole('button', { name: 'Resend the invitation to eve@new.test' }));
    await waitFor(() => expect(gw.to('POST', '/v1/invitations/eve/resend')).toHaveLength(1));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Invitation sent again to eve@new.test.'));
    await waitFor(() => expect(gw.to('GET', '/v1/invitations')).toHaveLength(2));
  });

  it('Revoke: confirm, DELETE, toast', async () => {
    const gw = gateway({ 'DELETE /v1/invitations/:id': () => json({ message: 'Invitation revoked.' }) });
    const user = userEvent.setup({ delay: null });
    await renderUsers();
    await user.click(await screen.findByRole('button', { name: 'Revoke the invitation to dan@new.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the invitation to dan@new.test?' });
    expect(dialog).toHaveTextContent('The link in the e-mail stops working.');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(gw.to('DELETE', '/v1/invitations/dan')).toHaveLength(1));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Invitation revoked.'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says so when there are none', async () => {
    gateway({ 'GET /v1/invitations': () => json({ records: [] }) });
    await renderUsers();
    expect(await screen.findByRole('cell', { name: 'No pending invitations.' })).toBeInTheDocument();
  });
});
