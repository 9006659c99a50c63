/**
 * Test harness for the audience screens: a fake gateway on `fetch` (records every call, answers
 * from route handlers), data factories, and a render with a fresh query cache and a router.
 */
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared';
import type { Contact, CustomAttribute, List, Pagination } from '@console/shared/contracts';

export const GATEWAY = 'http://gw.test';

export interface Call {
  method: string;
  path: string;
  params: URLSearchParams;
  body: unknown;
}

type Reply = { status?: number; body: unknown } | Response;
type Handler = (call: Call, match: Record<string, string>) => Reply | Promise<Reply>;

export function json(body: unknown, status = 200): Reply {
  return { status, body };
}

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

/** Installs the fake on globalThis.fetch. Routes are 'GET /v1/lists/:id'; unknown calls answer 404. */
export function fakeGateway(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  globalThis.fetch = (async (input: Request) => {
    const text = await input.text(); // ky waits for the body to be consumed
    const url = new URL(input.url);
    const call: Call = {
      method: input.method,
      path: url.pathname,
      params: url.searchParams,
      body: text === '' ? undefined : JSON.parse(text),
    };
    calls.push(call);
    for (const [route, handler] of Object.entries(routes)) {
      const [method, pattern = ''] = route.split(' ');
      if (method !== call.method) continue;
      const match = matchPath(pattern, call.path);
      if (match) return toResponse(await handler(call, match));
    }
    return toResponse(json({ message: `No fake for ${call.method} ${call.path}` }, 404));
  }) as typeof fetch;
  return {
    calls,
    /** Calls to one method + path. */
    to: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path),
    /** The query of the last call to method + path, as a plain object. */
    lastQuery: (method: string, path: string) => {
      const matching = calls.filter((call) => call.method === method && call.path === path);
      const last = matching[matching.length - 1];
      return last ? Object.fromEntries(last.params) : undefined;
    },
  };
}

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

/** Renders `element` at `url` under a route `path` (for useParams), with a fresh query cache. */
export function renderAt(element: ReactElement, { url, path }: { url: string; path: string }) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: 0 }, mutations: { retry: false } },
  });
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
