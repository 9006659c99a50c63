/**
 * Test kit for the account screens: a fake gateway behind `fetch` (ky passes a Request) that records
 * every call, a session user, and a render with a fresh query cache, a router and the shell's
 * information dialog bound to the shared store (the shell hosts it in the app).
 */
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { DEFAULT_CONFIG, InfoDialog, consoleStore, setRuntimeConfig, useConsole } from '@console/shared';
import type { ConsoleUser } from '@console/shared';
import type { Permission } from '@console/shared/contracts';

export const GATEWAY = 'http://gw.test';

export interface Call {
  method: string;
  path: string;
  params: URLSearchParams;
  headers: Headers;
  body: unknown;
}

type Reply = { status?: number; body: unknown } | Response;
type Handler = (call: Call, match: Record<string, string>) => Reply | Promise<Reply>;

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

/** Installs the fake on globalThis.fetch. Routes are 'METHOD /v1/path/:param'; others answer 404. */
export function fakeGateway(routes: Record<string, Handler>) {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: GATEWAY });
  const calls: Call[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const text = await request.text(); // ky waits for the body to be consumed
    const url = new URL(request.url);
    const call: Call = {
      method: request.method,
      path: url.pathname,
      params: url.searchParams,
      headers: request.headers,
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
  };
  return {
    calls,
    to: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path),
  };
}

export function makeUser(permissions: Permission[] = ['company_settings']): ConsoleUser {
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

/** The shell's information dialog, as its dialogs host shows it from the store. */
function InfoDialogHost() {
  const info = useConsole((s) => s.info);
  return (
    <InfoDialog
      open={info !== null}
      title={info?.title ?? ''}
      html={info?.html ?? ''}
      onClose={() => consoleStore.getState().closeInfo()}
    />
  );
}

/** Renders a page under a router and a fresh query cache, with the store's information dialog. */
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
      <InfoDialogHost />
    </QueryClientProvider>,
  );
  return { ...result, client };
}
