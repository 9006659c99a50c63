import { sendHtml } from '../../lib/html-reply';
/**
 * The public side of onboarding (no session): the widget SDK, the widget API it calls from the
 * communities' websites, the double opt-in link, and the community pages with their directory.
 *
 * CORS here is per widget, not the console's list: these routes opt out of the global @fastify/cors
 * (`config.cors = false`) and reflect an Origin only when it is the widget website's origin.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PublicWidget, SDK_FILE, SignupRequest, SignupResponse, SLUG_PATTERN, WalletChallenge } from '../../contracts';
import { GATEWAY_ROOT } from '../../config';
import { communities, lists } from '../../db/schema';
import { HttpError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import {
  communityPage,
  communityPath,
  directoryPage,
  imageOrigins,
  messagePage,
  pageCsp,
  type CommunityPageData,
} from './public-html';
import { COMMUNITY_CSS } from './public-styles';
import { clientKey, PublicThrottle } from './public-throttle';
import { checkOrigin, requireWidget, toPublicWidget, type LoadedWidget } from './public-widgets';
import {
  CHECK_INBOX,
  confirmSignup,
  requestCommunityEmailSignup,
  requestWidgetEmailSignup,
  type ConfirmResult,
} from './signup-email';
import { issueChallenge, SIGNED_UP, walletSignup } from './signup-wallet';
import { normaliseEmail } from '../../audience';

const tags = ['public'];
export const SDK_PATH = path.join(GATEWAY_ROOT, 'sdk', SDK_FILE);
const IdParams = z.object({ id: z.string().max(100) });
const SlugParams = z.object({ slug: z.string().max(200) });
const TOO_MANY_CHALLENGES = 'Too many requests from here. Please try again later.';
const noCors = { cors: false } as const;

function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/** The widget website's origin may read the answer; any other origin gets no CORS headers. */
function widgetCors(req: FastifyRequest, reply: FastifyReply, widget: LoadedWidget): void {
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

export const publicRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const { db, config } = deps;
  const limits = config.onboarding;
  const throttle = new PublicThrottle(db, limits.signupWindowMs);
  const sdk = fs.readFileSync(SDK_PATH, 'utf8');
  const sdkEtag = etagOf(sdk);
  const cssEtag = etagOf(COMMUNITY_CSS);
  const csp = pageCsp(imageOrigins(limits));

  // The community page's form posts application/x-www-form-urlencoded (this plugin's routes only).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 8 * 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  const addressLimit = (req: FastifyRequest) => ({
    key: `signup:address:${clientKey(req.ip)}`,
    max: limits.signupAddressMax,
  });

  const html = (reply: FastifyReply, status: number, body: string) => sendHtml(reply, csp, status, body);

  // ---------------------------------------------------------------------------------------------
  // The SDK and the stylesheet
  // ---------------------------------------------------------------------------------------------

  app.get(
    `/sdk/${SDK_FILE}`,
    { config: noCors, schema: { tags, summary: 'The widget SDK (a plain browser script)', hide: true } },
    async (req, reply) => {
      reply
        .header('Access-Control-Allow-Origin', '*')
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .header('Cache-Control', 'public, max-age=300')
        .header('ETag', sdkEtag)
        .type('application/javascript; charset=utf-8');
      if (req.headers['if-none-match'] === sdkEtag) return reply.code(304).send();
      return reply.send(sdk);
    },
  );

  app.get('/public/assets/community.css', { config: noCors, schema: { hide: true } }, async (req, reply) => {
    reply.header('Cache-Control', 'public, max-age=300').header('ETag', cssEtag).type('text/css; charset=utf-8');
    if (req.headers['if-none-match'] === cssEtag) return reply.code(304).send();
    return reply.send(COMMUNITY_CSS);
  });

  // ---------------------------------------------------------------------------------------------
  // The widget API (called by the SDK from the community's website)
  // ---------------------------------------------------------------------------------------------

  app.get(
    '/public/widgets/:id',
    {
      config: noCors,
      schema: {
        tags,
        summary: 'A widget as the SDK draws it',
        params: IdParams,
        response: { 200: PublicWidget, ...errorResponses(404) },
      },
    },
    async (req, reply) => {
      // Nothing private in here: any page may read it (the sign-up itself is bound to the widget's site).
      reply.header('Access-Control-Allow-Origin', '*');
      const widget = await requireWidget(db, req.params.id);
      reply.header('Cache-Control', 'public, max-age=60');
      return toPublicWidget(widget);
    },
  );

  app.get(
    '/public/widgets/:id/challenge',
    {
      config: noCors,
      schema: {
        tags,
        summary: 'A one-time message for a wallet to sign (valid 10 minutes)',
        params: IdParams,
        response: { 200: WalletChallenge, ...errorResponses(403, 404, 429) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const widget = await requireWidget(db, req.params.id);
      widgetCors(req, reply, widget);
      checkOrigin(req.headers.origin, widget);
      await throttle.enforce(
        [{ key: `challenge:address:${clientKey(req.ip)}`, max: limits.signupAddressMax * 3 }],
        TOO_MANY_CHALLENGES,
      );
      return issueChallenge(deps, widget);
    },
  );

  app.options(
    '/public/widgets/:id/signups',
    { config: noCors, schema: { hide: true, params: IdParams } },
    async (req, reply) => {
      const widget = await requireWidget(db, req.params.id);
      widgetCors(req, reply, widget);
      if (reply.hasHeader('Access-Control-Allow-Origin')) {
        reply
          .header('Access-Control-Allow-Methods', 'POST')
          .header('Access-Control-Allow-Headers', 'Content-Type')
          .header('Access-Control-Max-Age', '600');
      }
      return reply.code(204).send();
    },
  );

  app.post(
    '/public/widgets/:id/signups',
    {
      config: noCors,
      schema: {
        tags,
        summary: 'Sign up through a widget: an e-mail address (double opt-in) or a signed wallet challenge',
        description:
          'E-mail: always 202 with the same message (whether or not the address was subscribed already); ' +
          'the contact is added when the link in the e-mail is opened. Wallet: 200 once the signature of ' +
          'the challenge is verified. Only from the widget website (Origin), rate-limited per address and widget.',
        params: IdParams,
        body: SignupRequest,
        response: { 200: SignupResponse, 202: SignupResponse, ...errorResponses(400, 403, 404, 413, 415, 429) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const widget = await requireWidget(db, req.params.id);
      widgetCors(req, reply, widget);
      checkOrigin(req.headers.origin, widget);
      await throttle.enforce([addressLimit(req), { key: `signup:widget:${widget.id}`, max: limits.signupWidgetMax }]);
      const body = req.body;
      if ('email' in body) {
        await requestWidgetEmailSignup(deps, throttle, widget, body.email);
        return reply.code(202).send({ message: CHECK_INBOX });
      }
      await walletSignup(deps, widget, body);
      return reply.code(200).send({ message: SIGNED_UP });
    },
  );

  // ---------------------------------------------------------------------------------------------
  // The confirmation link of e-mail sign-ups
  // ---------------------------------------------------------------------------------------------

  const confirmPages: Record<ConfirmResult['status'], { status: number; heading: string; message: string }> = {
    confirmed: { status: 200, heading: 'Subscription confirmed', message: '' },
    expired: {
      status: 400,
      heading: 'This link has expired',
      message: 'Confirmation links are valid for a limited time. Please sign up again to get a new one.',
    },
    unknown: {
      status: 404,
      heading: 'This link is not valid',
      message:
        'We could not find this confirmation link. Please check that you opened the whole link, or sign up again.',
    },
    closed: {
      status: 404,
      heading: 'Sign-ups are closed',
      message: 'This community no longer takes sign-ups from this link.',
    },
  };

  app.get(
    '/public/signups/confirm',
    { config: noCors, schema: { hide: true, querystring: z.object({ token: z.string().max(4096).optional() }) } },
    async (req, reply) => {
      const result = await confirmSignup(deps, req.query.token ?? '');
      const page = confirmPages[result.status];
      const message =
        result.status === 'confirmed' ? `Thank you! You are now subscribed to ${result.title}.` : page.message;
      return html(reply, page.status, messagePage(page.heading, message));
    },
  );

  // ---------------------------------------------------------------------------------------------
  // Community pages and the directory
  // ---------------------------------------------------------------------------------------------

  interface ShownCommunity extends CommunityPageData {
    id: string;
    tenantId: string;
    listId: string | null;
  }

  async function shownCommunity(rawSlug: string): Promise<ShownCommunity | null> {
    const slug = rawSlug.toLowerCase();
    if (slug.length > 100 || !SLUG_PATTERN.test(slug)) return null;
    const [row] = await db
      .select({
        id: communities.id,
        tenantId: communities.tenantId,
        title: communities.title,
        slug: communities.slug,
        shortDescription: communities.shortDescription,
        description: communities.description,
        whatYouGet: communities.whatYouGet,
        logo: communities.logo,
        background: communities.background,
        listId: lists.id,
      })
      .from(communities)
      .leftJoin(lists, and(eq(lists.id, communities.listId), eq(lists.tenantId, communities.tenantId)))
      .where(and(sql`lower(${communities.slug}) = ${slug}`, eq(communities.show, true)))
      .limit(1);
    if (!row) return null;
    return { ...row, signup: row.listId !== null };
  }

  const notFoundPage = () =>
    messagePage('Community not found', 'There is no community at this address.', {
      href: '/c',
      label: 'See all communities',
    });

  app.get('/c', { config: noCors, schema: { hide: true } }, async (_req, reply) => {
    const rows = await db
      .select({
        title: communities.title,
        slug: communities.slug,
        shortDescription: communities.shortDescription,
        logo: communities.logo,
      })
      .from(communities)
      .where(and(eq(communities.public, true), eq(communities.show, true)))
      .orderBy(desc(communities.priority), asc(communities.title))
      .limit(1000);
    return html(reply, 200, directoryPage(rows));
  });

  app.get('/c/:slug', { config: noCors, schema: { hide: true, params: SlugParams } }, async (req, reply) => {
    const community = await shownCommunity(req.params.slug);
    if (!community) return html(reply, 404, notFoundPage());
    return html(reply, 200, communityPage(community));
  });

  app.post('/c/:slug/signup', { config: noCors, schema: { hide: true, params: SlugParams } }, async (req, reply) => {
    const community = await shownCommunity(req.params.slug);
    if (!community || !community.listId) return html(reply, 404, notFoundPage());
    const raw: unknown = req.body;
    const field = typeof raw === 'object' && raw !== null && 'email' in raw ? raw.email : undefined;
    const email = normaliseEmail(typeof field === 'string' ? field : '');
    if (!email.ok || !email.value) {
      const reason = email.ok ? 'Enter your e-mail address.' : email.reason;
      return html(reply, 400, communityPage(community, reason));
    }
    try {
      await throttle.enforce([
        addressLimit(req),
        { key: `signup:community:${community.id}`, max: limits.signupWidgetMax },
      ]);
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 429) throw error;
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return html(reply, 429, messagePage('Please try again later', error.message));
    }
    await requestCommunityEmailSignup(
      deps,
      throttle,
      { id: community.id, tenantId: community.tenantId, title: community.title, listId: community.listId },
      email.value,
    );
    return html(
      reply,
      200,
      messagePage('Almost there', CHECK_INBOX, {
        href: communityPath(community.slug),
        label: `Back to ${community.title}`,
      }),
    );
  });
};

export default publicRoutes;
