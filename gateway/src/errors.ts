import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** The message of every 400 whose details are field errors (the spec's `{message, errors}` shape). */
export const INVALID_INPUT = 'Invalid input';
import type { ApiErrorBody } from './contracts';
import { BUSY_MESSAGE } from './lib/admission';
import { OffLoopRetry } from './lib/off-loop/pool';

export type FieldErrors = Record<string, string[]>;

/** An error whose status and message are meant for the client. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, errors?: FieldErrors) => new HttpError(400, message, errors);
export const unauthorized = (message = 'Your session has expired, please sign in again.') =>
  new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do this.') => new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const conflict = (message: string, errors?: FieldErrors) => new HttpError(409, message, errors);

/** Messages for Fastify's own client errors, keyed by error code. */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Unsupported content type: send application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'The request body does not match its Content-Length.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'The request body is empty: send a JSON object.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'The request body is not valid JSON.' },
};

function fieldKey(context: string | undefined, instancePath: string): string {
  const key = instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
  return key || context || 'body';
}

function send(reply: FastifyReply, status: number, body: ApiErrorBody, headers: Record<string, string> = {}) {
  // An error is never a file to save, even when a download had set its headers before failing.
  reply.removeHeader('Content-Disposition');
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Every error leaves as `{message, errors?}`: 4xx with a message for the client, anything else as a
 * plain 500 that is logged and never shows a stack or internals.
 */
export function errorHandler(error: FastifyError | HttpError | Error, req: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    const body: ApiErrorBody = error.errors
      ? { message: error.message, errors: error.errors }
      : { message: error.message };
    return send(reply, error.statusCode, body, error.headers);
  }
  if (error instanceof OffLoopRetry) {
    // The render pool gave the work up (full, or past its guard): as busy as a full admission queue.
    req.log.warn({ reqId: req.id, reason: error.reason }, 'off-loop work given up');
    return send(reply, 503, { message: BUSY_MESSAGE }, { 'Retry-After': '1' });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: FieldErrors = {};
    const context = 'validationContext' in error ? String(error.validationContext) : undefined;
    for (const issue of error.validation) {
      const key = fieldKey(context === 'querystring' ? 'query' : context, issue.instancePath);
      (errors[key] ??= []).push(issue.message ?? 'Invalid value.');
    }
    return send(reply, 400, { message: INVALID_INPUT, errors });
  }
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  const known = code ? FASTIFY_CLIENT_ERRORS[code] : undefined;
  if (known) {
    // The body may be left unread: do not keep the connection (it would hold up a shutdown).
    return send(reply, known.status, { message: known.message }, { Connection: 'close' });
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (error instanceof SyntaxError && status === 400) {
    return send(reply, 400, { message: 'The request body is not valid JSON.' });
  }
  if (status >= 400 && status < 500) {
    // Fastify's other client errors (bad URL encoding, prototype poisoning...): status kept, message generic.
    req.log.info({ reqId: req.id, code, msg: error.message }, 'client error');
    return send(reply, status, { message: status === 413 ? 'The request body is too large.' : 'Bad request.' });
  }
  req.log.error({ reqId: req.id, err: error }, 'request failed');
  return send(reply, 500, { message: 'Something went wrong on our side. Please try again later.' });
}

export function notFoundHandler(_req: FastifyRequest, reply: FastifyReply) {
  return send(reply, 404, { message: 'Not found.' });
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
}
