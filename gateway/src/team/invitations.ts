/**
 * Invitations to a community's team (Manage Users). Our choices where the spec is silent, after the
 * best consoles:
 * - The link is valid for {@link INVITATION_TTL_DAYS} days; resending renews it (a new link, the old
 *   one stops working); revoking ends it. One pending invitation per address and community.
 * - Only the token's hash is stored. Accepting sets the person's name and password, confirms their
 *   address (they opened the mail) and signs them in.
 * - An address that already has an account in another community is invited like any other; the
 *   person joins with that account's password (checked under the sign-in guessing limits) and gets an
 *   account in this community with the invitation's access (auth/communities.ts).
 * - A community sends at most {@link INVITES_PER_HOUR} invitation e-mails an hour (invitations and
 *   resends), so the feature cannot be used to spam strangers.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import {
  type AcceptInvitationBody,
  grantRefusal,
  type Invitation,
  type InvitationLookup,
  type InviteBody,
  type JoinInvitationBody,
  presetAccess,
  presetOf,
} from '../contracts';
import type { Deps } from '../deps';
import type { Database } from '../db/index';
import { invitations, type InvitationRow, tenants, users } from '../db/schema';
import { findUserById } from '../db/users';
import {
  accountsOf,
  actorOf,
  guardedPasswordCheck,
  hashPassword,
  hashToken,
  recordTeamEvent,
  refuseWeakPassword,
  sameAddress,
  signToken,
  verifyPassword,
  type AuthContext,
} from '../auth';
import { badRequest, notFound } from '../errors';
import { invitationMail } from '../mail/messages';
import { isUuid, uniqueViolation } from '../lib/db-helpers';
import type { WindowThrottle } from '../lib/window-throttle';

export const INVITATION_TTL_DAYS = 7;
const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000;
export const INVITES_PER_HOUR = 50;
/** The invitations list shows at most this many (pending and expired, newest first). */
const LIST_MAX = 500;

export const INVITATION_INVALID =
  'This invitation is invalid or has expired. Ask the person who invited you for a new one.';
export const ALREADY_MEMBER = 'This person is already a member of your team.';
export const HAS_ACCOUNT =
  'This address already has an account in another community. Join with the password of that account.';
export const WRONG_PASSWORD = 'This is not the password of your account.';
export const NO_ACCOUNT = 'This address has no account yet. Set your name and a password to join.';
export const ALREADY_INVITED = 'An invitation to this address is pending. Resend it instead.';
const TOO_MANY_INVITES = 'Too many invitations were sent in the last hour. Please try again later.';
const NO_INVITATION = 'This invitation does not exist.';

const pending = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

