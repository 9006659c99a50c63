/**
 * The welcome e-mail of a tenant created by a platform admin (spec section 7): a link to set a
 * password, the password-reset mechanism and page (`<console>/reset/<user_id>/<token>`, POST
 * /v1/auth/reset). A new welcome link voids the previous ones. The owner is created with an unusable
 * password ({@link UNSET_PASSWORD}); once a password is set, resending is a 409.
 */
import { eq } from 'drizzle-orm';
import type { Deps } from '../deps';
import { users } from '../db/schema';
import { conflict, notFound } from '../errors';
import type { Mail } from '../mail/mailer';
import { issueOneTimeToken, revokeOneTimeTokens } from '../auth';

/** Not an argon2 hash: no password verifies against it (auth/passwords.ts). */
export const UNSET_PASSWORD = '!unset';
/** How long a welcome link works. */
export const WELCOME_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const PASSWORD_ALREADY_SET = 'The owner has already set a password: they can sign in or reset it.';
export const NO_OWNER = 'This tenant has no owner to welcome.';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function welcomeMail(to: string, firstName: string, tenantName: string, link: string): Mail {
  const hello = firstName ? `Hello ${firstName},` : 'Hello,';
  const body = `A Community Console account was created for you as the owner of ${tenantName}.`;
  const action = 'Open this link within 7 days to choose your password and sign in:';
  return {
    to,
    subject: 'Welcome to Community Console',
    text: `${hello}\n\n${body}\n${action}\n\n${link}\n`,
    html: `<p>${escapeHtml(hello)}</p>\n<p>${escapeHtml(body)}\n${escapeHtml(action)}</p>\n<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  };
}

/** Sends a new welcome link to a user (older welcome and reset links stop working). */
export async function sendWelcome(
  deps: Deps,
  user: { id: string; email: string; firstName: string },
  tenantName: string,
): Promise<void> {
  await revokeOneTimeTokens(deps.db, user.id, 'password_reset');
  const token = await issueOneTimeToken(deps.db, user.id, 'password_reset', WELCOME_TTL_MS);
  const link = `${deps.config.consoleUrl}/reset/${encodeURIComponent(user.id)}/${encodeURIComponent(token)}`;
  await deps.mailer.send(welcomeMail(user.email, user.firstName, tenantName, link));
}

/** GET /v1/tenants/{id}/resend-welcome-email: to the tenant's owner, while no password is set (else 409). */
export async function resendWelcome(deps: Deps, owner: { id: string } | null | undefined, tenantName: string) {
  if (!owner) throw notFound(NO_OWNER);
  const [user] = await deps.db
    .select({ id: users.id, email: users.email, firstName: users.firstName, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, owner.id));
  if (!user) throw notFound(NO_OWNER);
  if (user.passwordHash !== UNSET_PASSWORD) throw conflict(PASSWORD_ALREADY_SET);
  await sendWelcome(deps, user, tenantName);
}
