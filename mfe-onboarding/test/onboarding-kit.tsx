/**
 * Test kit for the onboarding screens: the shared fake gateway (jest/fake-gateway, which also fakes
 * storage and records every call in order with its headers), data factories, a session user, and a
 * render with a fresh query cache.
 */
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from '@console/shared/router';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import { consoleStore, type ConsoleUser } from '@console/shared/session';
import type { Community, List, Permission, WidgetDetail } from '@console/shared/contracts';
import {
  GATEWAY,
  TEST_QUERY_OPTIONS,
  fakeGateway as installGateway,
  signInAs,
  tenantAdmin,
  type FakeRoutes,
} from '../../jest/fake-gateway';

export { GATEWAY, bodyOf, json, pageOf, type Call } from '../../jest/fake-gateway';

export const STORAGE = 'http://storage.test';

/**
 * Installs the fake gateway (jest/fake-gateway) on globalThis.fetch and points the runtime config at
 * it. Routes are 'GET /v1/widgets/:id' for the gateway, or 'PUT http://storage.test/...' for other hosts.
 */
export function fakeGateway(routes: FakeRoutes) {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: GATEWAY });
  return installGateway(routes);
}

export function makeUser(permissions: Permission[] = ['manage_community']): ConsoleUser {
  return tenantAdmin(permissions);
}

export function signIn(permissions?: Permission[]) {
  signInAs(consoleStore, makeUser(permissions));
}

export function makeCommunity(overrides: Partial<Community> = {}): Community {
  return {
    _id: 'comm1',
    title: 'Acme DAO',
    description: 'The long description.',
    short_description: 'Builders of things.',
    what_you_get: ['Weekly news'],
    slug: 'acme',
    alias: 'acme',
    logo: 'https://cdn.test/logo.png',
    background: null,
    priority: 20,
    show: true,
    carousel_priority: 0,
    show_on_carousel: false,
    public: true,
    url: 'https://community.test/c/acme',
    list_id: 'lc',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeList(i: number, overrides: Partial<List> = {}): List {
  return {
    _id: `l${i}`,
    name: `List ${i}`,
    description: '',
    autoimport: false,
    community_id: null,
    member_count: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeWidget(i: number, overrides: Partial<WidgetDetail> = {}): WidgetDetail {
  return {
    _id: `w${i}`,
    type: 'Subscription Widget',
    target_id: 'l1',
    target_name: 'List 1',
    url: `https://site${i}.test`,
    count: i * 10,
    created_at: '2026-01-01T00:00:00.000Z',
    sdk_url: 'https://cdn.test/sdk',
    community_id: 'comm1',
    community_alias: 'acme',
    ...overrides,
  };
}

/** Renders a page under a router (with a probe route for links) and a fresh query cache. */
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
