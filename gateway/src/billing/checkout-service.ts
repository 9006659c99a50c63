/**
 * Checkout sessions (spec sections 3, 4 and 9): start a checkout for a new customer, fulfil it once the provider has
 * taken the payment, and hand out one session token afterwards. Provider-independent: the provider
 * (checkout-provider.ts) only hosts the payment page and confirms payments.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Config } from '../config';
import {
  CHECKOUT_EMAIL_TAKEN,
  type CheckoutBody,
  type CheckoutCompleted,
  type CheckoutStarted,
  type CheckoutSummary,
  PERIOD_LABELS,
  TENANT_PERMISSIONS,
} from '../contracts';
import type { Database } from '../db/index';
import {
  billingAccounts,
  type CheckoutSessionRow,
  checkoutSessions,
  invoices,
  subscriptions,
  tenants,
  users,
} from '../db/schema';
import { findUserByEmail } from '../db/users';
import { hashPassword, lockAddress, refuseWeakPassword, sameAddress, signToken } from '../auth';
import { conflict, HttpError, notFound } from '../errors';
import type { Mail } from '../mail/mailer';
import { checkoutAccountExistsMail, checkoutPaymentMail } from '../mail/messages';
import { loadCatalogue, type StoredPrice } from './catalogue-store';
import type { CheckoutProvider, PaymentConfirmation } from './checkout-provider';
import { dollars, periodEnd } from './proration';
import { UNKNOWN_PRICE, unknownPrice } from './providers/provider';
import { createTenantCommunity } from '../onboarding';

/** A checkout can be paid for this long after it started. */
export const CHECKOUT_TTL_MS = 60 * 60 * 1000;
/** After payment, the browser that started the checkout may sign in with it once, within this time. */
export const COMPLETE_TTL_MS = 30 * 60 * 1000;
/** Unpaid checkouts are deleted this long after they expired. */
const KEEP_EXPIRED_MS = 24 * 60 * 60 * 1000;

export const CHECKOUT_NOT_FOUND = 'This checkout does not exist.';
export const CHECKOUT_STARTED = 'Check your e-mail: we have sent the next step to the address you gave.';
export const CHECKOUT_NOT_PAID = 'This checkout has not been paid yet.';
export const CHECKOUT_EXPIRED = 'This checkout has expired. Please start again.';
export const COMPLETE_GONE = 'This checkout has already been used to sign in, or too long ago. Sign in to continue.';

/** What paying a checkout came to. */
export type FulfilOutcome =
  | { kind: 'paid'; session: CheckoutSessionRow }
  | { kind: 'expired'; session: CheckoutSessionRow }
  | { kind: 'email_taken'; session: CheckoutSessionRow };

/** A checkout session with its price, for the hosted payment page. */
export interface CheckoutView {
  session: CheckoutSessionRow;
  price: StoredPrice;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function describePrice(price: StoredPrice): string {
  return `${price.plan.name} (${price.emails} e-mails), ${PERIOD_LABELS[price.period]}`;
}

/** A checkout that can no longer be paid: pending past its expiry, or already marked expired. */
function isExpired(session: CheckoutSessionRow, now: Date): boolean {
  return session.status === 'expired' || (session.status === 'pending' && session.expiresAt <= now);
}

export class CheckoutService {
  private lastPrune = 0;

