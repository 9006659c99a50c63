import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Database } from './database';
import { users } from './schema';

/** An account of this address, case-insensitively, in any community (the unique index on lower(email), tenant serves it). */
export async function findUserByEmail(db: Database, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Database, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/**
 * Not a user of a deleted tenant (tenants/delete-job.ts): such users cannot sign in, reset a
 * password or be impersonated from the moment the tenant is deleted.
 */
const live = sql`not exists (select 1 from tenants t where t.id = ${users.tenantId} and t.deleted_at is not null)`;

/**
 * {@link findUserByEmail} among users that may sign in (their tenant is not deleted). A person in
 * several communities has an account in each (auth/communities.ts): the one signed into most recently.
 */
export async function findLiveUserByEmail(db: Database, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`, live))
    .orderBy(sql`${users.lastSignInAt} desc nulls last`, desc(users.createdAt), asc(users.id))
    .limit(1);
  return row ?? null;
}

/** {@link findUserById} among users that may sign in (their tenant is not deleted). */
export async function findLiveUserById(db: Database, id: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), live))
    .limit(1);
  return row ?? null;
}
