import Cookies from 'js-cookie';
import { setRuntimeConfig, DEFAULT_CONFIG } from '@console/shared/config';
import { consoleStore, navigation } from '@console/shared/session';
import { guard } from '../src/guard';
import { ROUTES } from '../src/routes';

jest.mock('../src/remotes', () => ({
  registerRemotesFor: jest.fn(),
  preloadRoute: jest.fn(),
  startFederation: jest.fn(),
}));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { registerRemotesFor, preloadRoute, startFederation } = require('../src/remotes') as {
  registerRemotesFor: jest.Mock;
  preloadRoute: jest.Mock;
  startFederation: jest.Mock;
};

const route = (name: string) => {
  const r = ROUTES.find((x) => x.name === name);
  if (!r) throw new Error(name);
  return r;
};
let verify: { status: number; body: unknown };
let verifyCalls = 0;
let visited: string[] = [];

const basicOwner = {
  _id: 'u1',
  email: 'owner@basic.test',
  role: 'tenant_admin',
  permissions: ['manage_contacts', 'company_settings', 'manage_community'],
  features: ['manage_contacts'],
  tenant_id: 't1',
  tenant_name: 'Basic Guild',
  first_name: 'B',
  last_name: 'O',
  avatar: null,
  time_zone: null,
  impersonator: null,
};

beforeAll(() => {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: 'http://gw.test' });
  globalThis.fetch = (async (input: Request) => {
    await input.text(); // a server reads the body
    verifyCalls += 1;
    return new Response(JSON.stringify(verify.body), {
      status: verify.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
});
beforeEach(() => {
  verifyCalls = 0;
  visited = [];
  navigation.assign = (url) => void visited.push(url);
  Cookies.remove('token');
  consoleStore.setState({ user: null, token: null, upgrade: { open: false, feature: null } });
  registerRemotesFor.mockClear();
  preloadRoute.mockClear();
  startFederation.mockClear();
  verify = { status: 200, body: { user: basicOwner } };
});

async function outcome(name: string, path: string): Promise<string> {
  try {
    await guard(route(name), path);
    return 'allowed';
  } catch (thrown) {
    if (thrown instanceof Response) return `redirect ${thrown.headers.get('Location')}`;
    throw thrown;
  }
}

test('public routes skip the check entirely', async () => {
  expect(await outcome('login', '/login')).toBe('allowed');
  expect(await outcome('set new password', '/reset/u/t')).toBe('allowed');
  expect(await outcome('invitation', '/invitation/some-token')).toBe('allowed');
  expect(verifyCalls).toBe(0);
  expect(preloadRoute).not.toHaveBeenCalled();
});

test('no token: sign-out and /login, no verification', async () => {
  Cookies.set('admin_token', 'left-over');
  expect(await outcome('engagement/contacts', '/engagement/contacts')).toBe('redirect /login');
  expect(Cookies.get('admin_token')).toBeUndefined();
  expect(verifyCalls).toBe(0);
});

test('verification failure: sign-out and /login', async () => {
  Cookies.set('token', 'bad');
  verify = { status: 401, body: { message: 'Invalid token' } };
  expect(await outcome('overview', '/')).toBe('redirect /login');
  expect(Cookies.get('token')).toBeUndefined();
  expect(consoleStore.getState().user).toBeNull();
});

test('verified and permitted: allowed, user loaded, remotes registered before the page', async () => {
  Cookies.set('token', 'ok');
  expect(await outcome('engagement/contacts', '/engagement/contacts')).toBe('allowed');
  expect(consoleStore.getState().user?.email).toBe('owner@basic.test');
  expect(registerRemotesFor).toHaveBeenCalledTimes(1);
});

test('the preload is offered the last verified user before the verification, never without a token', async () => {
  expect(await outcome('engagement/lists', '/engagement/lists')).toBe('redirect /login');
  expect(preloadRoute).not.toHaveBeenCalled();
  Cookies.set('token', 'ok');
  await outcome('overview', '/');
  const verified = consoleStore.getState().user;
  preloadRoute.mockImplementation(() => expect(verifyCalls).toBe(1)); // the second verify has not started
  await outcome('engagement/lists', '/engagement/lists');
  expect(preloadRoute).toHaveBeenLastCalledWith(route('engagement/lists'), verified);
  expect(verifyCalls).toBe(2);
  preloadRoute.mockReset();
});

test('the federation runtime starts downloading with a token, while it is verified; never on public pages', async () => {
  expect(await outcome('login', '/login')).toBe('allowed');
  expect(await outcome('engagement/contacts', '/engagement/contacts')).toBe('redirect /login');
  expect(startFederation).not.toHaveBeenCalled();
  Cookies.set('token', 'ok');
  const pending = guard(route('overview'), '/');
  expect(startFederation).toHaveBeenCalledTimes(1);
  expect(verifyCalls).toBe(0);
  await pending;
  expect(verifyCalls).toBe(1);
});

test('every route change verifies again', async () => {
  Cookies.set('token', 'ok');
  await outcome('overview', '/');
  await outcome('engagement/lists', '/engagement/lists');
  expect(verifyCalls).toBe(2);
});

test('plan lacks the feature: redirect to / and the upgrade dialog opens', async () => {
  Cookies.set('token', 'ok');
  expect(await outcome('engagement/automations', '/engagement/automations')).toBe('redirect /');
  expect(consoleStore.getState().upgrade).toEqual({ open: true, feature: 'automations' });
});

test('permission missing but plan has it: redirect to / without the dialog', async () => {
  Cookies.set('token', 'ok');
  verify = {
    status: 200,
    body: { user: { ...basicOwner, features: ['manage_contacts', 'templates'], permissions: [] } },
  };
  expect(await outcome('engagement/templates', '/engagement/templates')).toBe('redirect /');
  expect(consoleStore.getState().upgrade.open).toBe(false);
});

describe("a page whose menu entry needs another permission than its route row (spec section 2's header)", () => {
  // The header's Billing entry needs company_settings; so does the page, so its URL never reaches
  // GET /v1/billing (a 403 toast) for a member the entry is hidden from.
  const member = { ...basicOwner, role: 'staff', permissions: ['manage_contacts'] };

  test('a member without company_settings opening /account/billing: back to / without the upgrade dialog', async () => {
    Cookies.set('token', 'ok');
    verify = { status: 200, body: { user: member } };
    expect(await outcome('account/billing', '/account/billing')).toBe('redirect /');
    expect(await outcome('account/general-settings', '/account/general-settings')).toBe('redirect /');
    expect(consoleStore.getState().upgrade.open).toBe(false);
    // Pages whose entry asks nothing more stay open to the member.
    expect(await outcome('account/profile', '/account/profile')).toBe('allowed');
  });

  test('a holder of company_settings opens Billing and General Settings', async () => {
    Cookies.set('token', 'ok');
    expect(await outcome('account/billing', '/account/billing')).toBe('allowed');
    expect(await outcome('account/general-settings', '/account/general-settings')).toBe('allowed');
  });
});

test('advertising paths need impersonation or super_admin', async () => {
  Cookies.set('token', 'ok');
  expect(await outcome('advertising/staking', '/advertising/staking')).toBe('redirect /');
});

test('a network failure is an error, not a sign-out', async () => {
  Cookies.set('token', 'ok');
  globalThis.fetch = (async (input: Request) => {
    await input.text();
    throw new TypeError('Failed to fetch');
  }) as typeof fetch;
  await expect(guard(route('overview'), '/')).rejects.toMatchObject({ status: 0 });
  expect(Cookies.get('token')).toBe('ok');
  expect(visited).toEqual([]);
});
