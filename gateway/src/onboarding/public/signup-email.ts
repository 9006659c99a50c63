/**
 * E-mail sign-ups with double opt-in, from a widget or from a community page.
 *
 * The request always gets the same answer: whether the address was subscribed already is never told
 * (an existing member gets no e-mail, everything else happens the same way). The contact is only
 * created when the link in the e-mail is opened.
 *
 * Widget sign-ups wait in `pending_signups` (only the token's hash is stored, single row per request).
 * Community-page sign-ups have no widget to hang a row on, so their link carries a signed token
 * (HS256, key derived from the gateway secret for this purpose only) naming the community and the
 * address; opening it twice is harmless either way because the subscription itself is idempotent.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Deps } from '../../deps';
import { communities, lists, pendingSignups, widgets } from '../../db/schema';
import { normaliseEmail } from '../../audience';
import { isUuid } from '../../lib/db-helpers';
import { badRequest } from '../../errors';
import { signupConfirmMail } from '../../mail/messages';
import type { PublicThrottle } from './public-throttle';
import type { LoadedWidget } from './public-widgets';
import { isSubscribedMember, subscribe } from './signup-subscribe';

export const CHECK_INBOX = 'Check your inbox to confirm your subscription.';
export const EMAIL_ONLY_FOR_SUBSCRIPTION = 'This widget signs up wallets only.';
/** Confirmation e-mails per address and window (beyond that the request is answered, but no e-mail leaves). */
export const MAILS_PER_ADDRESS = 3;

const TOKEN_AUDIENCE = 'community-signup';

export function hashSignupToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The address as contacts store it, or a 400 with the field error. */
export function signupEmail(raw: string): string {
  const result = normaliseEmail(raw);
  if (!result.ok) throw badRequest('Invalid input', { email: [result.reason] });
  if (!result.value) throw badRequest('Invalid input', { email: ['Enter your e-mail address.'] });
  return result.value;
}

/** Community titles go into a subject line and a sentence: one line, no control characters. */
export function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ').trim();
}

export function confirmLink(publicUrl: string, token: string): string {
  return `${publicUrl}/public/signups/confirm?${new URLSearchParams({ token })}`;
}

interface MailRequest {
  email: string;
  title: string;
  token: string;
}

/** Counts a request for the address (members included, so timing tells nothing): may it get another e-mail? */
async function mailAllowed(throttle: PublicThrottle, email: string): Promise<boolean> {
  return (await throttle.hit({ key: `signup-mail:${hashSignupToken(email)}`, max: MAILS_PER_ADDRESS })) === 0;
}

/** Sends the confirmation after the reply (the answer does not wait for the mail server). */
function sendConfirmation(deps: Deps, m: MailRequest): void {
  const ttlDays = Math.max(1, Math.round(deps.config.onboarding.signupConfirmTtlMs / 86_400_000));
  const link = confirmLink(deps.config.onboarding.publicUrl, m.token);
  deps.background.run(() => deps.mailer.send(signupConfirmMail(m.email, oneLine(m.title), link, ttlDays)));
}

let lastPrune = 0;

/** Forget pending sign-ups long expired (at most once a minute); recent ones still tell "expired" from "unknown". */
async function prunePending(deps: Deps): Promise<void> {
  const now = Date.now();
  if (now - lastPrune < 60_000) return;
  lastPrune = now;
  await deps.db.delete(pendingSignups).where(lt(pendingSignups.expiresAt, new Date(now - 30 * 86_400_000)));
}

/** POST /public/widgets/{id}/signups with an e-mail address. */
export async function requestWidgetEmailSignup(
  deps: Deps,
  throttle: PublicThrottle,
  widget: LoadedWidget,
  rawEmail: string,
): Promise<void> {
  if (widget.type !== 'Subscription Widget') throw badRequest(EMAIL_ONLY_FOR_SUBSCRIPTION);
  const email = signupEmail(rawEmail);
  await prunePending(deps);
  const allowed = await mailAllowed(throttle, email);
  const member = await isSubscribedMember(deps.db, widget.tenantId, widget.listId, { email });
  const token = randomBytes(32).toString('base64url');
  await deps.db.insert(pendingSignups).values({
    widgetId: widget.id,
    kind: 'email',
    subject: email,
    tokenHash: hashSignupToken(token),
    expiresAt: new Date(Date.now() + deps.config.onboarding.signupConfirmTtlMs),
  });
  if (!member && allowed) sendConfirmation(deps, { email, title: widget.community.title, token });
}

