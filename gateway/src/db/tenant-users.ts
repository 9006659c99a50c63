import { and, asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { UserListQuery, UserSummary } from '../contracts';
import { likePattern, pageWindow } from '../lib/pagination';
import type { Database } from './index';
import { users } from './schema';
import { toUserSummary } from './tenants';

/** One page of the users of one tenant (always scoped by `tenantId`). */
export async function listTenantUsers(
  db: Database,
  tenantId: string,
  q: UserListQuery,
): Promise<{ records: UserSummary[]; count: number }> {
  const conditions: SQL[] = [eq(users.tenantId, tenantId)];
  const search = q.searchString.trim();
  if (search) {
    const p = likePattern(search);
    const match = or(ilike(users.email, p), ilike(users.firstName, p), ilike(users.lastName, p));
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(direction(q.sortField === 'email' ? users.email : users.createdAt), direction(users.id))
    .limit(limit)
    .offset(offset);
  return { records: rows.map(toUserSummary), count: total?.n ?? 0 };
}
