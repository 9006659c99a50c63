/**
 * The team's activity, for its owners (Manage Users' Activity tab): who invited, changed access,
 * removed, impersonated, changed a password or an e-mail address, and when (auth/team-events.ts writes
 * it). Newest first by default; the search matches who did it and whom it was about.
 */
import { and, asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { TeamEvent, TeamEventQuery } from '../contracts';
import type { Database } from '../db/index';
import { teamEvents, type TeamEventRow } from '../db/schema';
import { forbidden } from '../errors';
import { likePattern, pageWindow } from '../lib/pagination';
import type { AuthContext } from '../auth';

export const OWNERS_ONLY = "Only the community's owners see its team activity.";

/** Owners only (a tenant admin's session, also while a platform admin acts as one). */
export function requireOwner(auth: AuthContext): void {
  if (auth.user.role !== 'tenant_admin') throw forbidden(OWNERS_ONLY);
}

export function toTeamEvent(row: TeamEventRow): TeamEvent {
  return {
    _id: row.id,
    kind: row.kind,
    actor: row.actorEmail ? { _id: row.actorId, email: row.actorEmail } : null,
    subject: { _id: row.subjectId, email: row.subjectEmail },
    preset: row.preset,
    previous_email: row.previousEmail,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listTeamEvents(
  db: Database,
  tenantId: string,
  q: TeamEventQuery,
): Promise<{ records: TeamEvent[]; count: number }> {
  const conditions: SQL[] = [eq(teamEvents.tenantId, tenantId)];
  const search = q.searchString.trim();
  if (search) {
    const p = likePattern(search);
    const match = or(ilike(teamEvents.actorEmail, p), ilike(teamEvents.subjectEmail, p));
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const [total] = await db.select({ n: count() }).from(teamEvents).where(where);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select()
    .from(teamEvents)
    .where(where)
    .orderBy(direction(teamEvents.createdAt), direction(teamEvents.id))
    .limit(limit)
    .offset(offset);
  return { records: rows.map(toTeamEvent), count: total?.n ?? 0 };
}
