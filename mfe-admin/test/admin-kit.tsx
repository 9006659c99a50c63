/**
 * Test kit for the admin screens (mirrors mfe-account's): the shared fake gateway behind `fetch`
 * (jest/fake-gateway, records every call), a signed-in super admin, and a render with a fresh query cache
 * and a router.
 */
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from '@console/shared/router';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import { consoleStore } from '@console/shared/session';
import type { ConsoleUser } from '@console/shared/session';
import type { Applet } from '@console/shared/contracts';
import {
  GATEWAY,
  TEST_QUERY_OPTIONS,
  fakeGateway as installGateway,
  signInAs,
  type FakeRoutes,
} from '../../jest/fake-gateway';

export { GATEWAY, json, type Call } from '../../jest/fake-gateway';

/** Installs the fake gateway (jest/fake-gateway) on globalThis.fetch and points the runtime config at it. */
export function fakeGateway(routes: FakeRoutes) {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: GATEWAY });
  return installGateway(routes);
}

export function makeAdmin(): ConsoleUser {
  return {
    _id: 'u-admin',
    email: 'admin@console.test',
    role: 'super_admin',
    permissions: ['admin_tenants', 'admin_plans', 'admin_applets'],
    features: [],
    tenant_id: 't-platform',
    tenant_name: 'Console Platform',
    first_name: 'Sam',
    last_name: 'Admin',
    avatar: null,
    time_zone: null,
    impersonator: null,
    is_impersonating: false,
    enableExperimentalFeatures: false,
  };
}

export function signInAdmin() {
  signInAs(consoleStore, makeAdmin(), 'admin-token');
}

/** Renders a page under a router and a fresh query cache. */
export function renderPage(element: ReactElement, url = '/') {
  const client = new QueryClient(TEST_QUERY_OPTIONS);
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="*" element={element} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, client };
}

/** An applet as GET /v1/applets answers it. */
export function applet(over: Partial<Applet> = {}): Applet {
  return {
    _id: 'a-1',
    name: 'Token gate',
    slug: 'token-gate',
    description: 'Content for token holders.',
    icon: null,
    manifest_url: 'https://applets.example.com/token-gate/mf-manifest.json',
    module: './Page',
    plan_ids: ['p-startup'],
    enabled: true,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-02T10:00:00.000Z',
    ...over,
  };
}
