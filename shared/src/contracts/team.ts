/** Manage Users: team members, invitations, and the public invitation page (spec section 2, account/users). */
import * as z from 'zod/mini';
import { PERMISSIONS, ROLES, TEAM_PRESETS } from '@console/shared/access';
import { Email, listQuery, NewPassword, page, text } from '@console/shared/contracts/core';

export const TeamMember = z.object({
  _id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  avatar: z.nullable(z.string()),
  role: z.enum(ROLES),
  /** As granted (the plan may leave some without effect). */
  permissions: z.array(z.enum(PERMISSIONS)),
  preset: z.enum(TEAM_PRESETS),
  /** 'unconfirmed' until the member confirmed their e-mail address. */
  status: z.enum(['active', 'unconfirmed']),
  last_sign_in_at: z.nullable(z.string()),
  created_at: z.string(),
});
export type TeamMember = z.infer<typeof TeamMember>;

export const TEAM_SORT_FIELDS = ['created_at', 'email', 'last_sign_in_at'] as const;
export const TeamListQuery = listQuery(TEAM_SORT_FIELDS, 'created_at');
export type TeamListQuery = z.infer<typeof TeamListQuery>;
export const TeamPage = page(TeamMember);
export type TeamPage = z.infer<typeof TeamPage>;

/** A preset, and the chosen permissions when the preset is `custom` (ignored otherwise). */
export const TeamAccessBody = z.object({
  preset: z.enum(TEAM_PRESETS, { error: 'Choose a role.' }),
  permissions: z._default(z.array(z.enum(PERMISSIONS, { error: 'Unknown permission.' })).check(z.maxLength(50)), []),
});
export type TeamAccessBody = z.infer<typeof TeamAccessBody>;

export const InviteBody = z.extend(TeamAccessBody, { email: Email });
export type InviteBody = z.infer<typeof InviteBody>;

export const Invitation = z.object({
  _id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  permissions: z.array(z.enum(PERMISSIONS)),
  preset: z.enum(TEAM_PRESETS),
  status: z.enum(['pending', 'expired']),
  invited_by: z.nullable(z.object({ _id: z.string(), email: z.string() })),
  sent_at: z.string(),
  expires_at: z.string(),
  created_at: z.string(),
});
export type Invitation = z.infer<typeof Invitation>;
export const InvitationList = z.object({ records: z.array(Invitation) });
export type InvitationList = z.infer<typeof InvitationList>;

const InvitationToken = text(512).check(z.minLength(1));
export const InvitationLookupBody = z.object({ token: InvitationToken });
/** What the invitation page shows before the person accepts. */
export const InvitationLookup = z.object({
  email: z.string(),
  tenant_name: z.string(),
  invited_by: z.nullable(z.string()),
  expires_at: z.string(),
  /** The address has an account in another community: the person joins with its password (no new name). */
  has_account: z.boolean(),
});
export type InvitationLookup = z.infer<typeof InvitationLookup>;

const Name = text(100, 'Use at most 100 characters.').check(z.trim());
export const AcceptInvitationBody = z.object({
  token: InvitationToken,
  first_name: Name.check(z.minLength(1, 'Enter your first name.')),
  last_name: z._default(Name, ''),
  password: NewPassword,
});
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBody>;
/** Accepting with an account elsewhere (`has_account`): that account's password proves it is the same person. */
export const JoinInvitationBody = z.object({
  token: InvitationToken,
  password: text(200).check(z.minLength(1, 'Enter your password.')),
});
export type JoinInvitationBody = z.infer<typeof JoinInvitationBody>;

/** Change password (account/change-password): the current one, and the new one under the sign-up rule. */
export const ChangePasswordBody = z.object({
  current_password: text(200).check(z.minLength(1, 'Enter your current password.')),
  new_password: NewPassword,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

// ---------------------------------------------------------------------------------------------
// Team activity (owners only): who invited, changed access, removed, impersonated, changed a
// password or an e-mail address, and when.
// ---------------------------------------------------------------------------------------------

export const TEAM_EVENT_KINDS = [
  'invited',
  'access_changed',
  'removed',
  'impersonated',
  'password_changed',
  'email_changed',
] as const;
export type TeamEventKind = (typeof TEAM_EVENT_KINDS)[number];

export const TeamEvent = z.object({
  _id: z.string(),
  kind: z.enum(TEAM_EVENT_KINDS),
  /** Who did it (null once their account is gone and nothing was kept, or a reset link's holder). */
  actor: z.nullable(z.object({ _id: z.nullable(z.string()), email: z.string() })),
  /** Whose account or invitation it was about, as the address it had then. */
  subject: z.object({ _id: z.nullable(z.string()), email: z.string() }),
  /** access_changed and invited: the preset given. */
  preset: z.nullable(z.enum(TEAM_PRESETS)),
  /** email_changed: the address before (the subject's is the new one). */
  previous_email: z.nullable(z.string()),
  created_at: z.string(),
});
export type TeamEvent = z.infer<typeof TeamEvent>;

export const TEAM_EVENT_SORT_FIELDS = ['created_at'] as const;
/** Newest first by default; the search matches who did it and whom it was about. */
export const TeamEventQuery = listQuery(TEAM_EVENT_SORT_FIELDS, 'created_at');
export type TeamEventQuery = z.infer<typeof TeamEventQuery>;
export const TeamEventPage = page(TeamEvent);
export type TeamEventPage = z.infer<typeof TeamEventPage>;
