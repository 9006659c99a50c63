/**
 * The fake gateway the remotes' test kits share: installs itself on `globalThis.fetch` (ky passes a
 * Request; plain fetch a URL and init), records every call in order, and answers from route handlers.
 *
 * This file lives outside the workspaces, so it may only use the DOM's globals: no package imports
 * (they would not resolve from here). Each kit adds what needs its packages: the runtime config, the
 * store, its data factories and its render helper.
 */

/** The gateway's origin in tests; kits point the runtime config at it. */
export const GATEWAY = 'http://gw.test';

export interface Call {
  method: string;
  /** Origin + path for calls outside the gateway, path for gateway calls. */
  path: string;
  params: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export type Reply = { status?: number; body: unknown } | Response;
export type Handler = (call: Call, match: Record<string, string>) => Reply | Promise<Reply>;
/** 'GET /v1/widgets/:id' for the gateway, or 'PUT http://storage.test/...' for other hosts. */
export type FakeRoutes = Record<string, Handler>;

export const json = (body: unknown, status = 200): Reply => ({ status, body });

/** A call's JSON body as a record (empty when it had none). */
export function bodyOf(call: Call): Record<string, unknown> {
  const { body } = call;
  return typeof body === 'object' && body !== null ? Object.fromEntries(Object.entries(body)) : {};
}

export function toResponse(reply: Reply): Response {
  if (reply instanceof Response) return reply;
  return new Response(JSON.stringify(reply.body), {
    status: reply.status ?? 200,
    headers: { 'content-type': 'application/json' },
  });
}

/** The ':param' segments of `path` when it matches `pattern` segment by segment, else null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
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

/** JSON when the content type says so, the text otherwise, undefined when empty. */
export function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return undefined;
  return contentType?.includes('json') ? JSON.parse(text) : text;
}

/**
 * Replaces globalThis.fetch with `respond`, given the request and its body as text (the body is always
 * read: ky waits for it to be consumed).
 */
export function installFetch(respond: (request: Request, text: string) => Response | Promise<Response>) {
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const text = await request.text();
    return respond(request, text);
  };
}

/** Helpers over the recorded calls. */
export function recorder(calls: Call[]) {
  const to = (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path);
  return {
    calls,
    /** Calls to one method + path. */
    to,
    /** The query of the last call to method + path, as a plain object. */
    lastQuery: (method: string, path: string) => {
      const last = to(method, path).at(-1);
      return last ? Object.fromEntries(last.params) : undefined;
    },
    /** 'METHOD path' of every call, in order. */
    sequence: () => calls.map((call) => `${call.method} ${call.path}`),
  };
}

/**
 * Installs the fake on globalThis.fetch. The first route whose method and path match answers; others
 * answer 404. Does not touch the runtime config: kits point it at `gateway`.
 */
export function fakeGateway(routes: FakeRoutes, gateway = GATEWAY) {
  const calls: Call[] = [];
  installFetch(async (request, text) => {
    const url = new URL(request.url);
    const call: Call = {
      method: request.method,
      path: url.origin === gateway ? url.pathname : `${url.origin}${url.pathname}`,
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
  });
  return recorder(calls);
}

/** Query client options for tests: no retries, always stale. */
export const TEST_QUERY_OPTIONS = {
  defaultOptions: { queries: { retry: false, staleTime: 0 }, mutations: { retry: false } },
};

/** The tenant admin most screens are tested as (the kits type it as ConsoleUser). */
export function tenantAdmin<P extends string>(permissions: P[]) {
  return {
    _id: 'u1',
    email: 'owner@acme.test',
    role: 'tenant_admin' as const,
    permissions,
    features: [] as never[],
    tenant_id: 't1',
    tenant_name: 'Acme DAO',
    first_name: 'Ada',
    last_name: 'Owner',
    avatar: null,
    time_zone: null,
    impersonator: null,
    is_impersonating: false,
    enableExperimentalFeatures: false,
  };
}

/** Signs `user` in: the session cookie and the store's token and user. */
export function signInAs<U>(
  store: { setState(state: { token: string; user: U }): void },
  user: U,
  token = 'session-token',
) {
  document.cookie = `token=${token}; path=/`;
  store.setState({ token, user });
}

/** A list response for `records` as page `page` of `count` results. */
export function pageOf<T>(records: readonly T[], count = records.length, page = 1, perPage = 10) {
  const starting = count === 0 ? 0 : (page - 1) * perPage + 1;
  const pagination = {
    starting,
    ending: count === 0 ? 0 : starting + records.length - 1,
    count,
    previous: page > 1 ? page - 1 : null,
    next: page * perPage < count ? page + 1 : null,
  };
  return { records, pagination };
}
