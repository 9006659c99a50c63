import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AcceptInvitationBody,
  Invitation,
  InvitationList,
  InvitationLookup,
  InvitationLookupBody,
  JoinInvitationBody,
  InviteBody,
  MessageResponse,
  TeamAccessBody,
  TeamEventPage,
  TeamEventQuery,
  TeamListQuery,
  TeamMember,
  TeamPage,
  TokenResponse,
} from '../contracts';
import { authOf, requirePermission, tenantOf } from '../auth';
import { bearer, errorResponses, noSession } from '../lib/openapi';
import { paginate } from '../lib/pagination';
import { IdParams } from '../lib/route-params';
import { WindowThrottle } from '../lib/window-throttle';
import { changeMemberAccess, listMembers, removeMember } from './members';
import { Invitations, INVITATION_TTL_DAYS } from './invitations';
import { listTeamEvents, requireOwner } from './events';

/**
 * Who may do what (spec section 2: account/users needs team_features; section 6): reading the team
 * needs manage_users (a tenant admin's impersonation list on every plan); changing it needs
 * manage_users and team_features, the plan feature of teams.
 */
const readTeam = requirePermission('manage_users');
const changeTeam = [requirePermission('team_features'), requirePermission('manage_users')];

/** The team of the caller's tenant (`/v1/users`). */
export const memberRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  const tags = ['users'];

  app.get(
    '',
    {
      onRequest: readTeam,
      schema: {
        tags,
        security: bearer,
        summary: "The caller's team",
        description:
          'Permission manage_users. Search on e-mail and names; sort by created_at, email or last_sign_in_at.',
        querystring: TeamListQuery,
        response: { 200: TeamPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const { records, count } = await listMembers(db, tenantOf(req), authOf(req).features, req.query);
      return { records, pagination: paginate(req.query.page, req.query.perPage, count) };
    },
  );

  app.patch(
    '/:id',
    {
      onRequest: changeTeam,
      schema: {
        tags,
        security: bearer,
        summary: "Change a member's role and permissions",
        description:
          'Permissions manage_users and team_features. Only owners make or change owners; nobody grants a ' +
          'permission they do not hold or the plan does not include; the last owner keeps owner rights. ' +
          "The member's sessions see the change on their next request.",
        params: IdParams,
        body: TeamAccessBody,
        response: { 200: TeamMember, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => changeMemberAccess(db, authOf(req), tenantOf(req), req.params.id, req.body),
  );

  app.delete(
    '/:id',
    {
      onRequest: changeTeam,
      schema: {
        tags,
        security: bearer,
        summary: 'Remove a member',
        description:
          'Permissions manage_users and team_features. Their sessions end at once. Not yourself, not the last owner.',
        params: IdParams,
        response: { 200: MessageResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await removeMember(db, authOf(req), tenantOf(req), req.params.id);
      return { message: 'Member removed.' };
    },
  );
};

/** Invitations (`/v1/invitations`): managed by the team's managers; looked up and accepted by the invitee. */
export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const invitations = new Invitations(deps, new WindowThrottle(deps.db, deps.config.onboarding.signupWindowMs));
  const tags = ['users'];

  app.get(
    '',
    {
      onRequest: changeTeam,
      schema: {
        tags,
        security: bearer,
        summary: 'Pending and expired invitations',
        description: 'Permissions manage_users and team_features. Newest first, at most 500.',
        response: { 200: InvitationList, ...errorResponses(401, 403) },
      },
    },
    async (req) => ({ records: await invitations.list(authOf(req), tenantOf(req)) }),
  );

  app.post(
    '',
    {
      onRequest: changeTeam,
      schema: {
        tags,
        security: bearer,
        summary: 'Invite someone to the team',
        description:
          `E-mails a link valid for ${INVITATION_TTL_DAYS} days. The preset sets role and permissions ` +
          '(custom: the permissions given). Refused for an address that already has an account or a pending ' +
          'invitation; at most 50 invitation e-mails per community and hour (429).',
        body: InviteBody,
        response: { 201: Invitation, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (req, reply) => reply.code(201).send(await invitations.invite(authOf(req), tenantOf(req), req.body)),
  );

  app.post(
    '/:id/resend',
    {
      onRequest: changeTeam,
      schema: {
        tags,
        security: bearer,
        summary: 'Send an invitation again',
        description: `A new link, valid for another ${INVITATION_TTL_DAYS} days; the previous link stops working.`,
        params: IdParams,
        response: { 200: Invitation, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (req) => invitations.resend(authOf(req), tenantOf(req), req.params.id),
  );

  app.delete(
    '/:id',
    {
      onRequest: changeTeam,
      schema: {
        tags,
        security: bearer,
        summary: 'Revoke an invitation',
        params: IdParams,
        response: { 200: MessageResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      await invitations.revoke(tenantOf(req), req.params.id);
      return { message: 'Invitation revoked.' };
    },
  );

  app.post(
    '/lookup',
    {
      schema: {
        security: noSession,
        tags,
        summary: 'What an invitation link is for (public)',
        description: '400 when the link is unknown, used, revoked or expired.',
        body: InvitationLookupBody,
        response: { 200: InvitationLookup, ...errorResponses(400) },
      },
    },
    async (req) => invitations.lookup(req.body.token),
  );

  app.post(
    '/accept',
    {
      schema: {
        security: noSession,
        tags,
        summary: 'Accept an invitation (public): create the account and sign in',
        description:
          'For an address without an account (else 400: see /join). Sets name and password; the address counts ' +
          'as confirmed. Answers a session token.',
        body: AcceptInvitationBody,
        response: { 200: TokenResponse, ...errorResponses(400) },
      },
    },
    async (req) => ({ token: await invitations.accept(req.body) }),
  );

  app.post(
    '/join',
    {
      schema: {
        security: noSession,
        tags,
        summary: 'Accept an invitation with an account elsewhere (public): join and sign in',
        description:
          'For an address that has an account in another community (`has_account` in the lookup): the ' +
          "password of that account, checked under the sign-in guessing limits (429). Creates this community's " +
          'account with the same password and name, and answers its session token.',
        body: JoinInvitationBody,
        response: { 200: TokenResponse, ...errorResponses(400, 429) },
      },
    },
    async (req) => ({ token: await invitations.join(req.body, req.ip) }),
  );
};

/**
 * The team's activity (`/v1/team-events`): owners only, enforced here (a tenant admin's session, with
 * the team feature like Manage Users); one page, newest first.
 */
export const teamEventRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  app.get(
    '',
    {
      onRequest: requirePermission('team_features'),
      schema: {
        tags: ['users'],
        security: bearer,
        summary: "The team's activity",
        description:
          'Owners only (role tenant_admin; permission team_features). Who invited, changed access, removed, ' +
          'impersonated, changed a password or an e-mail address, and when. Newest first; the search matches ' +
          'the addresses of who did it and whom it was about.',
        querystring: TeamEventQuery,
        response: { 200: TeamEventPage, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const auth = authOf(req);
      requireOwner(auth);
      const { records, count } = await listTeamEvents(db, tenantOf(req), req.query);
      return { records, pagination: paginate(req.query.page, req.query.perPage, count) };
    },
  );
};
