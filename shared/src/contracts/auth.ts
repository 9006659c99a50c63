import * as z from 'zod/mini';
import { FEATURES, PERMISSIONS, ROLES } from '@console/shared/access';
import { text } from './common';

export const Email = z.pipe(
  text(1000).check(z.trim(), z.toLowerCase()),
  z.email({ error: 'Enter a valid e-mail address.' }).check(z.maxLength(254)),
);
export const Password = text(200).check(z.minLength(1, 'Enter your password.'));
export const NewPassword = text(200, 'Use at most 200 characters.').check(
  z.minLength(10, 'Use at least 10 characters.'),
);

export const LoginBody = z.object({ email: Email, password: Password });
export type LoginBody = z.infer<typeof LoginBody>;

export const TokenResponse = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof TokenResponse>;

/**
 * POST /v1/auth/login: a token (200), or, while the account's guessing limit is reached, 202 with a
 * message saying a sign-in link was e-mailed if the password was right (docs/auth.md).
 */
export const LoginResponse = z.union([TokenResponse, z.object({ message: z.string() })]);
export type LoginResponse = z.infer<typeof LoginResponse>;

export const VerifyBody = z.object({ token: text(4096).check(z.minLength(1)) });

/** Session user of spec section 3 as the server sends it (client-side flags are added by the console). */
export const SessionUser = z.object({
  _id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  /** Effective permissions: feature-gated ones only while the plan has the feature. */
  permissions: z.array(z.enum(PERMISSIONS)),
  features: z.array(z.enum(FEATURES)),
  tenant_id: z.nullable(z.string()),
  tenant_name: z.nullable(z.string()),
  first_name: z.string(),
  last_name: z.string(),
  avatar: z.nullable(z.string()),
  /** The time zone schedules are chosen in: the user's own (Your Profile), else the community's; null without either. */
  time_zone: z.nullable(z.string()),
  /** Set when this session is an impersonation: who is impersonating. */
  impersonator: z.nullable(z.object({ _id: z.string(), email: z.string() })),
});
export type SessionUser = z.infer<typeof SessionUser>;

export const VerifyResponse = z.object({ user: SessionUser });
export type VerifyResponse = z.infer<typeof VerifyResponse>;

export const ImpersonateBody = z.object({ user_id: z.uuid({ error: 'Unknown user.' }) });

/**
 * The communities of the signed-in person (one account in each, same address and password): the
 * header's community switcher (auth/communities.ts).
 */
export const MemberCommunity = z.object({
  tenant_id: z.string(),
  tenant_name: z.string(),
  role: z.enum(ROLES),
  current: z.boolean(),
});
export type MemberCommunity = z.infer<typeof MemberCommunity>;
export const MemberCommunityList = z.object({ records: z.array(MemberCommunity) });
export type MemberCommunityList = z.infer<typeof MemberCommunityList>;
export const SwitchCommunityBody = z.object({ tenant_id: z.uuid({ error: 'Unknown community.' }) });
export type SwitchCommunityBody = z.infer<typeof SwitchCommunityBody>;

const OneTimeToken = text(512).check(z.minLength(1));
export const ResetRequestBody = z.object({ email: Email });
export const ResetCompleteBody = z.object({ user_id: z.uuid(), reset_token: OneTimeToken, password: NewPassword });
export const ConfirmEmailBody = z.object({ user_id: z.uuid(), token: OneTimeToken });
/** POST /v1/auth/sign-in-link: the user and token of an e-mailed sign-in link; answers a token. */
export const SignInLinkBody = z.object({ user_id: z.uuid(), token: OneTimeToken });
export type SignInLinkBody = z.infer<typeof SignInLinkBody>;
