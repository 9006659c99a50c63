/**
 * Test kit for the audience screens (import, segments, custom attributes): a fake gateway with
 * overridable routes (on the fetch installer and path matching of jest/fake-gateway) and a render
 * helper with a fresh query cache and a router.
 */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from '@console/shared/router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import { GATEWAY, TEST_QUERY_OPTIONS, installFetch, matchPath } from '../../jest/fake-gateway';

export { GATEWAY };

export interface FakeRequest {
  method: string;
  path: string;
  search: URLSearchParams;
  /** The body as text (every body is read: ky hangs on an unread one). */
  text: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
  params: Record<string, string>;
  contentType: string | null;
}

type Reply = unknown;
type Handler = (request: FakeRequest) => Reply | Promise<Reply>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A 400 like the gateway's: {message, errors}. */
export const badRequest = (errors: Record<string, string[]>, message = 'Check the highlighted fields.') =>
  json({ message, errors }, 400);

/** Install a fake gateway on globalThis.fetch. Routes are 'METHOD /path/:param'; unknown routes answer 404. */
export function fakeGateway() {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: GATEWAY });
  const routes: { method: string; pattern: string; handler: Handler }[] = [];
  const calls: FakeRequest[] = [];
  installFetch(async (input, text) => {
    const url = new URL(input.url);
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const base: Omit<FakeRequest, 'params'> = {
      method: input.method,
      path: url.pathname,
      search: url.searchParams,
      text,
      json: parsed,
      contentType: input.headers.get('content-type'),
    };
    // Later routes win, so a test can override a default.
    for (const route of [...routes].reverse()) {
      if (route.method !== input.method) continue;
      const params = matchPath(route.pattern, url.pathname);
      if (!params) continue;
      const request = { ...base, params };
      calls.push(request);
      const reply = await route.handler(request);
      if (reply instanceof Response) return reply;
      return json(reply);
    }
    calls.push({ ...base, params: {} });
    return json({ message: 'Not found' }, 404);
  });

  return {
    calls,
    /** Answer 'METHOD /path/:param' with the handler's reply (a Response, or a value sent as JSON). */
    on(route: string, handler: Handler) {
      const [method = 'GET', pattern = '/'] = route.split(' ');
      routes.push({ method, pattern, handler });
    },
    /** Calls made to 'METHOD /path' (exact path). */
    callsTo(route: string) {
      const [method, path] = route.split(' ');
      return calls.filter((c) => c.method === method && c.path === path);
    },
  };
}

export const pagination = (count: number, perPage = 10) => ({
  starting: count === 0 ? 0 : 1,
  ending: Math.min(count, perPage),
  count,
  previous: null,
  next: count > perPage ? 2 : null,
});

export const pageOf = <T,>(records: T[]) => ({ records, pagination: pagination(records.length) });

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/** Render a page at `path` with a fresh query cache; `screen.getByTestId('location')` shows where it is. */
export function renderPage(page: ReactElement, { path = '/', route = '*' }: { path?: string; route?: string } = {}) {
  const client = new QueryClient(TEST_QUERY_OPTIONS);
  const utils = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={page} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...utils, client };
}
