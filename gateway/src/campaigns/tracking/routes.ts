/**
 * The public addresses in every campaign e-mail (no session; under TRACKING_URL): the open pixel,
 * click redirects, the unsubscribe page and RFC 8058 one-click unsubscribe, and view in browser
 * (spec section 2, engagement/emails). Tokens are signed per recipient and purpose (links.ts).
 *
 * - The pixel answers the same GIF to every request, genuine or not: it never tells whether a token
 *   is real.
 * - A click redirects only to the exact URL its signature covers, i.e. a link that was in that
 *   recipient's e-mail; anything else is a 404 page, never a redirect (no open redirect).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { text } from '../../contracts';
import { sendHtml } from '../../lib/html-reply';
import { queryRows, textOf } from '../../lib/raw-sql';
import { TRACKING_PATHS, verifyClick, verifyRecipientToken, type LinkPurpose } from './links';
import { isMachineRequest } from './machine';
import {
  invalidLinkPage,
  resubscribedPage,
  TRACKING_PAGE_CSP,
  unavailablePage,
  unsubscribeConfirmPage,
  unsubscribedPage,
  type UnsubscribePage,
} from './pages';
import {
  recordClick,
  recordOpen,
  recordResubscribe,
  recordUnsubscribe,
  trackedRecipient,
  type TrackedRecipient,
} from './record';
import { renderForBrowser, VIEW_CSP } from './view';

/** A transparent 1×1 GIF. */
export const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const TokenParams = z.object({ token: text(200) });
const ClickQuery = z.object({ u: z._default(text(8000), '') });
const noCors = { cors: false } as const;

/** RFC 8058: the one-click POST carries `List-Unsubscribe=One-Click` (form-encoded or multipart). */
export const ONE_CLICK = 'One-Click';

function formFields(body: unknown): Record<string, string> {
  if (typeof body !== 'object' || body === null) return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') out[key] = value;
  return out;
}

export const trackingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, clock } = app.deps;
  const secret = config.campaigns.trackingSecret;

  // The unsubscribe forms and RFC 8058 one-click POSTs (these routes only). RFC 8058 allows both
  // encodings; a multipart body is only searched for the one-click field.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 8 * 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 8 * 1024 }, (_req, body, done) => {
    const oneClick = /name="List-Unsubscribe"\r?\n\r?\n\s*One-Click\s*\r?\n/i.test(String(body));
    done(null, oneClick ? { 'List-Unsubscribe': ONE_CLICK } : {});
  });

  const html = (reply: FastifyReply, status: number, body: string) => sendHtml(reply, TRACKING_PAGE_CSP, status, body);

  async function recipientOf(purpose: LinkPurpose, token: string): Promise<TrackedRecipient | null> {
    const id = verifyRecipientToken(secret, purpose, token);
    return id === null ? null : trackedRecipient(db, id);
  }

  function machine(req: FastifyRequest, r: TrackedRecipient, now: Date): boolean {
    return isMachineRequest({ method: req.method, userAgent: req.headers['user-agent'], sentAt: r.sentAt, now });
  }

  // Open pixel: always the GIF; a genuine token records the open.
  app.get(
    `${TRACKING_PATHS.open}/:token`,
    { config: noCors, schema: { hide: true, params: TokenParams } },
    async (req, reply) => {
      const token = req.params.token.endsWith('.gif') ? req.params.token.slice(0, -4) : req.params.token;
      const r = await recipientOf('open', token);
      if (r) {
        const now = clock();
        await recordOpen(db, r, now, machine(req, r, now));
      }
      return reply
        .code(200)
        .type('image/gif')
        .header('Cache-Control', 'no-store, no-cache, must-revalidate, private')
        .header('Pragma', 'no-cache')
        .send(PIXEL);
    },
  );

  // Click: a redirect to exactly the signed URL, or a page saying the link is not valid.
  app.get(
    `${TRACKING_PATHS.click}/:token`,
    { config: noCors, schema: { hide: true, params: TokenParams, querystring: ClickQuery } },
    async (req, reply) => {
      const url = req.query.u;
      const id = /^https?:\/\//i.test(url) ? verifyClick(secret, req.params.token, url) : null;
      const r = id === null ? null : await trackedRecipient(db, id);
      if (!r) return html(reply, 404, invalidLinkPage());
      const now = clock();
      await recordClick(db, r, url, now, machine(req, r, now));
      return reply
        .code(302)
        .header('Location', url)
        .header('Cache-Control', 'no-store')
        .header('Referrer-Policy', 'no-referrer')
        .send();
    },
  );

  async function unsubscribeContext(token: string) {
    const r = await recipientOf('unsubscribe', token);
    if (!r) return null;
    const [row] = await queryRows(
      db,
      sql`select coalesce(nullif(c.title, ''), t.name) as name
            from tenants t left join communities c on c.tenant_id = t.id
           where t.id = ${r.tenantId} limit 1`,
    );
    const page: UnsubscribePage = {
      community: (row && textOf(row, 'name')) || 'this community',
      address: r.address,
      path: `${TRACKING_PATHS.unsubscribe}/${token}`,
    };
    return { r, page };
  }

  app.get(
    `${TRACKING_PATHS.unsubscribe}/:token`,
    { config: noCors, schema: { hide: true, params: TokenParams } },
    async (req, reply) => {
      const found = await unsubscribeContext(req.params.token);
      if (!found) return html(reply, 404, invalidLinkPage());
      return html(reply, 200, unsubscribeConfirmPage(found.page));
    },
  );

  app.post(
    `${TRACKING_PATHS.unsubscribe}/:token`,
    { config: noCors, schema: { hide: true, params: TokenParams } },
    async (req, reply) => {
      const found = await unsubscribeContext(req.params.token);
      const oneClick = formFields(req.body)['List-Unsubscribe'] === ONE_CLICK;
      if (!found) {
        if (oneClick) return reply.code(404).header('Cache-Control', 'no-store').send();
        return html(reply, 404, invalidLinkPage());
      }
      await recordUnsubscribe(db, found.r, clock());
      // RFC 8058: the mail client only needs a success status.
      if (oneClick) return reply.code(200).header('Cache-Control', 'no-store').send();
      return html(reply, 200, unsubscribedPage(found.page));
    },
  );

  app.post(
    `${TRACKING_PATHS.unsubscribe}/:token/resubscribe`,
    { config: noCors, schema: { hide: true, params: TokenParams } },
    async (req, reply) => {
      const found = await unsubscribeContext(req.params.token);
      if (!found) return html(reply, 404, invalidLinkPage());
      const done = await recordResubscribe(db, found.r);
      return html(reply, 200, resubscribedPage(found.page, done));
    },
  );

  app.get(
    `${TRACKING_PATHS.view}/:token`,
    { config: noCors, schema: { hide: true, params: TokenParams } },
    async (req, reply) => {
      const r = await recipientOf('view', req.params.token);
      if (!r) return html(reply, 404, invalidLinkPage());
      const page = await renderForBrowser(db, config, r);
      if (page === null) return html(reply, 404, unavailablePage());
      return sendHtml(reply, VIEW_CSP, 200, page);
    },
  );
};