/** A key for community-page tokens only: a session token can never pass as one, nor the other way round. */
function communityKey(deps: Deps): Uint8Array {
  return createHmac('sha256', deps.config.jwtSecret).update('community-signup-token-v1').digest();
}

async function communityToken(deps: Deps, communityId: string, email: string): Promise<string> {
  return new SignJWT({ cid: communityId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(email)
    .setIssuer(deps.config.jwtIssuer)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor((Date.now() + deps.config.onboarding.signupConfirmTtlMs) / 1000))
    .sign(communityKey(deps));
}

export interface SignupCommunity {
  id: string;
  tenantId: string;
  title: string;
  listId: string;
}

/** POST /c/{slug}/signup (the email is already normalised). */
export async function requestCommunityEmailSignup(
  deps: Deps,
  throttle: PublicThrottle,
  community: SignupCommunity,
  email: string,
): Promise<void> {
  const allowed = await mailAllowed(throttle, email);
  const member = await isSubscribedMember(deps.db, community.tenantId, community.listId, { email });
  const token = await communityToken(deps, community.id, email);
  if (!member && allowed) sendConfirmation(deps, { email, title: community.title, token });
}

export type ConfirmResult =
  | { status: 'confirmed'; title: string }
  | { status: 'expired' }
  | { status: 'unknown' }
  /** The community no longer takes sign-ups (its list was removed). */
  | { status: 'closed' };

async function confirmWidgetToken(deps: Deps, token: string): Promise<ConfirmResult> {
  const now = new Date();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        id: pendingSignups.id,
        email: pendingSignups.subject,
        expiresAt: pendingSignups.expiresAt,
        usedAt: pendingSignups.usedAt,
        widgetId: widgets.id,
        tenantId: widgets.tenantId,
        listId: lists.id,
        title: communities.title,
      })
      .from(pendingSignups)
      .innerJoin(widgets, eq(widgets.id, pendingSignups.widgetId))
      .innerJoin(lists, and(eq(lists.id, widgets.targetId), eq(lists.tenantId, widgets.tenantId)))
      .leftJoin(communities, eq(communities.tenantId, widgets.tenantId))
      .where(and(eq(pendingSignups.tokenHash, hashSignupToken(token)), eq(pendingSignups.kind, 'email')))
      .limit(1);
    if (!row) return { status: 'unknown' } as const;
    const title = row.title ?? 'the community';
    // Opening the link again (or a mail scanner opening it first) is harmless: already done.
    if (row.usedAt) return { status: 'confirmed', title } as const;
    if (row.expiresAt <= now) return { status: 'expired' } as const;
    const used = await tx
      .update(pendingSignups)
      .set({ usedAt: now })
      .where(and(eq(pendingSignups.id, row.id), isNull(pendingSignups.usedAt)))
      .returning({ id: pendingSignups.id });
    if (used.length === 1) {
      await subscribe(tx, { tenantId: row.tenantId, listId: row.listId, widgetId: row.widgetId }, { email: row.email });
    }
    return { status: 'confirmed', title } as const;
  });
}

async function confirmCommunityToken(deps: Deps, token: string): Promise<ConfirmResult> {
  let communityId: string;
  let email: string;
  try {
    const { payload } = await jwtVerify(token, communityKey(deps), {
      algorithms: ['HS256'],
      issuer: deps.config.jwtIssuer,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'exp'],
    });
    if (typeof payload.cid !== 'string' || !isUuid(payload.cid) || !payload.sub) return { status: 'unknown' };
    communityId = payload.cid;
    email = payload.sub;
  } catch (error) {
    return error instanceof joseErrors.JWTExpired ? { status: 'expired' } : { status: 'unknown' };
  }
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ tenantId: communities.tenantId, title: communities.title, listId: lists.id })
      .from(communities)
      .leftJoin(lists, and(eq(lists.id, communities.listId), eq(lists.tenantId, communities.tenantId)))
      .where(eq(communities.id, communityId))
      .limit(1);
    if (!row) return { status: 'unknown' } as const;
    if (!row.listId) return { status: 'closed' } as const;
    await subscribe(tx, { tenantId: row.tenantId, listId: row.listId, widgetId: null }, { email });
    return { status: 'confirmed', title: row.title } as const;
  });
}

/** GET /public/signups/confirm?token=…: widget tokens are random (no dots), community tokens are JWTs. */
export async function confirmSignup(deps: Deps, token: string): Promise<ConfirmResult> {
  if (!token || token.length > 2048) return { status: 'unknown' };
  return token.includes('.') ? confirmCommunityToken(deps, token) : confirmWidgetToken(deps, token);
}
