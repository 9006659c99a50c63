/**
 * Test kit for the onboarding screens: a fake gateway (and storage) behind `fetch` that records every
 * call in order with its headers, data factories, a session user, and a render with a fresh query cache.
 */
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { DEFAULT_CONFIG, consoleStore, setRuntimeConfig, type ConsoleUser } from '@console/shared';
import type { Community, List, Pagination, Permission, WidgetDetail } from '@console/shared/contracts';

export const GATEWAY = 'http://gw.test';
export const STORAGE = 'http://storage.test';

export interface Call {
  method: string;
  /** Origin + path for calls outside the gateway, path for gateway calls. */
  path: string;
  params: URLSearchParams;
  headers: Headers;
  body: unknown;
}

type Reply = { status?: number; body: unknown } | Response;
type Handler = (call: Call, match: Record<string, string>) => Reply | Promise<Reply>;

/** A call's JSON body as a record (empty when it had none). */
export function bodyOf(call: Call): Record<string, unknown> {
  const { body } = call;
  return typeof body === 'object' && body !== null ? Object.fromEntries(Object.entries(body)) : {};
}

export const json = (body: unknown, status = 200): Reply => ({ status, body });

function toResponse(reply: Reply): Response {
  if (reply instanceof Response) return reply;
  return new Response(JSON.stringify(reply.body), {
    status: reply.status ?? 200,
    headers: { 'content-type': 'application/json' },
  });
}

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

function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return undefined;
  return contentType?.includes('json') ? JSON.parse(text) : text;
}

/**
 * Installs the fake on globalThis.fetch (ky passes a Request; plain fetch a URL and init). Routes are
 * 'GET /v1/widgets/:id' for the gateway, or 'PUT http://storage.test/...' for other hosts.
 */
export function fakeGateway(routes: Record<string, Handler>) {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: GATEWAY });
  const calls: Call[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const text = await request.text(); // ky waits for the body to be consumed
    const url = new URL(request.url);
    const call: Call = {
      method: request.method,
      path: url.origin === GATEWAY ? url.pathname : `${url.origin}${url.pathname}`,
      params: url.searchParams,
      headers: request.headers,
      body: parseBody(text, request.headers.get('content-type')),
    };
    calls.push(call);
    for (const [route, handler] of Object.entries(routes)) {
      const [method, pattern = ''] = route.split(' ');
      if (method !== call.method) continue;
      const match = matchPath(pattern, call.path);
      if (match) return toResponse(await handler(call, match));
    }
    return toResponse(json({ message: `No fake for ${call.method} ${call.path}` }, 404));
  };
  return {
    calls,
    to: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path),
    lastQuery: (method: string, path: string) => {
      const matching = calls.filter((call) => call.method === method && call.path === path);
      const last = matching[matching.length - 1];
      return last ? Object.fromEntries(last.params) : undefined;
    },
    /** 'METHOD path' of every call, in order. */
    sequence: () => calls.map((call) => `${call.method} ${call.path}`),
  };
}

export function makeUser(permissions: Permission[] = ['manage_community']): ConsoleUser {
  return {
    _id: 'u1',
    email: 'owner@acme.test',
    role: 'tenant_admin',
    permissions,
    features: [],
    tenant_id: 't1',
    tenant_name: 'Acme DAO',
    first_name: 'Ada',
    last_name: 'Owner',
    avatar: null,
    impersonator: null,
    is_impersonating: false,
    enableExperimentalFeatures: false,
  };
}

export function signIn(permissions?: Permission[]) {
  document.cookie = 'token=session-token; path=/';
  consoleStore.setState({ token: 'session-token', user: makeUser(permissions) });
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

/** A list response for `records` as page `page` of `count` results. */
export function pageOf<T>(records: readonly T[], count = records.length, page = 1, perPage = 10) {
  const starting = count === 0 ? 0 : (page - 1) * perPage + 1;
  const pagination: Pagination = {
    starting,
    ending: count === 0 ? 0 : starting + records.length - 1,
    count,
    previous: page > 1 ? page - 1 : null,
    next: page * perPage < count ? page + 1 : null,
  };
  return { records, pagination };
}

/** Renders a page under a router (with a probe route for links) and a fresh query cache. */
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
