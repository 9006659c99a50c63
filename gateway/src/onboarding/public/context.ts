/**
 * What the public routes share, built once per gateway: the sign-up throttle (one set of limits for
 * the widget API and the community pages), the pages' CSP and their HTML reply, and the CORS rule.
 *
 * CORS here is per widget, not the console's list: these routes opt out of the global @fastify/cors
 * (`config.cors = false`) and reflect an Origin only when it is the widget website's origin.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { text } from '../../contracts';
import type { Deps } from '../../deps';
import { sendHtml } from '../../lib/html-reply';
import { imageOrigins, pageCsp } from './public-html';
import { clientKey, PublicThrottle } from './public-throttle';
import { checkOrigin, type LoadedWidget } from './public-widgets';

export const tags = ['public'];
export const IdParams = z.object({ id: text(100) });
export const SlugParams = z.object({ slug: text(200) });
export const noCors = { cors: false } as const;

export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/** The widget website's origin may read the answer; any other origin gets no CORS headers. */
export function widgetCors(req: FastifyRequest, reply: FastifyReply, widget: LoadedWidget): void {
  reply.header('Vary', 'Origin');
  const origin = req.headers.origin;
  try {
    checkOrigin(origin, widget);
  } catch {
    return;
  }
  if (origin)
    reply.header('Access-Control-Allow-Origin', origin).header('Access-Control-Expose-Headers', 'Retry-After');
}

export interface PublicContext {
  throttle: PublicThrottle;
  /** An HTML page with the public pages' CSP and security headers. */
  html: (reply: FastifyReply, status: number, body: string) => FastifyReply;
  /** The per-address sign-up limit. */
  addressLimit: (req: FastifyRequest) => { key: string; max: number };
}

export function publicContext({ db, config }: Pick<Deps, 'db' | 'config'>): PublicContext {
  const limits = config.onboarding;
  const csp = pageCsp(imageOrigins(limits));
  return {
    throttle: new PublicThrottle(db, limits.signupWindowMs),
    html: (reply, status, body) => sendHtml(reply, csp, status, body),
    addressLimit: (req) => ({ key: `signup:address:${clientKey(req.ip)}`, max: limits.signupAddressMax }),
  };
}
