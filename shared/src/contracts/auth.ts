import { z } from 'zod';
import { FEATURES, PERMISSIONS, ROLES } from '../access/vocabulary';

export const Email = z.string().trim().toLowerCase().email('Enter a valid e-mail address.').max(254);
export const Password = z.string().min(1, 'Enter your password.').max(200);
export const NewPassword = z.string().min(10, 'Use at least 10 characters.').max(200, 'Use at most 200 characters.');

export const LoginBody = z.object({ email: Email, password: Password });
export type LoginBody = z.infer<typeof LoginBody>;

export const TokenResponse = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof TokenResponse>;

export const VerifyBody = z.object({ token: z.string().min(1).max(4096) });

/** Session user of spec section 3 as the server sends it (client-side flags are added by the console). */
export const SessionUser = z.object({
  _id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  /** Effective permissions: feature-gated ones only while the plan has the feature. */
  permissions: z.array(z.enum(PERMISSIONS)),
  features: z.array(z.enum(FEATURES)),
  tenant_id: z.string().nullable(),
  tenant_name: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  avatar: z.string().nullable(),
  /** Set when this session is an impersonation: who is impersonating. */
  impersonator: z.object({ _id: z.string(), email: z.string() }).nullable(),
});
export type SessionUser = z.infer<typeof SessionUser>;

export const VerifyResponse = z.object({ user: SessionUser });
export type VerifyResponse = z.infer<typeof VerifyResponse>;

export const ImpersonateBody = z.object({ user_id: z.string().uuid('Unknown user.') });

export const ResetRequestBody = z.object({ email: Email });
export const ResetCompleteBody = z.object({
  user_id: z.string().uuid(),
  reset_token: z.string().min(1).max(512),
  password: NewPassword,
});
export const ConfirmEmailBody = z.object({ user_id: z.string().uuid(), token: z.string().min(1).max(512) });
