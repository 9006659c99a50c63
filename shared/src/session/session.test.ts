import { waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { consoleStore, type ConsoleUser } from './store';
import { api } from '@console/shared/api';
import { SESSION_REFRESHED } from '@console/shared/config';
import { MessageResponse } from '@console/shared/contracts/core';
import {
  INVALID_CREDENTIALS,
  navigation,
  signIn,
  signOut,
  startImpersonation,
  stopImpersonation,
  refreshPermissions,
  replaceSessionToken,
  signInWithToken,
} from './actions';
import { setRuntimeConfig, DEFAULT_CONFIG } from '@console/shared/config';

type Handler = (
  body: unknown,
  headers: Headers,
) => { status: number; body?: unknown; headers?: Record<string, string> };
let routes: Record<string, Handler> = {};
const calls: { path: string; auth: string | null; body: unknown }[] = [];

const user = (over: Record<string, unknown> = {}) => ({
  _id: 'u1',
  email: 'owner@acme.test',
  role: 'tenant_admin',
  permissions: ['manage_contacts'],
  features: ['manage_contacts'],
  tenant_id: 't1',
  tenant_name: 'Lab Rats',
  first_name: 'Ada',
  last_name: 'Owner',
  avatar: null,
  time_zone: null,
  impersonator: null,
  ...over,
});

beforeAll(() => {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: 'http://gw.test', experimentalPrefix: 'lab' });
  globalThis.fetch = (async (input: Request | string | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url).pathname;
    const text = await request.text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    calls.push({ path, auth: request.headers.get('Authorization'), body });
    const handler = routes[path];
    const res = handler ? handler(body, request.headers) : { status: 404, body: { message: 'Not found' } };
    return new Response(res.body === undefined ? '' : JSON.stringify(res.body), {
      status: res.status,
      headers: { 'content-type': 'application/json', ...res.headers },
    });
  }) as typeof fetch;
});

let visited: string[] = [];
beforeEach(() => {
  visited = [];
  navigation.assign = (url) => void visited.push(url);
  calls.length = 0;
  routes = {};
  Cookies.remove('token');
  Cookies.remove('admin_token');
  consoleStore.setState({
    user: null,
    token: null,
    busy: false,
    error: false,
    email: '',
    password: '',
    sessionVersion: null,
  });
});

test('sign-in: sets token cookie, loads the user, sets client flags, goes to /', async () => {
  Cookies.set('admin_token', 'stale');
  routes['/v1/auth/login'] = () => ({ status: 200, body: { token: 'tok-1' } });
  routes['/v1/auth/verify'] = () => ({ status: 200, body: { user: user() } });
  consoleStore.setState({ email: 'owner@acme.test', password: 'pw' });
  await signIn();
  expect(Cookies.get('token')).toBe('tok-1');
  expect(Cookies.get('admin_token')).toBeUndefined();
  expect(calls[0]).toMatchObject({ path: '/v1/auth/login', body: { email: 'owner@acme.test', password: 'pw' } });
  expect(calls[1]).toMatchObject({ path: '/v1/auth/verify', body: { token: 'tok-1' } });
  const state = consoleStore.getState();
  expect(state.user).toMatchObject({
    email: 'owner@acme.test',
    is_impersonating: false,
    enableExperimentalFeatures: true,
  });
  expect(state.busy).toBe(false);
  expect(state.password).toBe('');
  expect(visited).toEqual(['/']);
});

test('sign-in failure: busy cleared, server message as error', async () => {
  routes['/v1/auth/login'] = () => ({ status: 429, body: { message: 'Too many attempts. Try again in 15 minutes.' } });
  await signIn();
  expect(consoleStore.getState()).toMatchObject({ busy: false, error: 'Too many attempts. Try again in 15 minutes.' });
  expect(visited).toEqual([]);
});

test('sign-in failure without a server message: the fallback text', async () => {
  routes['/v1/auth/login'] = () => ({ status: 500 });
  await signIn();
  expect(consoleStore.getState().error).toBe(INVALID_CREDENTIALS);
});

