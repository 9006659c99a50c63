/**
 * Writes the team's activity (team/schema.ts `team_events`; owners read it through the team area):
 * who invited, changed access, removed, impersonated, changed a password or an e-mail address in a
 * community, and when. Written in the transaction of the change it records where there is one, so a
 * change and its record commit together. Accounts without a community (platform admins) have no team
 * and so no record.
 */
import { inArray } from 'drizzle-orm';
import type { TeamEventKind, TeamPreset } from '../contracts';
import type { Database } from '../db/index';
import { teamEvents, users } from '../db/schema';
import type { AuthContext } from './session';

/** Who did it: an account, as its address was then. */
export interface TeamActor {
  id: string | null;
  email: string;
}

/** Who acts in a request: the impersonating admin while impersonating, else the signed-in user. */
export function actorOf(auth: AuthContext): TeamActor {
  return auth.impersonator ? { ...auth.impersonator } : { id: auth.user.id, email: auth.user.email };
}

export interface TeamEventInput {
  tenantId: string;
  kind: TeamEventKind;
  actor: TeamActor | null;
  subject: { id: string | null; email: string };
  preset?: TeamPreset | null;
  previousEmail?: string | null;
}

/** Records one event of a community's team. */
export async function recordTeamEvent(db: Database, event: TeamEventInput): Promise<void> {
  await db.insert(teamEvents).values({
    tenantId: event.tenantId,
    kind: event.kind,
    actorId: event.actor?.id ?? null,
    actorEmail: event.actor?.email ?? null,
    subjectId: event.subject.id,
    subjectEmail: event.subject.email,
    preset: event.preset ?? null,
    previousEmail: event.previousEmail ?? null,
  });
}

/**
 * Records `kind` for each of a person's accounts (the communities they belong to share their password
 * and address, auth/communities.ts), in each account's community. `actorOf` names who did it for an
 * account (the person themselves by default).
 */
export async function recordAccountEvents(
  db: Database,
  kind: TeamEventKind,
  accounts: readonly { id: string }[],
  detail: { previousEmail?: string | null; actor?: TeamActor | null } = {},
): Promise<void> {
  if (accounts.length === 0) return;
  const rows = await db
    .select({ id: users.id, email: users.email, tenantId: users.tenantId })
    .from(users)
    .where(
      inArray(
        users.id,
        accounts.map((a) => a.id),
      ),
    );
  for (const row of rows) {
    if (!row.tenantId) continue;
    await recordTeamEvent(db, {
      tenantId: row.tenantId,
      kind,
      actor: detail.actor === undefined ? { id: row.id, email: row.email } : detail.actor,
      subject: { id: row.id, email: row.email },
      previousEmail: detail.previousEmail ?? null,
    });
  }
}
