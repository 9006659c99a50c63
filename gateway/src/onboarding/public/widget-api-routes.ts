/** The widget API: what the SDK calls from a community's website (per-widget CORS, throttled). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PublicWidget, SignupRequest, SignupResponse, WalletChallenge } from '../../contracts';
import { errorResponses, noSession } from '../../lib/openapi';
import { clientKey } from './public-throttle';
import { checkOrigin, requireWidget, toPublicWidget } from './public-widgets';
import { CHECK_INBOX, requestWidgetEmailSignup } from './signup-email';
import { issueChallenge, SIGNED_UP, walletSignup } from './signup-wallet';
import { IdParams, noCors, tags, widgetCors, type PublicContext } from './context';

const TOO_MANY_CHALLENGES = 'Too many requests from here. Please try again later.';

export const widgetApiRoutes: FastifyPluginAsyncZod<{ ctx: PublicContext }> = async (app, { ctx }) => {
  const deps = app.deps;
  const { db, config } = deps;
  const limits = config.onboarding;
  const { throttle, addressLimit } = ctx;

  app.get(
    '/public/widgets/:id',
    {
      config: noCors,
      schema: {
        security: noSession,
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
        security: noSession,
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
        security: noSession,
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
};