test('sign-in with an issued token (an accepted invitation): as the login form ends, without a login call', async () => {
  Cookies.set('admin_token', 'stale');
  routes['/v1/auth/verify'] = () => ({ status: 200, body: { user: user({ email: 'new@acme.test' }) } });
  await signInWithToken('tok-invited');
  expect(calls.map((c) => c.path)).toEqual(['/v1/auth/verify']);
  expect(calls[0]?.body).toEqual({ token: 'tok-invited' });
  expect(Cookies.get('token')).toBe('tok-invited');
  expect(Cookies.get('admin_token')).toBeUndefined();
  expect(consoleStore.getState()).toMatchObject({ token: 'tok-invited', user: { email: 'new@acme.test' } });
  expect(visited).toEqual(['/']);
});

test('sign-in with a token that does not verify: rejects, no user, no navigation', async () => {
  routes['/v1/auth/verify'] = () => ({ status: 401, body: { message: 'Session expired.' } });
  await expect(signInWithToken('tok-bad')).rejects.toMatchObject({ status: 401 });
  expect(consoleStore.getState().user).toBeNull();
  expect(visited).toEqual([]);
});

test('replacing the session token: cookie and store take the new one, the user stays, nothing is called', async () => {
  Cookies.set('token', 'tok-old');
  const signedIn: ConsoleUser = {
    ...user(),
    role: 'tenant_admin',
    permissions: ['manage_contacts'],
    features: ['manage_contacts'],
    is_impersonating: false,
    enableExperimentalFeatures: false,
  };
  consoleStore.setState({ token: 'tok-old', user: signedIn });
  replaceSessionToken('tok-new');
  expect(Cookies.get('token')).toBe('tok-new');
  expect(consoleStore.getState().token).toBe('tok-new');
  expect(consoleStore.getState().user).toBe(signedIn);
  expect(calls).toEqual([]);
  expect(visited).toEqual([]);
});

test('requests carry the bearer token from the cookie', async () => {
  Cookies.set('token', 'tok-9');
  routes['/v1/auth/verify'] = () => ({ status: 200, body: { user: user() } });
  await refreshPermissions();
  expect(calls[0]?.auth).toBe('Bearer tok-9');
});

test('sign-out: ends both tokens on the server, clears user, token, fields and both cookies, reloads to /login', async () => {
  Cookies.set('token', 'a');
  Cookies.set('admin_token', 'b');
  consoleStore.setState({ token: 'a', email: 'x', password: 'y' });
  routes['/v1/auth/logout'] = () => ({ status: 204 });
  signOut();
  expect(Cookies.get('token')).toBeUndefined();
  expect(Cookies.get('admin_token')).toBeUndefined();
  expect(consoleStore.getState()).toMatchObject({ user: null, token: null, email: '', password: '' });
  expect(visited).toEqual(['/login']);
  await waitFor(() =>
    expect(calls.filter((c) => c.path === '/v1/auth/logout').map((c) => c.auth)).toEqual(['Bearer a', 'Bearer b']),
  );
});

test('sign-out still clears everything and reloads when the logout call fails', async () => {
  Cookies.set('token', 'a');
  const failing = globalThis.fetch;
  globalThis.fetch = () => Promise.reject(new TypeError('network down'));
  try {
    signOut();
    expect(Cookies.get('token')).toBeUndefined();
    expect(consoleStore.getState()).toMatchObject({ user: null, token: null });
    expect(visited).toEqual(['/login']);
    await new Promise((r) => setTimeout(r, 0)); // the rejected call is swallowed
  } finally {
    globalThis.fetch = failing;
  }
});

test('impersonation start and stop swap tokens through admin_token', async () => {
  Cookies.set('token', 'admin-tok');
  routes['/v1/auth/impersonate'] = () => ({ status: 200, body: { token: 'imp-tok' } });
  routes['/v1/auth/verify'] = (b) => {
    const token = (b as { token: string }).token;
    return {
      status: 200,
      body: {
        user:
          token === 'imp-tok'
            ? user({ impersonator: { _id: 'a', email: 'admin@console.test' } })
            : user({ role: 'super_admin', email: 'admin@console.test' }),
      },
    };
  };
  await startImpersonation('00000000-0000-0000-0000-000000000001');
  expect(Cookies.get('admin_token')).toBe('admin-tok');
  expect(Cookies.get('token')).toBe('imp-tok');
  expect(consoleStore.getState().user?.is_impersonating).toBe(true);
  await stopImpersonation();
  expect(Cookies.get('token')).toBe('admin-tok');
  expect(Cookies.get('admin_token')).toBeUndefined();
  expect(consoleStore.getState().user).toMatchObject({ email: 'admin@console.test', is_impersonating: false });
  expect(visited).toEqual(['/', '/']);
});

