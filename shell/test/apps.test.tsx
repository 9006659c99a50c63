import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PLAN_FEATURES, TENANT_PERMISSIONS, effectivePermissions } from '@console/shared/access';
import { DEFAULT_CONFIG, PLAN_CHANGED, setRuntimeConfig } from '@console/shared/config';
import type { App } from '@console/shared/contracts';
import { createMemoryRouter, RouterProvider } from '@console/shared/router';
import { consoleStore, type ConsoleUser } from '@console/shared/session';
import { appletModuleId, appletRemoteName, hasApps, withApps } from '../src/apps/apps-menu';
import { resetAppsForTests } from '../src/apps/apps-store';
import { loadApplet, registerApplet } from '../src/apps/applet-remote';
import { AppletPage } from '../src/pages/applet';
import { sidebarFor, type MenuGroup, type MenuSubject } from '../src/menu';

jest.mock('../src/apps/applet-remote', () => ({ loadApplet: jest.fn(), registerApplet: jest.fn() }));
const load = loadApplet as jest.MockedFunction<typeof loadApplet>;
const register = registerApplet as jest.MockedFunction<typeof registerApplet>;

const TOKEN_GATE: App = {
  _id: 'a1',
  name: 'Token Gate',
  slug: 'token-gate',
  description: 'Gated content',
  icon: null,
  manifest_url: 'http://applets.test/mf-manifest.json',
  module: './Page',
};
const DOCS = 'http://gw/docs';
const labUser: MenuSubject = {
  role: 'tenant_admin',
  permissions: effectivePermissions(TENANT_PERMISSIONS, PLAN_FEATURES.growup),
  features: PLAN_FEATURES.growup,
  is_impersonating: false,
  tenant_id: 't1',
};
const labels = (groups: MenuGroup[] | null) => (groups ?? []).map((g) => [g.label, g.items.map((i) => i.label)]);

describe('the Apps rule of the sidebar', () => {
  test('adds an Apps group with each applet, linking to /apps/<slug>, before Developer Docs', () => {
    const groups = withApps(sidebarFor(labUser, DOCS), [TOKEN_GATE, { ...TOKEN_GATE, name: 'Quiz', slug: 'quiz' }]);
    const all = labels(groups);
    expect(all.slice(-2)).toEqual([
      ['Apps', ['Token Gate', 'Quiz']],
      [null, ['Developer Docs']],
    ]);
    const apps = groups?.find((g) => g.label === 'Apps');
    expect(apps?.items).toEqual([
      { label: 'Token Gate', to: '/apps/token-gate', state: 'shown' },
      { label: 'Quiz', to: '/apps/quiz', state: 'shown' },
    ]);
  });

  test('leaves the sidebar as it is without applets, and no sidebar stays no sidebar', () => {
    const groups = sidebarFor(labUser, DOCS);
    expect(withApps(groups, [])).toBe(groups);
    expect(labels(groups)).not.toContainEqual(expect.arrayContaining(['Apps']));
    expect(withApps(null, [TOKEN_GATE])).toBeNull();
  });

  test('only users of a tenant with the tenant sidebar have applets', () => {
    expect(hasApps({ role: 'tenant_admin', tenant_id: 't1' })).toBe(true);
    expect(hasApps({ role: 'staff', tenant_id: 't1' })).toBe(true);
    expect(hasApps({ role: 'super_admin', tenant_id: 't0' })).toBe(false);
    expect(hasApps({ role: 'global_admin', tenant_id: null })).toBe(false);
  });

  test("an applet's remote name and module id come from its slug and module", () => {
    expect(appletRemoteName('token-gate')).toBe('applet_token_gate');
    expect(appletModuleId(TOKEN_GATE)).toBe('applet_token_gate/Page');
  });
});

const USER: ConsoleUser = {
  _id: 'u1',
  email: 'owner@lab.test',
  role: 'tenant_admin',
  permissions: [...labUser.permissions],
  features: [...labUser.features],
  tenant_id: 't1',
  tenant_name: 'Lab Rats',
  first_name: 'Lab',
  last_name: 'Owner',
  avatar: null,
  time_zone: null,
  impersonator: null,
  is_impersonating: false,
  enableExperimentalFeatures: false,
};

describe('/apps/:slug', () => {
  let listed: App[];
  let appsCalls: number;

  beforeAll(() => setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: 'http://gw.test' }));
  beforeEach(() => {
    resetAppsForTests();
    load.mockReset();
    register.mockReset();
    register.mockResolvedValue(undefined);
    listed = [TOKEN_GATE];
    appsCalls = 0;
    consoleStore.setState({ user: USER, token: 'tok' });
    globalThis.fetch = (async (input: Request | string | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (new URL(request.url).pathname !== '/v1/apps') return new Response('{}', { status: 404 });
      appsCalls += 1;
      return new Response(JSON.stringify({ records: listed }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
  });
  afterEach(() => consoleStore.setState({ user: null, token: null }));

  const open = (slug: string) => {
    const router = createMemoryRouter([{ path: '/apps/:slug', element: <AppletPage /> }], {
      initialEntries: [`/apps/${slug}`],
    });
    render(<RouterProvider router={router} />);
  };

  test("loads a listed applet's module and renders its page", async () => {
    load.mockResolvedValue(() => <h1>Gated</h1>);
    open('token-gate');
    expect(await screen.findByRole('heading', { name: 'Gated' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledWith(TOKEN_GATE);
    expect(appsCalls).toBe(1);
  });

  test('never registers or loads an applet the server did not list', async () => {
    listed = [];
    open('token-gate');
    expect(await screen.findByRole('heading', { name: 'App not available' })).toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
    expect(register).not.toHaveBeenCalled();
  });

  test('a failing applet shows "unavailable, retry"; Retry registers it again and loads it', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    // Another id: loaded applets are kept for the page load (the first test's is).
    const broken = { ...TOKEN_GATE, _id: 'a2' };
    listed = [broken];
    load.mockRejectedValueOnce(new Error('offline')).mockResolvedValue(() => <h1>Gated</h1>);
    open('token-gate');
    expect(await screen.findByRole('heading', { name: 'This area is unavailable right now' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(register).toHaveBeenCalledWith(broken, true);
    expect(await screen.findByRole('heading', { name: 'Gated' })).toBeInTheDocument();
  });

  test('the applets are fetched once per session and again after a plan change', async () => {
    load.mockResolvedValue(() => <h1>Gated</h1>);
    open('token-gate');
    await screen.findByRole('heading', { name: 'Gated' });
    expect(appsCalls).toBe(1);
    listed = [];
    act(() => {
      window.dispatchEvent(new CustomEvent(PLAN_CHANGED, { detail: {} }));
    });
    await waitFor(() => expect(appsCalls).toBe(2));
    expect(await screen.findByRole('heading', { name: 'App not available' })).toBeInTheDocument();
  });
});
