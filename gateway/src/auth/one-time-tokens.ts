import { createHash, randomBytes } from 'node:crypto';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../db/index';
import { oneTimeTokens, type OneTimeTokenPurpose } from '../db/schema';

/** Only this hash is stored: a leaked table does not give working links. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new random token for `userId`; returns the token itself (to put in a link), stores its hash. */
export async function issueOneTimeToken(
  db: Database,
  userId: string,
  purpose: OneTimeTokenPurpose,
  ttlMs: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(oneTimeTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ttlMs),
    createdAt: new Date(),
  });
  return token;
}

/** How many tokens of this purpose the user got since `since` (to cap e-mails per hour). */
export async function countIssuedSince(
  db: Database,
  userId: string,
  purpose: OneTimeTokenPurpose,
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(oneTimeTokens)
    .where(
      and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), gt(oneTimeTokens.createdAt, since)),
    );
  return row?.n ?? 0;
}

/** Whether the token is usable (right user and purpose, unused, unexpired), without using it. */
export async function oneTimeTokenUsable(
  db: Database,
  userId: string,
  purpose: OneTimeTokenPurpose,
  token: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: oneTimeTokens.id })
    .from(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        eq(oneTimeTokens.userId, userId),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Use a token once: true when it belonged to this user and purpose, was unused and unexpired. The
 * single UPDATE makes a second use fail even when two requests race.
 */
export async function consumeOneTimeToken(
  db: Database,
  userId: string,
  purpose: OneTimeTokenPurpose,
  token: string,
): Promise<boolean> {
  const now = new Date();
  const used = await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        eq(oneTimeTokens.userId, userId),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    )
    .returning({ id: oneTimeTokens.id });
  return used.length === 1;
}

/** Void every unused token of this purpose (e.g. all reset links once the password changed). */
export async function revokeOneTimeTokens(db: Database, userId: string, purpose: OneTimeTokenPurpose): Promise<void> {
  await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
}
