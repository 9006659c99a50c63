import ky, { HTTPError, type Options } from 'ky';
import Cookies from 'js-cookie';
import type * as z from 'zod/mini';
import type { ApiErrorBody } from '@console/shared/contracts/core';
import { runtimeConfig } from '@console/shared/config';

/**
 * Every failed call surfaces as this: status plus the server's {message, errors} body (message ''
 * when the server sent none; status 0 for a network failure).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message || `Request failed (${status})`);
    this.name = 'ApiError';
  }
  /** Field errors as {field: firstMessage}, for forms. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, messages] of Object.entries(this.body.errors ?? {})) {
      if (messages[0]) out[field] = messages[0];
    }
    return out;
  }
}

export const NETWORK_ERROR_MESSAGE = 'The server could not be reached. Check your connection and try again.';
/** A download whose connection ended before the end of the file: nothing is saved. */
export const DOWNLOAD_INTERRUPTED_MESSAGE =
  'The download stopped before the end of the file. Nothing was saved: please try again.';

async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof HTTPError) {
    // The schemas load with the first answer that needs them, not with the sign-in screen.
    const [raw, { ApiErrorBody }] = await Promise.all([
      error.response.json().catch(() => null) as Promise<unknown>,
      import('@console/shared/contracts/core'),
    ]);
    const parsed = ApiErrorBody.safeParse(raw);
    // No server message: body.message stays empty so callers can show their own fallback text.
    const body = parsed.success ? parsed.data : { message: '' };
    return new ApiError(error.response.status, body);
  }
  if (error instanceof ApiError) return error;
  return new ApiError(0, { message: NETWORK_ERROR_MESSAGE });
}

/** The answer header carrying the signed-in session's access version (the gateway's app.ts). */
export const SESSION_VERSION_HEADER = 'X-Session-Version';

type SessionVersionListener = (version: string, path: string) => void;
const sessionVersionListeners = new Set<SessionVersionListener>();

/**
 * Calls `listener` with the access version every answer of the gateway carries, and the path it
 * answered; the session entry uses it to refresh permissions when it changes (spec section 4).
 * Returns the unsubscribe.
 */
export function onSessionVersion(listener: SessionVersionListener): () => void {
  sessionVersionListeners.add(listener);
  return () => sessionVersionListeners.delete(listener);
}

/** The one ky instance: gateway base URL from runtime config, bearer header from the token cookie. */
function client() {
  return ky.create({
    prefixUrl: runtimeConfig().gatewayUrl,
    retry: 0,
    timeout: 30_000,
    hooks: {
      beforeRequest: [
        (request) => {
          const token = Cookies.get('token');
          if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
      afterResponse: [
        (request, _options, response) => {
          const version = response.headers.get(SESSION_VERSION_HEADER);
          if (!version) return;
          const path = new URL(request.url).pathname;
          for (const listener of sessionVersionListeners) listener(version, path);
        },
      ],
    },
  });
}

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

async function send<S extends z.ZodMiniType>(
  method: Method,
  path: string,
  schema: S,
  options: Options = {},
): Promise<z.infer<S>> {
  try {
    const data: unknown = await client()(path.replace(/^\//, ''), { ...options, method }).json();
    return schema.parse(data);
  } catch (error) {
    throw await toApiError(error);
  }
}

type Search = Record<string, string | number | boolean>;

export const api = {
  get: <S extends z.ZodMiniType>(path: string, schema: S, searchParams?: Search) =>
    send('get', path, schema, searchParams ? { searchParams } : {}),
  post: <S extends z.ZodMiniType>(path: string, schema: S, json?: unknown) => send('post', path, schema, { json }),
  patch: <S extends z.ZodMiniType>(path: string, schema: S, json?: unknown) => send('patch', path, schema, { json }),
  put: <S extends z.ZodMiniType>(path: string, schema: S, json?: unknown) => send('put', path, schema, { json }),
  delete: <S extends z.ZodMiniType>(path: string, schema: S, json?: unknown) =>
    send('delete', path, schema, json === undefined ? {} : { json }),
  /** POST a file as the raw body (e.g. a CSV import); no time limit, the file may be large. */
  upload: <S extends z.ZodMiniType>(path: string, schema: S, body: Blob, searchParams?: Search) =>
    send('post', path, schema, {
      body,
      timeout: false,
      headers: { 'Content-Type': body.type || 'application/octet-stream' },
      ...(searchParams ? { searchParams } : {}),
    }),
  /**
   * GET a file (e.g. a CSV export) with the session's token, as a Blob to save. The gateway fails a
   * download it cannot finish by cutting the connection before the end: reading the body then rejects
   * and the file is never offered as complete (DOWNLOAD_INTERRUPTED_MESSAGE, status 0).
   */
  download: async (path: string, searchParams?: Search): Promise<Blob> => {
    let response: Response;
    try {
      response = await client()(path.replace(/^\//, ''), {
        method: 'get',
        timeout: false,
        ...(searchParams ? { searchParams } : {}),
      });
    } catch (error) {
      throw await toApiError(error);
    }
    try {
      return await response.blob();
    } catch {
      throw new ApiError(0, { message: DOWNLOAD_INTERRUPTED_MESSAGE });
    }
  },
};

/** Offer a Blob to the user as a file download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export { toApiError };
