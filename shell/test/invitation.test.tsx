import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { createMemoryRouter, RouterProvider } from '@console/shared/router';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import { consoleStore, navigation } from '@console/shared/session';
import { formatDate } from '@console/shared/format';
import { routeObjects } from '../src/router';

jest.mock('../src/remotes', () => ({ registerRemotesFor: jest.fn(), preloadRoute: jest.fn() }));
jest.setTimeout(20_000);

type Reply = { status: number; body?: unknown };
type Handler = (body: unknown) => Reply | Promise<Reply>;
let routes: Record<string, Handler> = {};
let calls: { route: string; body: unknown }[] = [];
let visited: string[] = [];
const ok = (body: unknown): Reply => ({ status: 200, body });
const callsTo = (route: string) => calls.filter((c) => c.route === route);

const LOOKUP = {
  email: 'new@acme.test',
  tenant_name: 'Acme DAO',
  invited_by: 'owner@acme.test',
  expires_at: '2026-06-08T09:00:00.000Z',
  has_account: false,
};
const JOINED = {
  _id: 'u-new',
  email: 'new@acme.test',
  role: 'staff',
  permissions: ['manage_contacts'],
  features: ['manage_contacts'],
  tenant_id: 't1',
  tenant_name: 'Acme DAO',
  first_name: 'Nia',
  last_name: 'New',
  avatar: null,
  time_zone: null,
  impersonator: null,
};