  constructor(
    private readonly db: Database,
    private readonly config: Pick<Config, 'jwtSecret' | 'jwtIssuer' | 'jwtAudience' | 'tokenTtlSeconds'>,
    private readonly provider: CheckoutProvider,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Validates the order and stores a pending checkout: the same work and the same answer whether or not
   * the e-mail already has an account, so the answer tells nobody which addresses have one. What
   * differs goes by e-mail (`nextStepMail`, sent by the caller without waiting for it).
   */
  async start(body: CheckoutBody): Promise<{ started: CheckoutStarted; session: CheckoutSessionRow }> {
    const now = this.clock();
    await this.prune(now);
    const price = (await loadCatalogue(this.db)).prices.get(body.price_id);
    if (!price) throw unknownPriceField();
    await refuseWeakPassword('password', body.password, [
      body.email,
      body.tenant_name,
      body.first_name,
      body.last_name,
    ]);
    // Hashed now: the password itself is never stored.
    const passwordHash = await hashPassword(body.password);
    const secret = randomBytes(32).toString('base64url');
    const [session] = await this.db
      .insert(checkoutSessions)
      .values({
        priceId: price.priceId,
        tenantName: body.tenant_name,
        firstName: body.first_name,
        lastName: body.last_name,
        email: body.email,
        passwordHash,
        completeSecretHash: sha256(secret),
        expiresAt: new Date(now.getTime() + CHECKOUT_TTL_MS),
        createdAt: now,
      })
      .returning();
    if (!session) throw new Error('checkout session was not stored');
    return { started: { message: CHECKOUT_STARTED, session_id: session.id, secret }, session };
  }

  /**
   * The e-mail that carries a started checkout on: the payment page's link for a new address; for an
   * address that has an account, a note saying so with sign-in and reset links (that checkout is never
   * payable: no link to its payment page exists, and the password given with it is dropped).
   */
  async nextStepMail(session: CheckoutSessionRow, consoleUrl: string): Promise<Mail> {
    const price = (await loadCatalogue(this.db)).prices.get(session.priceId);
    if (!price) throw unknownPrice();
    const owner = await findUserByEmail(this.db, session.email);
    if (owner) {
      await this.db.update(checkoutSessions).set({ passwordHash: '' }).where(eq(checkoutSessions.id, session.id));
      return checkoutAccountExistsMail(owner.email, owner.firstName, CHECKOUT_EMAIL_TAKEN, {
        signIn: `${consoleUrl}/login`,
        reset: `${consoleUrl}/reset`,
      });
    }
    const url = await this.provider.paymentPageUrl({
      sessionId: session.id,
      price,
      email: session.email,
      tenantName: session.tenantName,
      expiresAt: session.expiresAt,
    });
    const minutes = Math.max(1, Math.round((session.expiresAt.getTime() - this.clock().getTime()) / 60_000));
    return checkoutPaymentMail(
      session.email,
      session.firstName,
      { planDescription: describePrice(price), communityName: session.tenantName },
      url,
      minutes,
    );
  }

  /**
   * A checkout session and its price (null when unknown). A pending one past its expiry is marked
   * expired here (and its password hash dropped).
   */
  async view(sessionId: string): Promise<CheckoutView | null> {
    const [found] = await this.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
    if (!found) return null;
    const price = (await loadCatalogue(this.db)).prices.get(found.priceId);
    if (!price) return null;
    const session = found.status === 'pending' && isExpired(found, this.clock()) ? await expire(this.db, found) : found;
    return { session, price };
  }

  /**
   * The provider took the payment: in one transaction create the tenant (plan of the price), its owner
   * (tenant_admin with the tenant permissions, e-mail confirmed: they just paid with it), the billing
   * account, the subscription (now → now + period) and the paid invoice, and mark the checkout paid.
   * Idempotent: a checkout already paid creates nothing more. The caller must not take a payment for
   * an outcome other than 'paid' when the session was not paid before (see the local provider).
   */
  async fulfil(sessionId: string, payment: PaymentConfirmation): Promise<FulfilOutcome> {
    const now = this.clock();
    return this.db.transaction(async (tx): Promise<FulfilOutcome> => {
      const [session] = await tx
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.id, sessionId))
        .for('update');
      if (!session) throw notFound(CHECKOUT_NOT_FOUND);
      if (session.status === 'paid') return { kind: 'paid', session };
      if (isExpired(session, now)) return { kind: 'expired', session: await expire(tx, session) };
      // One account per address outside invitations (auth/communities.ts); the lock makes the check hold.
      await lockAddress(tx, session.email);
      const [taken] = await tx.select({ id: users.id }).from(users).where(sameAddress(session.email)).limit(1);
      if (taken) return { kind: 'email_taken', session: await expire(tx, session) };
      const price = (await loadCatalogue(tx)).prices.get(session.priceId);
      if (!price) throw unknownPrice();

      const [tenant] = await tx
        .insert(tenants)
        .values({ name: session.tenantName, planId: price.plan.id, stripeCustomerId: payment.customerId })
        .returning({ id: tenants.id });
      if (!tenant) throw new Error('tenant was not stored');
      await createTenantCommunity(tx, tenant.id, session.tenantName);
      const [owner] = await tx
        .insert(users)
        .values({
          tenantId: tenant.id,
          email: session.email,
          passwordHash: session.passwordHash,
          role: 'tenant_admin',
          permissions: [...TENANT_PERMISSIONS],
          firstName: session.firstName,
          lastName: session.lastName,
          emailConfirmedAt: now,
        })
        .returning({ id: users.id });
      if (!owner) throw new Error('owner was not stored');
      // New customers pay no tax until a rate is set for them.
      await tx
        .insert(billingAccounts)
        .values({ tenantId: tenant.id, taxRate: 0, paymentMethodLabel: payment.paymentMethodLabel });
      await tx.insert(subscriptions).values({
        tenantId: tenant.id,
        priceId: price.priceId,
        periodStart: now,
        periodEnd: periodEnd(now, price.period),
        updatedAt: now,
      });
      await tx.insert(invoices).values({
        tenantId: tenant.id,
        priceId: price.priceId,
        description: describePrice(price),
        subtotalCents: price.amountCents,
        taxCents: 0,
        totalCents: price.amountCents,
        status: 'paid',
        idempotencyKey: `checkout:${session.id}`,
        createdAt: now,
      });
      const [paid] = await tx
        .update(checkoutSessions)
        // The hash now lives with the user: the checkout keeps no copy.
        .set({ status: 'paid', paidAt: now, tenantId: tenant.id, userId: owner.id, passwordHash: '' })
        .where(eq(checkoutSessions.id, session.id))
        .returning();
      if (!paid) throw new Error('checkout was not updated');
      return { kind: 'paid', session: paid };
    });
  }

