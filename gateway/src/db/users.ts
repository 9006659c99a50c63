import { eq, sql } from 'drizzle-orm';
import type { Database } from './index';
import { users } from './schema';

/** A user by e-mail, case-insensitively (served by the unique index on lower(email)). */
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