beforeAll(() => setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: 'http://gw.test' }));
beforeEach(() => {
  calls = [];
  visited = [];
  navigation.assign = (url) => void visited.push(url);
  Cookies.remove('token');
  Cookies.remove('admin_token');
  consoleStore.setState({ user: null, token: null });
  routes = {
    'POST /v1/invitations/lookup': () => ok(LOOKUP),
    'POST /v1/invitations/accept': () => ok({ token: 'joined-token' }),
    'POST /v1/auth/verify': () => ok({ user: JOINED }),
  };
  globalThis.fetch = (async (input: Request | string | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const route = `${request.method} ${new URL(request.url).pathname}`;
    const text = await request.text();
    calls.push({ route, body: text ? (JSON.parse(text) as unknown) : undefined });
    const handler = routes[route];
    const reply = handler
      ? await handler(text ? JSON.parse(text) : undefined)
      : { status: 404, body: { message: route } };
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
});

/** The whole shell router at /invitation/<token>: no session cookie, as for someone who has no account yet. */
async function openInvitation(token = 'invite-token-1') {
  const router = createMemoryRouter(routeObjects(), { initialEntries: [`/invitation/${token}`] });
  render(<RouterProvider router={router} />);
  return router;
}

const field = (label: string) => screen.getByLabelText(label);
/** The page's heading once its lazily loaded chunk and the lookup are in (slow on a loaded CI machine). */
const joinHeading = () => screen.findByRole('heading', { level: 1, name: 'Join Acme DAO' }, { timeout: 10_000 });

describe('/invitation/:token', () => {
  it('is open without a session: looks the invitation up and shows who invites to which community', async () => {
    await openInvitation();
    expect(await joinHeading()).toBeInTheDocument();
    expect(callsTo('POST /v1/invitations/lookup')).toEqual([
      { route: 'POST /v1/invitations/lookup', body: { token: 'invite-token-1' } },
    ]);
    // The guard let it through without a token: no verification, no redirect to /login.
    expect(callsTo('POST /v1/auth/verify')).toHaveLength(0);
    expect(
      screen.getByText(
        `owner@acme.test invited you to join Acme DAO. The invitation expires on ${formatDate(LOOKUP.expires_at)}.`,
      ),
    ).toBeInTheDocument();
    const email = field('Email');
    expect(email).toHaveValue('new@acme.test');
    expect(email).toHaveAttribute('readonly');
    expect(field('Password')).toHaveAccessibleDescription('Use at least 10 characters.');
    expect(field('Repeat the password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Join Acme DAO' })).toBeEnabled();
  });

  it('checks the names and passwords before sending', async () => {
    const user = userEvent.setup({ delay: null });
    await openInvitation();
    await joinHeading();
    await user.click(screen.getByRole('button', { name: 'Join Acme DAO' }));
    expect(field('First name')).toHaveAccessibleDescription('Enter your first name.');
    expect(field('First name')).toHaveFocus();
    expect(field('Password')).toHaveAccessibleDescription('Use at least 10 characters.');
    expect(field('Password')).toHaveAttribute('aria-invalid', 'true');

    await user.type(field('First name'), 'Nia');
    await user.type(field('Password'), 'long-enough-1');
    await user.type(field('Repeat the password'), 'long-enough-2');
    await user.click(screen.getByRole('button', { name: 'Join Acme DAO' }));
    expect(field('Repeat the password')).toHaveAccessibleDescription('The passwords do not match.');
    expect(field('First name')).not.toHaveAttribute('aria-invalid');
    expect(callsTo('POST /v1/invitations/accept')).toHaveLength(0);
  });

  it('accepts, then signs in with the token exactly as the login form does and goes to /', async () => {
    Cookies.set('admin_token', 'left-over');
    const user = userEvent.setup({ delay: null });
    await openInvitation();
    await joinHeading();
    await user.type(field('First name'), ' Nia ');
    await user.type(field('Last name'), 'New');
    await user.type(field('Password'), 'long-enough-1');
    await user.type(field('Repeat the password'), 'long-enough-1');
    await user.click(screen.getByRole('button', { name: 'Join Acme DAO' }));
    await waitFor(() => expect(visited).toEqual(['/']));
    expect(callsTo('POST /v1/invitations/accept')[0]?.body).toEqual({
      token: 'invite-token-1',
      first_name: 'Nia',
      last_name: 'New',
      password: 'long-enough-1',
    });
    expect(callsTo('POST /v1/auth/verify')[0]?.body).toEqual({ token: 'joined-token' });
    expect(Cookies.get('token')).toBe('joined-token');
    expect(Cookies.get('admin_token')).toBeUndefined();
    expect(consoleStore.getState()).toMatchObject({ token: 'joined-token', user: { email: 'new@acme.test' } });
  });

  it("shows the server's field errors under the fields", async () => {
    routes['POST /v1/invitations/accept'] = () => ({
      status: 400,
      body: { message: 'Invalid input', errors: { password: ['This password is too common.'] } },
    });
    const user = userEvent.setup({ delay: null });
    await openInvitation();
    await joinHeading();
    await user.type(field('First name'), 'Nia');
    await user.type(field('Password'), 'password1234');
    await user.type(field('Repeat the password'), 'password1234');
    await user.click(screen.getByRole('button', { name: 'Join Acme DAO' }));
    await waitFor(() => expect(field('Password')).toHaveAccessibleDescription('This password is too common.'));
    expect(visited).toEqual([]);
    expect(Cookies.get('token')).toBeUndefined();
  });

  it('an invitation that ended meanwhile: the message and the way to sign in', async () => {
    routes['POST /v1/invitations/accept'] = () => ({ status: 400, body: { message: 'This invitation has expired.' } });
    const user = userEvent.setup({ delay: null });
    await openInvitation();
    await joinHeading();
    await user.type(field('First name'), 'Nia');
    await user.type(field('Password'), 'long-enough-1');
    await user.type(field('Repeat the password'), 'long-enough-1');
    await user.click(screen.getByRole('button', { name: 'Join Acme DAO' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This invitation has expired.');
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
  });

  it("an invalid or expired link: the server's message and a link to /login, no form", async () => {
    routes['POST /v1/invitations/lookup'] = () => ({
      status: 400,
      body: { message: 'This invitation has expired. Ask for a new one.' },
    });
    await openInvitation('stale');
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation has expired. Ask for a new one.');
    expect(screen.getByRole('heading', { level: 1, name: 'This invitation cannot be used' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });
  it('an address with an account elsewhere joins with its password: no names, no new password', async () => {
    routes['POST /v1/invitations/lookup'] = () => ok({ ...LOOKUP, has_account: true });
    routes['POST /v1/invitations/join'] = (body) =>
      (body as { password: string }).password === 'right-password'
        ? ok({ token: 'joined-token' })
        : { status: 400, body: { message: 'Invalid input', errors: { password: ['Not the password.'] } } };
    const user = userEvent.setup({ delay: null });
    await openInvitation('invite-token-2'); // a token of its own: the page's lookup is cached per token
    await joinHeading();
    expect(screen.getByText(/You already have an account with this address/)).toBeInTheDocument();
    expect(screen.queryByLabelText('First name')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Repeat the password')).not.toBeInTheDocument();
    expect(field('Password')).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/reset');

    await user.click(screen.getByRole('button', { name: 'Join Acme DAO' }));
    expect(field('Password')).toHaveAccessibleDescription('Enter your password.');
    expect(field('Password')).toHaveFocus();
    expect(callsTo('POST /v1/invitations/join')).toHaveLength(0);

    await user.type(field('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Join Acme DAO' }));
    await waitFor(() => expect(field('Password')).toHaveAccessibleDescription('Not the password.'));
    await user.clear(field('Password'));
    await user.type(field('Password'), 'right-password');
    await user.click(screen.getByRole('button', { name: 'Join Acme DAO' }));
    await waitFor(() => expect(visited).toEqual(['/']));
    expect(callsTo('POST /v1/invitations/join')[1]?.body).toEqual({
      token: 'invite-token-2',
      password: 'right-password',
    });
    expect(callsTo('POST /v1/invitations/accept')).toHaveLength(0);
    expect(Cookies.get('token')).toBe('joined-token');
  });
});