function toInvitation(
  row: InvitationRow,
  inviter: { id: string; email: string } | null,
  features: AuthContext['features'],
  now: Date,
): Invitation {
  return {
    _id: row.id,
    email: row.email,
    role: row.role,
    permissions: row.permissions,
    preset: presetOf(row.role, row.permissions, features),
    status: row.expiresAt > now ? 'pending' : 'expired',
    invited_by: inviter ? { _id: inviter.id, email: inviter.email } : null,
    sent_at: row.sentAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

export class Invitations {
  constructor(
    private readonly deps: Deps,
    private readonly throttle: WindowThrottle,
  ) {}

  private get db(): Database {
    return this.deps.db;
  }

  /** Pending and expired invitations of the tenant, newest first. */
  async list(auth: AuthContext, tenantId: string): Promise<Invitation[]> {
    const rows = await this.db
      .select({ invitation: invitations, inviterEmail: users.email })
      .from(invitations)
      .leftJoin(users, eq(users.id, invitations.invitedBy))
      .where(and(eq(invitations.tenantId, tenantId), pending))
      .orderBy(desc(invitations.createdAt), desc(invitations.id))
      .limit(LIST_MAX);
    const now = this.deps.clock();
    return rows.map(({ invitation, inviterEmail }) =>
      toInvitation(
        invitation,
        invitation.invitedBy && inviterEmail ? { id: invitation.invitedBy, email: inviterEmail } : null,
        auth.features,
        now,
      ),
    );
  }

  async invite(auth: AuthContext, tenantId: string, body: InviteBody): Promise<Invitation> {
    const access = presetAccess(body.preset, auth.features, body.permissions);
    const refusal = grantRefusal({ role: auth.user.role, permissions: auth.permissions }, access, auth.features);
    if (refusal) throw badRequest(refusal.message, { [refusal.field]: [refusal.message] });
    const [member] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(sameAddress(body.email), eq(users.tenantId, tenantId)))
      .limit(1);
    if (member) throw badRequest(ALREADY_MEMBER, { email: [ALREADY_MEMBER] });
    await this.enforceRate(tenantId);
    const token = randomBytes(32).toString('base64url');
    const now = this.deps.clock();
    let row: InvitationRow | undefined;
    try {
      [row] = await this.db
        .insert(invitations)
        .values({
          tenantId,
          email: body.email,
          role: access.role,
          permissions: access.permissions,
          tokenHash: hashToken(token),
          invitedBy: auth.impersonatorId ? null : auth.user.id,
          sentAt: now,
          expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
          createdAt: now,
        })
        .returning();
    } catch (error) {
      if (uniqueViolation(error) === 'invitations_pending_email_idx') {
        throw badRequest(ALREADY_INVITED, { email: [ALREADY_INVITED] });
      }
      throw error;
    }
    if (!row) throw new Error('the invitation was not stored');
    await recordTeamEvent(this.db, {
      tenantId,
      kind: 'invited',
      actor: actorOf(auth),
      subject: { id: null, email: row.email },
      preset: body.preset,
    });
    await this.send(row, token, auth);
    return toInvitation(row, { id: auth.user.id, email: auth.user.email }, auth.features, now);
  }

  /** A new link (the old one stops working) valid for another {@link INVITATION_TTL_DAYS} days. */
  async resend(auth: AuthContext, tenantId: string, id: string): Promise<Invitation> {
    if (!isUuid(id)) throw notFound(NO_INVITATION);
    await this.enforceRate(tenantId);
    const token = randomBytes(32).toString('base64url');
    const now = this.deps.clock();
    const [row] = await this.db
      .update(invitations)
      .set({ tokenHash: hashToken(token), sentAt: now, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS) })
      .where(and(eq(invitations.id, id), eq(invitations.tenantId, tenantId), pending))
      .returning();
    if (!row) throw notFound(NO_INVITATION);
    await this.send(row, token, auth);
    const [inviter] = row.invitedBy
      ? await this.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, row.invitedBy))
      : [];
    return toInvitation(row, inviter ?? null, auth.features, now);
  }

  async revoke(tenantId: string, id: string): Promise<void> {
    if (!isUuid(id)) throw notFound(NO_INVITATION);
    const revoked = await this.db
      .update(invitations)
      .set({ revokedAt: this.deps.clock() })
      .where(and(eq(invitations.id, id), eq(invitations.tenantId, tenantId), pending))
      .returning({ id: invitations.id });
    if (revoked.length === 0) throw notFound(NO_INVITATION);
  }

  /** What the invitation page shows, or 400 when the link is not (or no longer) valid. */
  async lookup(token: string): Promise<InvitationLookup> {
    const [found] = await this.db
      .select({
        email: invitations.email,
        tenantName: tenants.name,
        expiresAt: invitations.expiresAt,
        inviterFirst: users.firstName,
        inviterLast: users.lastName,
        inviterEmail: users.email,
      })
      .from(invitations)
      .innerJoin(tenants, eq(tenants.id, invitations.tenantId))
      .leftJoin(users, eq(users.id, invitations.invitedBy))
      .where(and(eq(invitations.tokenHash, hashToken(token)), pending, gt(invitations.expiresAt, this.deps.clock())))
      .limit(1);
    if (!found) throw badRequest(INVITATION_INVALID);
    const inviterName = `${found.inviterFirst ?? ''} ${found.inviterLast ?? ''}`.trim() || found.inviterEmail;
    return {
      email: found.email,
      tenant_name: found.tenantName,
      invited_by: inviterName,
      expires_at: found.expiresAt.toISOString(),
      has_account: (await accountsOf(this.db, found.email)).length > 0,
    };
  }

  /**
   * Accepts once, for an address without an account: the account is created with the invitation's
   * access, its address confirmed, and a session token answered. The token is checked before the
   * password is hashed (a wrong link costs one indexed read, never an argon2 hash).
   */
  async accept(body: AcceptInvitationBody): Promise<string> {
    const { has_account, email, tenant_name } = await this.lookup(body.token);
    if (has_account) throw badRequest(HAS_ACCOUNT, { password: [HAS_ACCOUNT] });
    await refuseWeakPassword('password', body.password, [email, tenant_name, body.first_name, body.last_name]);
    const passwordHash = await hashPassword(body.password);
    return this.createAccount(body.token, (existing) => {
      // The address got an account meanwhile (a sign-up elsewhere): the invitation stays pending.
      if (existing) throw badRequest(HAS_ACCOUNT, { password: [HAS_ACCOUNT] });
      return { passwordHash, firstName: body.first_name, lastName: body.last_name, avatar: null, timeZone: null };
    });
  }

  /**
   * Accepts once, for an address with an account in another community: that account's password
   * (checked under the sign-in guessing limits, the same counters as signing in) proves the person;
   * the new account takes its password, name, avatar and time zone (auth/communities.ts).
   */
  async join(body: JoinInvitationBody, ip: string): Promise<string> {
    const { email, has_account } = await this.lookup(body.token);
    if (!has_account) throw badRequest(NO_ACCOUNT, { password: [NO_ACCOUNT] });
    const [account] = await accountsOf(this.db, email);
    const person = account ? await findUserById(this.db, account.userId) : null;
    if (!person) throw badRequest(NO_ACCOUNT, { password: [NO_ACCOUNT] });
    const ok = await guardedPasswordCheck(this.deps.throttle, email.toLowerCase(), ip, () =>
      verifyPassword(person.passwordHash, body.password),
    );
    if (!ok) throw badRequest(WRONG_PASSWORD, { password: [WRONG_PASSWORD] });
    return this.createAccount(body.token, (existing) => {
      // The password changed since it was checked: the person tries again with the new one.
      if (existing?.passwordHash !== person.passwordHash)
        throw badRequest(WRONG_PASSWORD, { password: [WRONG_PASSWORD] });
      return {
        passwordHash: person.passwordHash,
        firstName: person.firstName,
        lastName: person.lastName,
        avatar: person.avatar,
        timeZone: person.timeZone,
      };
    });
  }

  /**
   * The invitation used (one UPDATE, so a second use fails even when two requests race) and the
   * account created in its community, in one transaction; `profile` decides from the address's
   * account elsewhere (read under a lock) what the new account holds, or refuses.
   */
  private async createAccount(
    token: string,
    profile: (existing: { passwordHash: string } | null) => {
      passwordHash: string;
      firstName: string;
      lastName: string;
      avatar: string | null;
      timeZone: string | null;
    },
  ): Promise<string> {
    const now = this.deps.clock();
    const user = await this.db.transaction(async (tx) => {
      const [invitation] = await tx
        .update(invitations)
        .set({ acceptedAt: now })
        .where(and(eq(invitations.tokenHash, hashToken(token)), pending, gt(invitations.expiresAt, now)))
        .returning();
      if (!invitation) throw badRequest(INVITATION_INVALID);
      const [existing] = await tx
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(sameAddress(invitation.email))
        .limit(1)
        .for('update');
      try {
        const [created] = await tx
          .insert(users)
          .values({
            ...profile(existing ?? null),
            tenantId: invitation.tenantId,
            email: invitation.email,
            role: invitation.role,
            permissions: invitation.permissions,
            emailConfirmedAt: now,
            lastSignInAt: now,
          })
          .returning({ id: users.id, tenantId: users.tenantId, role: users.role, tokenVersion: users.tokenVersion });
        return created;
      } catch (error) {
        // Joined this community meanwhile (another invitation of the same address).
        if (uniqueViolation(error) === 'users_email_tenant_idx') throw badRequest(ALREADY_MEMBER);
        throw error;
      }
    });
    if (!user) throw new Error('the account was not stored');
    return signToken(this.deps.config, {
      userId: user.id,
      tenantId: user.tenantId,
      role: user.role,
      tokenVersion: user.tokenVersion,
    });
  }

  private async enforceRate(tenantId: string): Promise<void> {
    await this.throttle.enforce([{ key: `invite:tenant:${tenantId}`, max: INVITES_PER_HOUR }], TOO_MANY_INVITES);
  }

  private async send(row: InvitationRow, token: string, auth: AuthContext): Promise<void> {
    const [tenant] = await this.db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, row.tenantId));
    const inviter = auth.impersonatorId
      ? null
      : `${auth.user.firstName} ${auth.user.lastName}`.trim() || auth.user.email;
    const link = `${this.deps.config.consoleUrl}/invitation/${encodeURIComponent(token)}`;
    await this.deps.mailer.send(invitationMail(row.email, tenant?.name ?? '', inviter, link, INVITATION_TTL_DAYS));
  }
}
