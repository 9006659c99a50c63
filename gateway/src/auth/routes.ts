import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChangePasswordBody,
  MemberCommunityList,
  ConfirmEmailBody,
  ImpersonateBody,
  LoginBody,
  MessageResponse,
  ResetCompleteBody,
  ResetRequestBody,
  SignInLinkBody,
  SwitchCommunityBody,
  TokenResponse,
  VerifyBody,
  VerifyResponse,
} from '../contracts';
import { changePassword } from './change-password';
import { listCommunities, switchCommunity } from './communities';
import { CONFIRMATION_SENT, confirmEmail, sendConfirmationLink } from './email-confirmation';
import { authenticate, authOf } from './guards';
import { impersonate } from './impersonation';
import { login } from './login';
import { signInLinkSent, signInWithLink } from './sign-in-link';
import {
  completeReset,
  RESET_ADDRESS_MAX,
  RESET_DONE,
  RESET_REQUESTED,
  RESET_USER_MAX,
  sendResetLink,
} from './password-reset';
import { type AuthContext, loadSession, sessionInMemory, toSessionUser } from './session';
import { revokeToken } from './session-cache';
import { rememberedClaims, verifyToken } from './tokens';
import { unauthorized } from '../errors';
import { bearer, errorResponses, noSession } from '../lib/openapi';
import { jsonTextOf, plainJsonSerializer, sendJsonText } from '../lib/plain-json';
import { clientKey } from '../lib/client-key';
import { WindowThrottle } from '../lib/window-throttle';

const tags = ['auth'];
export const SIGNED_OUT = 'You are signed out.';
const TOO_MANY_LINK_USES = 'Too many attempts to use a sign-in link. Please try again later.';

