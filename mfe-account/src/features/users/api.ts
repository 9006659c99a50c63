/** The Manage Users feature's calls and query keys (everything under ['team']). */
import type { QueryClient } from '@tanstack/react-query';
import { api } from '@console/shared/api';
import {
  Invitation,
  InvitationList,
  MessageResponse,
  TeamEventPage,
  TeamMember,
  TeamPage,
  type InviteBody,
  type TeamAccessBody,
} from '@console/shared/contracts';

/** Every query of this feature starts with this key. */
export const TEAM_KEY = ['team'] as const;
export const MEMBERS_KEY = [...TEAM_KEY, 'members'] as const;
export const INVITATIONS_KEY = [...TEAM_KEY, 'invitations'] as const;
export const TEAM_EVENTS_KEY = [...TEAM_KEY, 'events'] as const;

const memberPath = (id: string) => `/v1/users/${encodeURIComponent(id)}`;
const invitationPath = (id: string) => `/v1/invitations/${encodeURIComponent(id)}`;

/** GET /v1/users: one page of the team (page, perPage, sortField, sortOrder, searchString). */
export const fetchMembers = (query: Record<string, string | number>) => api.get('/v1/users', TeamPage, query);

/** GET /v1/team-events: one page of the team's activity (owners only). */
export const fetchTeamEvents = (query: Record<string, string | number>) =>
  api.get('/v1/team-events', TeamEventPage, query);

/** PATCH /v1/users/{id}: a preset, and the chosen permissions when it is `custom`. */
export const updateMemberAccess = (id: string, body: TeamAccessBody) => api.patch(memberPath(id), TeamMember, body);

/** DELETE /v1/users/{id}: the member's account goes, and every session of theirs ends. */
export const removeMember = (id: string) => api.delete(memberPath(id), MessageResponse);

/** GET /v1/invitations: pending and expired invitations. */
export const fetchInvitations = () => api.get('/v1/invitations', InvitationList);

/** POST /v1/invitations: e-mails a link to join the community with the given access. */
export const createInvitation = (body: InviteBody) => api.post('/v1/invitations', Invitation, body);

/** POST /v1/invitations/{id}/resend: a new link (and a new expiry) to the same address. */
export const resendInvitation = (id: string) => api.post(`${invitationPath(id)}/resend`, Invitation, {});

/** DELETE /v1/invitations/{id}: the link stops working. */
export const revokeInvitation = (id: string) => api.delete(invitationPath(id), MessageResponse);

export const invalidateMembers = (client: QueryClient) => client.invalidateQueries({ queryKey: MEMBERS_KEY });
export const invalidateInvitations = (client: QueryClient) => client.invalidateQueries({ queryKey: INVITATIONS_KEY });
