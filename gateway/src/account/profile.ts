/**
 * Your Profile (spec section 2, account/profile; no permission): names, avatar and the member's own
 * time zone. The avatar is an image the member uploaded through the storage's presigned flow (spec
 * section 7). The session carries names, avatar and time zone, so a change drops the member's cached
 * session at once.
 */
import { eq } from 'drizzle-orm';
import type { Profile, ProfilePatch } from '../contracts';
import type { Deps } from '../deps';
import { tenants, users } from '../db/schema';
import { sessionChanged, type AuthContext } from '../auth';
import { badRequest, INVALID_INPUT, notFound } from '../errors';
import { isStoredImageOf, uploadOwnerOf } from '../onboarding/index';

export const AVATAR_NOT_STORED = 'Upload the image again: it was not stored.';

export async function readProfile(deps: Deps, auth: AuthContext): Promise<Profile> {
  const [row] = await deps.db
    .select({
      email: users.email,
      pendingEmail: users.pendingEmail,
      firstName: users.firstName,
      lastName: users.lastName,
      avatar: users.avatar,
      timeZone: users.timeZone,
      communityTimeZone: tenants.timeZone,
    })
    .from(users)
    .leftJoin(tenants, eq(tenants.id, users.tenantId))
    .where(eq(users.id, auth.user.id));
  if (!row) throw notFound();
  return {
    email: row.email,
    pending_email: row.pendingEmail,
    first_name: row.firstName,
    last_name: row.lastName,
    avatar: row.avatar,
    time_zone: row.timeZone,
    community_time_zone: row.communityTimeZone ?? 'UTC',
  };
}

export async function updateProfile(deps: Deps, auth: AuthContext, patch: ProfilePatch): Promise<Profile> {
  if (patch.avatar) {
    const owner = uploadOwnerOf({ tenantId: auth.tenantId, userId: auth.user.id });
    const stored = await isStoredImageOf(deps.storage, owner, patch.avatar);
    if (!stored) throw badRequest(INVALID_INPUT, { avatar: [AVATAR_NOT_STORED] });
  }
  const set: Partial<typeof users.$inferInsert> = {};
  if (patch.first_name !== undefined) set.firstName = patch.first_name;
  if (patch.last_name !== undefined) set.lastName = patch.last_name;
  if (patch.avatar !== undefined) set.avatar = patch.avatar;
  if (patch.time_zone !== undefined) set.timeZone = patch.time_zone;
  if (Object.keys(set).length > 0) {
    await deps.db.update(users).set(set).where(eq(users.id, auth.user.id));
    sessionChanged(deps.db, `user:${auth.user.id}`);
  }
  return readProfile(deps, auth);
}