/** The session check's answer for a session (sessions are shared while their user's row is cached). */
const verifyAnswer = jsonTextOf((session: AuthContext) => ({ user: toSessionUser(session) }));

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  // The public throttle's one-hour window (every fixed-window counter shares one window length).
  const resetThrottle = new WindowThrottle(deps.db, deps.config.onboarding.signupWindowMs);

  async function verifiedSession(token: string): Promise<AuthContext> {
    const claims = await verifyToken(deps.config, token);
    const session = claims ? await loadSession(deps.db, claims) : null;
    if (!session) throw unauthorized();
    return session;
  }

  app.post(
    '/login',
    {
      schema: {
        security: noSession,
        tags,
        summary: 'Sign in with e-mail and password',
        description:
          'Returns a bearer token (valid 12 h). Unknown e-mail and wrong password give the same 401. ' +
          'Repeated failures of one client address on an account give 429 with Retry-After. While the ' +
          "account's own limit is reached (failures from many addresses), any password is answered 202 " +
          'with a message, and a right one e-mails a single-use sign-in link (POST /v1/auth/sign-in-link).',
        body: LoginBody,
        response: { 200: TokenResponse, 202: MessageResponse, ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (req, reply) => {
      const result = await login(deps, req.body.email, req.body.password, req.ip);
      if ('token' in result) return result;
      return reply.code(202).send({ message: signInLinkSent(deps.config.signInLinkTtlMs) });
    },
  );

  app.post(
    '/sign-in-link',
    {
      schema: {
        security: noSession,
        tags,
        summary: 'Sign in with an e-mailed sign-in link',
        description:
          'Uses the link once (it works for SIGN_IN_LINK_TTL_SECONDS, 15 minutes by default) and returns a ' +
          'bearer token; the client address then counts as one the account signs in from. 400 on token ' +
          'for a used, expired or unknown link; ' +
          `429 with Retry-After after ${RESET_ADDRESS_MAX} attempts from one address in an hour.`,
        body: SignInLinkBody,
        response: { 200: TokenResponse, ...errorResponses(400, 429) },
      },
    },
    async (req) => {
      await resetThrottle.enforce(
        [{ key: `sign-in-link:address:${clientKey(req.ip)}`, max: RESET_ADDRESS_MAX }],
        TOO_MANY_LINK_USES,
      );
      return { token: await signInWithLink(deps, req.body.user_id, req.body.token, req.ip) };
    },
  );

  app.post(
    '/verify',
    {
      // A small answer (under the 1 KiB compression threshold): no compression hooks at all.
      compress: false,
      decompress: false,
      serializerCompiler: plainJsonSerializer,
      schema: {
        security: noSession,
        tags,
        summary: 'Check a token and load its session user',
        description: 'Effective permissions, plan features, tenant and, for impersonation tokens, the impersonator.',
        body: VerifyBody,
        response: { 200: VerifyResponse, ...errorResponses(400, 401) },
      },
    },
    (req, reply) => {
      const { token } = req.body;
      // From memory without a promise when it can (session-cache.ts), else verified and loaded.
      const claims = rememberedClaims(deps.config, token);
      const session = claims === undefined ? undefined : claims && sessionInMemory(deps.db, claims);
      // The verified session is the request's too: its answer carries the access version (app.ts).
      if (session === undefined) {
        return verifiedSession(token).then((loaded) => {
          req.auth = loaded;
          sendJsonText(reply, verifyAnswer(loaded));
        });
      }
      if (session === null) throw unauthorized();
      req.auth = session;
      sendJsonText(reply, verifyAnswer(session));
      return undefined;
    },
  );

  app.post(
    '/logout',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: 'Sign out: end this token',
        description:
          'The bearer token stops working at once, on every gateway process; other sessions of the user ' +
          'stay signed in. A password reset ends all of them.',
        response: { 200: MessageResponse, ...errorResponses(401) },
      },
    },
    async (req) => {
      const auth = authOf(req);
      await revokeToken(deps.db, { jti: auth.token.jti, sub: auth.user.id, exp: auth.token.exp });
      return { message: SIGNED_OUT };
    },
  );

  app.post(
    '/impersonate',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: 'Get a token to act as another user',
        description:
          'Super admins may impersonate anyone but a super admin; tenant admins only users of their own tenant. ' +
          'An impersonation token cannot start another impersonation (403), nor can other roles (403). Any ' +
          'user the caller may not impersonate is 404, like an unknown one.',
        body: ImpersonateBody,
        response: { 200: TokenResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => ({ token: await impersonate(deps, authOf(req), req.body.user_id) }),
  );

  app.get(
    '/communities',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: "The caller's communities (the header's switcher)",
        description:
          'A person invited to several communities has an account in each, with one address and password. ' +
          "Sorted by name; `current` marks the session's. An impersonation session lists only its own.",
        response: { 200: MemberCommunityList, ...errorResponses(401) },
      },
    },
    async (req) => ({ records: await listCommunities(deps.db, authOf(req)) }),
  );

  app.post(
    '/switch',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: "Switch to another of the caller's communities",
        description:
          "A token of the caller's account in that community; the bearer token stops working. 400 when the " +
          'caller has no account there; 403 while impersonating.',
        body: SwitchCommunityBody,
        response: { 200: TokenResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ({ token: await switchCommunity(deps, authOf(req), req.body.tenant_id) }),
  );

  app.post(
    '/reset-request',
    {
      schema: {
        security: noSession,
        tags,
        summary: 'E-mail a password-reset link',
        description: `Always answers 200, whether or not the account exists. The link is \`<console>/reset/<user_id>/<token>\`, valid ${Math.round(deps.config.resetTokenTtlMs / 60_000)} minutes, single use.`,
        body: ResetRequestBody,
        response: { 200: MessageResponse, ...errorResponses(400) },
      },
    },
    async (req) => {
      const { email } = req.body;
      deps.background.run(() => sendResetLink(deps, email));
      return { message: RESET_REQUESTED };
    },
  );

  app.post(
    '/reset',
    {
      schema: {
        security: noSession,
        tags,
        summary: 'Set a new password with a reset token',
        description:
          'Signs out every session of the user and voids every other reset link. The client address then ' +
          'counts as one the account signs in from (see the sign-in limits). 429 with Retry-After after ' +
          `${RESET_ADDRESS_MAX} attempts from one address or ${RESET_USER_MAX} for one user in an hour.`,
        body: ResetCompleteBody,
        response: { 200: MessageResponse, ...errorResponses(400, 429) },
      },
    },
    async (req) => {
      const { user_id: userId, reset_token: resetToken, password } = req.body;
      await completeReset(deps, resetThrottle, { userId, resetToken, password, ip: req.ip });
      return { message: RESET_DONE };
    },
  );

  app.post(
    '/change-password',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: "Change the signed-in user's password",
        description:
          'Checks the current password under the sign-in limits (429 with Retry-After), ends every other ' +
          'session of the user and answers a new token for this one. 403 while impersonating.',
        body: ChangePasswordBody,
        response: { 200: TokenResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (req) => ({
      token: await changePassword(deps, authOf(req), {
        currentPassword: req.body.current_password,
        newPassword: req.body.new_password,
        ip: req.ip,
      }),
    }),
  );

  app.post(
    '/confirm-email',
    {
      schema: {
        security: noSession,
        tags,
        summary: 'Confirm an e-mail address with the token from the confirmation e-mail',
        body: ConfirmEmailBody,
        response: { 200: MessageResponse, ...errorResponses(400) },
      },
    },
    async (req) => {
      return { message: await confirmEmail(deps, req.body.user_id, req.body.token) };
    },
  );

  app.post(
    '/resend-confirmation',
    {
      onRequest: authenticate,
      schema: {
        tags,
        security: bearer,
        summary: 'E-mail a new confirmation link to the signed-in user',
        description: 'The link is `<console>/confirm-email?user_id=..&token=..`. 409 when already confirmed.',
        response: { 200: MessageResponse, ...errorResponses(401, 409, 429) },
      },
    },
    async (req) => {
      await sendConfirmationLink(deps, authOf(req).user);
      return { message: CONFIRMATION_SENT };
    },
  );
};