  /**
   * Once per paid checkout, within COMPLETE_TTL_MS of the payment and only with the secret the starting
   * browser kept: a session token for the new owner and what was bought. 404 for an unknown checkout or
   * a wrong secret, 409 while unpaid, 410 when expired, used or too late.
   */
  async complete(sessionId: string, secret: string): Promise<CheckoutCompleted> {
    const now = this.clock();
    const done = await this.db.transaction(async (tx) => {
      const [session] = await tx
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.id, sessionId))
        .for('update');
      if (!session || !sameHash(session.completeSecretHash, sha256(secret))) throw notFound(CHECKOUT_NOT_FOUND);
      if (isExpired(session, now)) throw new HttpError(410, CHECKOUT_EXPIRED);
      if (session.status !== 'paid' || !session.paidAt) throw conflict(CHECKOUT_NOT_PAID);
      if (session.completedAt || session.paidAt.getTime() + COMPLETE_TTL_MS <= now.getTime() || !session.userId) {
        throw new HttpError(410, COMPLETE_GONE);
      }
      const [owner] = await tx.select().from(users).where(eq(users.id, session.userId));
      if (!owner) throw new HttpError(410, COMPLETE_GONE);
      const [sub] = owner.tenantId
        ? await tx.select().from(subscriptions).where(eq(subscriptions.tenantId, owner.tenantId))
        : [];
      await tx.update(checkoutSessions).set({ completedAt: now }).where(eq(checkoutSessions.id, session.id));
      return { session, owner, sub };
    });
    const price = (await loadCatalogue(this.db)).prices.get(done.session.priceId);
    if (!price) throw unknownPrice();
    const token = await signToken(this.config, {
      userId: done.owner.id,
      tenantId: done.owner.tenantId,
      role: done.owner.role,
      tokenVersion: done.owner.tokenVersion,
    });
    return { token, checkout: summaryOf(done.session, price, done.sub?.periodEnd ?? null) };
  }

  /** Deletes unpaid checkouts that expired long ago, at most once a minute. */
  private async prune(now: Date): Promise<void> {
    if (now.getTime() - this.lastPrune < 60_000) return;
    this.lastPrune = now.getTime();
    await this.db
      .delete(checkoutSessions)
      .where(
        and(
          inArray(checkoutSessions.status, ['pending', 'expired']),
          lt(checkoutSessions.expiresAt, new Date(now.getTime() - KEEP_EXPIRED_MS)),
        ),
      );
  }
}

/** 400 'This price does not exist.', also as the field error of price_id. */
export function unknownPriceField() {
  return new HttpError(400, UNKNOWN_PRICE, { price_id: [UNKNOWN_PRICE] });
}

async function expire(tx: Database, session: CheckoutSessionRow): Promise<CheckoutSessionRow> {
  const [row] = await tx
    .update(checkoutSessions)
    .set({ status: 'expired', passwordHash: '' })
    // Only a pending checkout expires (never one paid meanwhile).
    .where(and(eq(checkoutSessions.id, session.id), eq(checkoutSessions.status, 'pending')))
    .returning();
  if (row) return row;
  const [now] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id));
  return now ?? session;
}

export function summaryOf(session: CheckoutSessionRow, price: StoredPrice, end: Date | null): CheckoutSummary {
  return {
    tenant_name: session.tenantName,
    plan: { key: price.plan.key, name: price.plan.name, label: price.plan.label },
    price_id: price.priceId,
    emails: price.emails,
    period: price.period,
    amount: dollars(price.amountCents),
    period_end: (end ?? periodEnd(session.paidAt ?? session.createdAt, price.period)).toISOString(),
  };
}
