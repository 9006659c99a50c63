import { sendHtml } from '../lib/html-reply';
/**
 * Checkout (spec sections 3, 4 and 9): a new customer subscribes without a session. Registered without a prefix: the
 * API is under /v1/checkout, the local provider's hosted payment page (a browser page: its signed
 * token is the key) under /billing/checkout.
 *
 * - POST /v1/checkout: validates the order, stores a pending checkout, answers the payment page's URL.
 *   Rate-limited per client address, like the other public endpoints.
 * - GET/POST /billing/checkout/<token>: the order summary and a test card form; paying creates the
 *   tenant and its owner (checkout-service.ts) and redirects to the console's /checkout/success.
 * - POST /v1/checkout/{id}/complete: once per paid checkout, a session token for the new owner.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  CHECKOUT_EMAIL_TAKEN,
  CheckoutBody,
  CheckoutCompleteBody,
  CheckoutCompleted,
  CheckoutStarted,
  text,
} from '../contracts';
import { CHECKOUT_PAGE_PREFIX, type CardInput, LocalCheckoutProvider } from './checkout-local';
import {
  type CheckoutPageData,
  checkoutCsp,
  checkoutMessagePage,
  checkoutPage,
  INVALID_CHECKOUT_LINK,
} from './checkout-page';
import { CHECKOUT_EXPIRED, CheckoutService, type CheckoutView } from './checkout-service';
import { verifyCheckoutToken } from './checkout-token';
import { clientKey, PublicThrottle } from '../onboarding';
import { errorResponses, noSession } from '../lib/openapi';

const tags = ['checkout'];
/** Checkouts started per client address and throttle window (the public sign-up window, an hour by default). */
export const CHECKOUT_ADDRESS_MAX = 20;
export const TOO_MANY_CHECKOUTS = 'Too many checkouts from here. Please try again later.';
/** Checkout e-mails to one address per throttle window. */
export const CHECKOUT_MAILS_PER_ADDRESS = 5;

const IdParams = z.object({ id: z.uuid({ error: 'Unknown checkout.' }) });
// A wildcard, not `:token`: tokens exceed the router's 100-character parameters.
const TokenParams = z.object({ '*': text(1024) });

/** A form field as a string ('' when absent or not text). */
function field(body: unknown, name: keyof CardInput): string {
  if (typeof body !== 'object' || body === null || !(name in body)) return '';
  const value: unknown = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.slice(0, 64) : '';
}

