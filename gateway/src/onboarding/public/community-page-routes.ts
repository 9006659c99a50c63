/** The community pages, their sign-up form and the directory of enabled communities. */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SLUG_PATTERN } from '../../contracts';
import { communities, lists } from '../../db/schema';
import { HttpError } from '../../errors';
import { normaliseEmail } from '../../audience';
import { communityPage, communityPath, directoryPage, messagePage, type CommunityPageData } from './public-html';
import { CHECK_INBOX, requestCommunityEmailSignup } from './signup-email';
import { noCors, SlugParams, type PublicContext } from './context';

export const communityPageRoutes: FastifyPluginAsyncZod<{ ctx: PublicContext }> = async (app, { ctx }) => {
  const deps = app.deps;
  const { db, config } = deps;
  const limits = config.onboarding;
  const { throttle, addressLimit, html } = ctx;

  // The community page's form posts application/x-www-form-urlencoded (this plugin's routes only).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 8 * 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

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