test('impersonation failure: error true, busy cleared, cookies untouched', async () => {
  Cookies.set('token', 'admin-tok');
  routes['/v1/auth/impersonate'] = () => ({ status: 403, body: { message: 'Forbidden' } });
  await startImpersonation('00000000-0000-0000-0000-000000000001');
  expect(consoleStore.getState()).toMatchObject({ error: true, busy: false });
  expect(Cookies.get('token')).toBe('admin-tok');
  expect(Cookies.get('admin_token')).toBeUndefined();
});

test('the store is one object on globalThis, shared by every bundle', () => {
  expect((globalThis as { __consoleStore?: unknown }).__consoleStore).toBe(consoleStore);
});

test('openPlans / closePlans: any bundle opens the plan picker the shell hosts', () => {
  consoleStore.setState({ plans: { open: false, currentPriceId: null } });
  consoleStore.getState().openPlans();
  expect(consoleStore.getState().plans).toEqual({ open: true, currentPriceId: null });
  consoleStore.getState().closePlans();
  expect(consoleStore.getState().plans.open).toBe(false);
  consoleStore.getState().openPlans({ currentPriceId: 'price_startup1_monthly' });
  expect(consoleStore.getState().plans).toEqual({ open: true, currentPriceId: 'price_startup1_monthly' });
});

describe('refreshing permissions when the access version changes (spec section 4)', () => {
  const version = (v: string) => ({ 'x-session-version': v });

  test("the session check's version is kept; answers with the same version change nothing", async () => {
    Cookies.set('token', 'tok-1');
    routes['/v1/auth/verify'] = () => ({ status: 200, body: { user: user() }, headers: version('v1') });
    routes['/v1/profile'] = () => ({ status: 200, body: { message: 'ok' }, headers: version('v1') });
    await refreshPermissions();
    expect(consoleStore.getState().sessionVersion).toBe('v1');
    await api.get('/v1/profile', MessageResponse);
    await api.get('/v1/profile', MessageResponse);
    expect(calls.filter((c) => c.path === '/v1/auth/verify')).toHaveLength(1);
  });

  test('another version re-verifies once and reloads the user in the store, and says so to the shell', async () => {
    Cookies.set('token', 'tok-1');
    routes['/v1/auth/verify'] = () => ({ status: 200, body: { user: user() }, headers: version('v1') });
    await refreshPermissions();
    const refreshed = jest.fn();
    window.addEventListener(SESSION_REFRESHED, refreshed);
    // The owner granted Templates: the next answers carry the new version, a refusal included.
    routes['/v1/auth/verify'] = () => ({
      status: 200,
      body: { user: user({ permissions: ['manage_contacts', 'templates'] }) },
      headers: version('v2'),
    });
    routes['/v1/profile'] = () => ({ status: 200, body: { message: 'ok' }, headers: version('v2') });
    routes['/v1/templates'] = () => ({ status: 403, body: { message: 'No.' }, headers: version('v2') });
    await Promise.all([
      api.get('/v1/profile', MessageResponse),
      api.get('/v1/templates', MessageResponse).catch(() => undefined),
    ]);
    await waitFor(() => expect(consoleStore.getState().user?.permissions).toEqual(['manage_contacts', 'templates']));
    expect(calls.filter((c) => c.path === '/v1/auth/verify')).toHaveLength(2);
    expect(consoleStore.getState().sessionVersion).toBe('v2');
    await waitFor(() => expect(refreshed).toHaveBeenCalledTimes(1));
    window.removeEventListener(SESSION_REFRESHED, refreshed);
  });

  test('signed out: answers with a version refresh nothing', async () => {
    routes['/v1/profile'] = () => ({ status: 200, body: { message: 'ok' }, headers: version('v9') });
    consoleStore.setState({ sessionVersion: 'v1' });
    await api.get('/v1/profile', MessageResponse);
    expect(calls.filter((c) => c.path === '/v1/auth/verify')).toHaveLength(0);
  });
});