export const checkoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.deps;
  const provider = new LocalCheckoutProvider(config);
  const checkout = new CheckoutService(db, config, provider);
  const throttle = new PublicThrottle(db, config.onboarding.signupWindowMs);

  app.post(
    '/v1/checkout',
    {
      schema: {
        security: noSession,
        tags,
        summary: 'Start a checkout for a new subscription (no session)',
        description:
          'Validates the order and the future owner account and stores a pending checkout (the password only ' +
          'as its hash). The answer is the same whether or not the e-mail already has an account: the next ' +
          'step goes to that address by e-mail (the link to the payment provider’s hosted page, or a note ' +
          'that an account exists, with sign-in and reset links). Keep `session_id` and `secret`: after ' +
          'payment the console trades them once for a session token (`POST /v1/checkout/{id}/complete`). ' +
          '400 for an unknown price or bad fields, 429 when too many checkouts come from one address.',
        body: CheckoutBody,
        response: { 200: CheckoutStarted, ...errorResponses(400, 429) },
      },
    },
    async (req) => {
      await throttle.enforce(
        [{ key: `checkout:address:${clientKey(req.ip)}`, max: CHECKOUT_ADDRESS_MAX }],
        TOO_MANY_CHECKOUTS,
      );
      const { started, session } = await checkout.start(req.body);
      // Not waited for: the answer takes the same time whether or not the address has an account.
      app.deps.background.run(async () => {
        // A few mails per address and hour; more checkouts are answered the same but mail nothing.
        const key = `checkout:mail:${createHash('sha256').update(session.email.toLowerCase()).digest('hex')}`;
        if ((await throttle.hit({ key, max: CHECKOUT_MAILS_PER_ADDRESS })) > 0) return;
        await app.deps.mailer.send(await checkout.nextStepMail(session, config.consoleUrl));
      });
      return started;
    },
  );

  app.post(
    '/v1/checkout/:id/complete',
    {
      schema: {
        security: noSession,
        tags,
        summary: 'Sign in after a paid checkout (once)',
        description:
          'With the `secret` from `POST /v1/checkout`: a session token for the new owner and what was bought, ' +
          'once, within 30 minutes of the payment. 404 unknown checkout or wrong secret, 409 not paid yet, ' +
          '410 expired, already used or too late (sign in with the e-mail and password instead).',
        params: IdParams,
        body: CheckoutCompleteBody,
        response: { 200: CheckoutCompleted, ...errorResponses(400, 404, 409, 410) },
      },
    },
    async (req) => checkout.complete(req.params.id, req.body.secret),
  );

  // ---------------------------------------------------------------------------------------------
  // The local provider's hosted payment page
  // ---------------------------------------------------------------------------------------------

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  const csp = checkoutCsp(config.consoleUrl);
  const html = (reply: FastifyReply, status: number, body: string) => sendHtml(reply, csp, status, body);

  const pagePath = (token: string) => `${CHECKOUT_PAGE_PREFIX}${encodeURIComponent(token)}`;
  const startAgainUrl = (priceId: string) => `${config.consoleUrl}/checkout/${encodeURIComponent(priceId)}`;
  const successUrl = (sessionId: string) =>
    `${config.consoleUrl}/checkout/success?session=${encodeURIComponent(sessionId)}`;
  const toSuccess = (reply: FastifyReply, sessionId: string) =>
    reply.code(303).header('Location', successUrl(sessionId)).header('Cache-Control', 'no-store').send();

  /** The checkout of a genuine, unexpired token; null for a forged, changed or expired link. */
  async function viewOf(token: string): Promise<CheckoutView | null> {
    const claims = verifyCheckoutToken(config.jwtSecret, token);
    return claims ? checkout.view(claims.sessionId) : null;
  }

  function expiredPage(reply: FastifyReply, view: CheckoutView) {
    return html(
      reply,
      410,
      checkoutMessagePage(CHECKOUT_EXPIRED, { href: startAgainUrl(view.price.priceId), label: 'Start again' }),
    );
  }

  function page(
    reply: FastifyReply,
    status: number,
    token: string,
    view: CheckoutView,
    extra: Pick<CheckoutPageData, 'card' | 'errors' | 'message'> = {},
  ) {
    return html(
      reply,
      status,
      checkoutPage({
        tenantName: view.session.tenantName,
        email: view.session.email,
        price: view.price,
        action: pagePath(token),
        cancelUrl: startAgainUrl(view.price.priceId),
        ...extra,
      }),
    );
  }

  app.get(`${CHECKOUT_PAGE_PREFIX}*`, { schema: { hide: true, params: TokenParams } }, async (req, reply) => {
    const token = req.params['*'];
    const view = await viewOf(token);
    if (!view) return html(reply, 400, checkoutMessagePage(INVALID_CHECKOUT_LINK, null));
    if (view.session.status === 'paid') return toSuccess(reply, view.session.id);
    if (view.session.status === 'expired') return expiredPage(reply, view);
    return page(reply, 200, token, view);
  });

  app.post(`${CHECKOUT_PAGE_PREFIX}*`, { schema: { hide: true, params: TokenParams } }, async (req, reply) => {
    const token = req.params['*'];
    const view = await viewOf(token);
    if (!view) return html(reply, 400, checkoutMessagePage(INVALID_CHECKOUT_LINK, null));
    // Paying twice (a double submit, the back button) creates and charges nothing more.
    if (view.session.status === 'paid') return toSuccess(reply, view.session.id);
    if (view.session.status === 'expired') return expiredPage(reply, view);
    const card: CardInput = {
      card_number: field(req.body, 'card_number'),
      expiry: field(req.body, 'expiry'),
      cvc: field(req.body, 'cvc'),
    };
    const charge = provider.charge(card);
    if (charge.kind === 'invalid') return page(reply, 400, token, view, { card, errors: charge.errors });
    if (charge.kind === 'declined') return page(reply, 402, token, view, { card, message: charge.message });
    const outcome = await checkout.fulfil(view.session.id, charge.payment);
    if (outcome.kind === 'expired') return expiredPage(reply, view);
    if (outcome.kind === 'email_taken') {
      return html(
        reply,
        409,
        checkoutMessagePage(CHECKOUT_EMAIL_TAKEN, { href: `${config.consoleUrl}/login`, label: 'Sign in' }),
      );
    }
    req.log.info({ checkoutId: outcome.session.id, tenantId: outcome.session.tenantId }, 'checkout paid');
    return toSuccess(reply, outcome.session.id);
  });
};
export default checkoutRoutes;
