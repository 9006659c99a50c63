/** The confirmation link of e-mail sign-ups (double opt-in), answered with a page. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { messagePage } from './public-html';
import { confirmSignup, type ConfirmResult } from './signup-email';
import { text } from '../../contracts';
import { noCors, type PublicContext } from './context';

export const confirmRoutes: FastifyPluginAsyncZod<{ ctx: PublicContext }> = async (app, { ctx }) => {
  const deps = app.deps;
  const { html } = ctx;

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
    { config: noCors, schema: { hide: true, querystring: z.object({ token: z.optional(text(4096)) }) } },
    async (req, reply) => {
      const result = await confirmSignup(deps, req.query.token ?? '');
      const page = confirmPages[result.status];
      const message =
        result.status === 'confirmed' ? `Thank you! You are now subscribed to ${result.title}.` : page.message;
      return html(reply, page.status, messagePage(page.heading, message));
    },
  );
};
