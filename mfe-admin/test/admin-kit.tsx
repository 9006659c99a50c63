/**
 * Test kit for the admin screens (mirrors mfe-account's): a fake gateway behind `fetch` (ky passes
 * a Request) that records every call, a signed-in super admin, and a render with a fresh query cache
 * and a router.
 */
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { DEFAULT_CONFIG, consoleStore, setRuntimeConfig } from '@console/shared';
import type { ConsoleUser } from '@console/shared';

export const GATEWAY = 'http://gw.test';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

type Reply = { status?: number; body: unknown };
type Handler = (call: Call, match: Record<string, string>) => Reply | Promise<Reply>;

export const json = (body: unknown, status = 200): Reply => ({ status, body });

function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const segment = want[i] ?? '';
    const actual = have[i] ?? '';
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(actual);
    else if (segment !== actual) return null;
  }
  return params;
}

/** Installs the fake on globalThis.fetch. Routes are 'METHOD /v1/path/:param'; others answer 404. */
export function fakeGateway(routes: Record<string, Handler>) {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: GATEWAY });
  const calls: Call[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const text = await request.text();
    const url = new URL(request.url);
    const call: Call = { method: request.method, path: url.pathname, body: text === '' ? undefined : JSON.parse(text) };
    calls.push(call);
    for (const [route, handler] of Object.entries(routes)) {
      const [method, pattern = ''] = route.split(' ');
      if (method !== call.method) continue;
      const match = matchPath(pattern, call.path);
      if (match) {
        const reply = await handler(call, match);
        return new Response(JSON.stringify(reply.body), {
          status: reply.status ?? 200,
          headers: { 'content-type': 'application/json' },
        });
      }
    }
    return new Response(JSON.stringify({ message: `No fake for ${call.method} ${call.path}` }), {
      status: 404,
      headers: { 'content-type': 'application/json' },
    });
  };
  return {
    calls,
    to: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path),
  };
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
    impersonator: null,
    is_impersonating: false,
    enableExperimentalFeatures: false,
  };
}

export function signInAdmin() {
  document.cookie = 'token=admin-token; path=/';
  consoleStore.setState({ token: 'admin-token', user: makeAdmin() });
}

/** Renders a page under a router and a fresh query cache. */
export function renderPage(element: ReactElement, url = '/') {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: 0 }, mutations: { retry: false } },
  });
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
