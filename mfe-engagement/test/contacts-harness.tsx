/**
 * Test harness for the audience screens: the shared fake gateway on `fetch` (jest/fake-gateway:
 * records every call, answers from route handlers), data factories, and a render with a fresh query
 * cache and a router.
 */
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from '@console/shared/router';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import type { Contact, CustomAttribute, List } from '@console/shared/contracts';
import { GATEWAY, TEST_QUERY_OPTIONS } from '../../jest/fake-gateway';

/** The shared fake gateway; it leaves the runtime config alone: call setupGatewayConfig first. */
export { GATEWAY, fakeGateway, json, pageOf, type Call } from '../../jest/fake-gateway';

export function setupGatewayConfig() {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: GATEWAY });
}

export function makeContact(i: number, overrides: Partial<Contact> = {}): Contact {
  return {
    _id: `c${i}`,
    email: `user${i}@example.test`,
    wallet: `0x${String(i).padStart(40, '0')}`,
    first_name: `First${i}`,
    last_name: `Last${i}`,
    status: 'subscribed',
    source: 'import',
    created_at: '2026-01-05T10:00:00.000Z',
    updated_at: '2026-01-06T10:00:00.000Z',
    lists: [],
    attributes: {},
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

export function makeAttribute(key: string, type: CustomAttribute['type'], name = key): CustomAttribute {
  return { _id: `a-${key}`, key, name, type, created_at: '2026-01-01T00:00:00.000Z' };
}

/** Renders `element` at `url` under a route `path` (for useParams), with a fresh query cache. */
export function renderAt(element: ReactElement, { url, path }: { url: string; path: string }) {
  const client = new QueryClient(TEST_QUERY_OPTIONS);
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={path} element={element} />
          <Route path="*" element={<p>Elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, client };
}
