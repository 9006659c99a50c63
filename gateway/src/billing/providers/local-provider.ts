/**
 * The local billing provider (the default): subscriptions, scheduled downgrades, invoices, tax rates
 * and payment methods in the gateway's own database; the money math is proration.ts.
 *
 * - Every operation runs in one transaction that first locks the tenant's row (FOR NO KEY UPDATE:
 *   other writers of the tenant's data are not held up, foreign keys to it still check), so
 *   concurrent or repeated plan changes of one tenant run one after the other. A change whose result
 *   already holds (already on that price, the same downgrade already scheduled, or an Idempotency-Key
 *   already charged) answers the same result again: one plan change, one charge.
 * - Periods roll over lazily: whenever a tenant's subscription is read (and by applyDueChanges, which
 *   the billing routes run every minute), each ended period starts the next one with a renewal invoice
 *   (one per period: its idempotency key names the period) and a scheduled downgrade takes effect,
 *   plan included. Dunning is not modelled: a declined renewal is recorded as a failed invoice and the
 *   subscription goes on.
 * - A declined payment (the tenant's payment method is marked failing, or there is none) records a
 *   failed invoice and changes nothing else; the caller gets paymentFailed().
 */
import { and, desc, eq, lte } from 'drizzle-orm';
import type { Config } from '../../config';
import {
  type BillingOverview,
  type ChangeResult,
  type ChangeSummary,
  PERIOD_LABELS,
  type Plan,
  type PlanKey,
} from '../../contracts';
import type { Database } from '../../db/index';
import { billingAccounts, invoices, plans, subscriptions, type SubscriptionRow, tenants } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { loadCatalogue, type LoadedCatalogue, type StoredPrice } from '../catalogue-store';
import { signPortalToken } from '../portal-token';
import { type CurrentTerms, dollars, periodEnd, quoteChange, taxCents } from '../proration';
import {
  ALREADY_ON_PLAN,
  type BillingProvider,
  type ChangeOptions,
  noBilling,
  paymentFailed,
  unknownPrice,
} from './provider';
import { sessionChanged } from '../../auth';
import { emailAllowance } from '../../campaigns/index';

/** Invoices on the billing page. */
export const INVOICES_SHOWN = 24;
/** Periods rolled over in one read at most (a database left alone for years catches up over several reads). */
const MAX_ROLLOVERS = 120;

export const WORKING_CARD = 'Visa •••• 4242';
export const DECLINING_CARD = 'Visa •••• 0341 (declines)';

interface AccountState {
  tenant: {
    id: string;
    stripeCustomerId: string | null;
    plan: { id: string; key: PlanKey; name: string; label: string };
  };
  taxRate: number;
  paymentMethod: { label: string; failing: boolean } | null;
  sub: SubscriptionRow | null;
  catalogue: LoadedCatalogue;
  now: Date;
}

type ChangeOutcome = { kind: 'done'; result: ChangeResult } | { kind: 'declined' };

const paymentWorks = (s: Pick<AccountState, 'paymentMethod'>) => s.paymentMethod !== null && !s.paymentMethod.failing;

function requireBilling(s: AccountState): void {
  if (!s.tenant.stripeCustomerId) throw noBilling();
}

function priceOf(s: AccountState, priceId: string): StoredPrice {
  const price = s.catalogue.prices.get(priceId);
  if (!price) throw unknownPrice();
  return price;
}

function activeSub(s: AccountState): SubscriptionRow | null {
  return s.sub && s.sub.status === 'active' ? s.sub : null;
}

function currentTerms(s: AccountState): CurrentTerms | null {
  const sub = activeSub(s);
  const price = sub ? s.catalogue.prices.get(sub.priceId) : undefined;
  if (!sub || !price) return null;
  return {
    amountCents: price.amountCents,
    period: price.period,
    periodStart: sub.periodStart,
    periodEnd: sub.periodEnd,
  };
}

function describe(price: StoredPrice): string {
  return `${price.plan.name} (${price.emails} e-mails), ${PERIOD_LABELS[price.period]}`;
}

function changed(price: StoredPrice, invoiceId: string | null): ChangeResult {
  return {
    status: 'changed',
    plan: { key: price.plan.key, name: price.plan.name },
    priceId: price.priceId,
    effectiveDate: null,
    invoiceId,
  };
}

function scheduled(price: StoredPrice, effectiveDate: Date): ChangeResult {
  return {
    status: 'scheduled',
    plan: { key: price.plan.key, name: price.plan.name },
    priceId: price.priceId,
    effectiveDate: effectiveDate.toISOString(),
    invoiceId: null,
  };
}

export class LocalBillingProvider implements BillingProvider {
  constructor(
    private readonly db: Database,
    private readonly config: Pick<Config, 'jwtSecret' | 'onboarding'>,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async catalogue(): Promise<Plan[]> {
    return (await loadCatalogue(this.db)).plans;
  }

  /** One transaction with the tenant locked and its subscription brought up to date. */
  private withAccount<T>(tenantId: string, fn: (tx: Database, s: AccountState) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: tenants.id })
        .from(tenants)
        .where(eq(tenants.id, tenantId))
        .for('no key update');
      if (!locked) throw notFound('Tenant not found.');
      const [tenant] = await tx
        .select({
          id: tenants.id,
          stripeCustomerId: tenants.stripeCustomerId,
          plan: { id: plans.id, key: plans.key, name: plans.name, label: plans.label },
        })
        .from(tenants)
        .innerJoin(plans, eq(plans.id, tenants.planId))
        .where(eq(tenants.id, tenantId));
      if (!tenant) throw notFound('Tenant not found.');
      const catalogue = await loadCatalogue(tx);
      const [account] = await tx.select().from(billingAccounts).where(eq(billingAccounts.tenantId, tenantId));
      const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.tenantId, tenantId));
      const state: AccountState = {
        tenant,
        taxRate: account?.taxRate ?? 0,
        paymentMethod: account?.paymentMethodLabel
          ? { label: account.paymentMethodLabel, failing: account.paymentMethodFailing }
          : null,
        sub: sub ?? null,
        catalogue,
        now: this.clock(),
      };
      if (state.sub) await this.rollForward(tx, state);
      return fn(tx, state);
    });
  }

  /** Starts each period that is due: renewal invoice, scheduled change applied (plan included). */
  private async rollForward(tx: Database, s: AccountState): Promise<void> {
    for (let i = 0; i < MAX_ROLLOVERS; i++) {
      const sub = activeSub(s);
      if (!sub || sub.periodEnd.getTime() > s.now.getTime()) return;
      const price = s.catalogue.prices.get(sub.scheduledPriceId ?? sub.priceId);
      if (!price) return;
      const start = sub.periodEnd;
      const tax = taxCents(price.amountCents, s.taxRate);
      await tx
        .insert(invoices)
        .values({
          tenantId: sub.tenantId,
          priceId: price.priceId,
          description: describe(price),
          subtotalCents: price.amountCents,
          taxCents: tax,
          totalCents: price.amountCents + tax,
          status: paymentWorks(s) ? 'paid' : 'failed',
          idempotencyKey: `renewal:${sub.id}:${start.toISOString()}`,
          createdAt: start,
        })
        .onConflictDoNothing();
      if (sub.scheduledPriceId) {
        await tx.update(tenants).set({ planId: price.plan.id }).where(eq(tenants.id, sub.tenantId));
        s.tenant.plan = { ...price.plan };
      }
      const [next] = await tx
        .update(subscriptions)
        .set({
          priceId: price.priceId,
          periodStart: start,
          periodEnd: periodEnd(start, price.period),
          scheduledPriceId: null,
          scheduledAt: null,
          updatedAt: s.now,
        })
        .where(eq(subscriptions.id, sub.id))
        .returning();
      s.sub = next ?? null;
    }
  }

  async overview(tenantId: string): Promise<BillingOverview> {
    return this.withAccount(tenantId, async (tx, s) => {
      const sub = activeSub(s);
      const price = sub ? (s.catalogue.prices.get(sub.priceId) ?? null) : null;
      const next = sub?.scheduledPriceId ? (s.catalogue.prices.get(sub.scheduledPriceId) ?? null) : null;
      const billed = next ?? price;
      const allowance = await emailAllowance(tx, tenantId, s.now);
      const rows = await tx
        .select()
        .from(invoices)
        .where(eq(invoices.tenantId, tenantId))
        .orderBy(desc(invoices.createdAt), desc(invoices.id))
        .limit(INVOICES_SHOWN);
      return {
        // A blank id is no billing customer, as the console's upgrade decision reads it (spec section 4).
        billing: Boolean(s.tenant.stripeCustomerId?.trim()),
        plan: { key: s.tenant.plan.key, name: s.tenant.plan.name, label: s.tenant.plan.label },
        priceId: price?.priceId ?? null,
        period: price?.period ?? null,
        emailVolume: price?.emails ?? null,
        // Without a subscription the plan's smallest monthly volume over the calendar month (campaigns/usage.ts).
        emailLimit: price?.emailLimit ?? allowance.limit,
        emailsUsed: allowance.used,
        periodStart: sub?.periodStart.toISOString() ?? null,
        periodEnd: sub?.periodEnd.toISOString() ?? null,
        nextInvoice:
          sub && billed
            ? {
                date: sub.periodEnd.toISOString(),
                amount: dollars(billed.amountCents + taxCents(billed.amountCents, s.taxRate)),
              }
            : null,
        scheduledChange:
          sub && next
            ? {
                priceId: next.priceId,
                plan: next.plan.name,
                period: next.period,
                effectiveDate: (sub.scheduledAt ?? sub.periodEnd).toISOString(),
              }
            : null,
        paymentMethod: s.paymentMethod,
        taxRate: s.taxRate,
        invoices: rows.map((r) => ({
          _id: r.id,
          created_at: r.createdAt.toISOString(),
          description: r.description,
          subtotal: dollars(r.subtotalCents),
          tax: dollars(r.taxCents),
          total: dollars(r.totalCents),
          status: r.status,
        })),
      };
    });
  }

  async previewChange(tenantId: string, priceId: string): Promise<ChangeSummary> {
    return this.withAccount(tenantId, async (_tx, s) => {
      requireBilling(s);
      const target = priceOf(s, priceId);
      if (activeSub(s)?.priceId === priceId) throw badRequest(ALREADY_ON_PLAN);
      const quote = quoteChange(currentTerms(s), target, s.now, s.taxRate);
      return {
        movement: quote.movement,
        newPlan: target.plan.name,
        // The tenant's plan is the subscription's (kept together by every change and roll-over).
        currentPlan: s.tenant.plan.name,
        subtotal: dollars(quote.subtotalCents),
        taxRate: s.taxRate,
        tax: dollars(quote.taxCents),
        total: dollars(quote.totalCents),
        dueNow: dollars(quote.dueNowCents),
        effectiveDate: quote.effectiveDate?.toISOString() ?? null,
      };
    });
  }

  async applyChange(tenantId: string, priceId: string, options: ChangeOptions = {}): Promise<ChangeResult> {
    const key = options.idempotencyKey || null;
    const outcome = await this.withAccount(tenantId, async (tx, s): Promise<ChangeOutcome> => {
      requireBilling(s);
      const target = priceOf(s, priceId);
      if (key) {
        const [earlier] = await tx
          .select({ id: invoices.id, priceId: invoices.priceId })
          .from(invoices)
          .where(and(eq(invoices.tenantId, tenantId), eq(invoices.idempotencyKey, key)));
        const earlierPrice = earlier?.priceId ? s.catalogue.prices.get(earlier.priceId) : undefined;
        if (earlier && earlierPrice) return { kind: 'done', result: changed(earlierPrice, earlier.id) };
      }
      const sub = activeSub(s);
      if (sub?.priceId === priceId) {
        // A duplicate (double click, retry): the change is done; answer it again with its invoice.
        const [last] = await tx
          .select({ id: invoices.id })
          .from(invoices)
          .where(and(eq(invoices.tenantId, tenantId), eq(invoices.priceId, priceId), eq(invoices.status, 'paid')))
          .orderBy(desc(invoices.createdAt), desc(invoices.id))
          .limit(1);
        return { kind: 'done', result: changed(target, last?.id ?? null) };
      }
      const quote = quoteChange(currentTerms(s), target, s.now, s.taxRate);
      if (quote.movement === 'downgrade') return { kind: 'done', result: await this.schedule(tx, s, target) };

      let invoiceId: string | null = null;
      if (quote.dueNowCents > 0) {
        const ok = paymentWorks(s);
        const [invoice] = await tx
          .insert(invoices)
          .values({
            tenantId,
            priceId: target.priceId,
            description: `${sub ? 'Upgrade to ' : ''}${describe(target)}`,
            subtotalCents: quote.subtotalCents,
            taxCents: quote.taxCents,
            totalCents: quote.totalCents,
            status: ok ? 'paid' : 'failed',
            // A declined attempt keeps no key: the retry with a fixed card must go through.
            idempotencyKey: ok ? key : null,
            createdAt: s.now,
          })
          .returning({ id: invoices.id });
        if (!ok) return { kind: 'declined' };
        invoiceId = invoice?.id ?? null;
      }
      const period = quote.newPeriod ?? { start: s.now, end: periodEnd(s.now, target.period) };
      const values = {
        priceId: target.priceId,
        periodStart: period.start,
        periodEnd: period.end,
        status: 'active' as const,
        scheduledPriceId: null,
        scheduledAt: null,
        updatedAt: s.now,
      };
      if (s.sub) await tx.update(subscriptions).set(values).where(eq(subscriptions.id, s.sub.id));
      else await tx.insert(subscriptions).values({ tenantId, ...values });
      // The plan changes now: the next request's session (auth/session.ts) has the new plan's features.
      await tx.update(tenants).set({ planId: target.plan.id }).where(eq(tenants.id, tenantId));
      return { kind: 'done', result: changed(target, invoiceId) };
    });
    if (outcome.kind === 'declined') throw paymentFailed();
    sessionChanged(this.db, `tenant:${tenantId}`);
    return outcome.result;
  }

  private async schedule(tx: Database, s: AccountState, target: StoredPrice): Promise<ChangeResult> {
    const sub = activeSub(s);
    if (!sub) throw badRequest('There is no subscription to change at its period end.');
    if (sub.scheduledPriceId !== target.priceId || !sub.scheduledAt) {
      await tx
        .update(subscriptions)
        .set({ scheduledPriceId: target.priceId, scheduledAt: sub.periodEnd, updatedAt: s.now })
        .where(eq(subscriptions.id, sub.id));
    }
    return scheduled(target, sub.periodEnd);
  }

  async scheduleChange(tenantId: string, priceId: string): Promise<ChangeResult> {
    return this.withAccount(tenantId, async (tx, s) => {
      requireBilling(s);
      const target = priceOf(s, priceId);
      if (activeSub(s)?.priceId === priceId) throw badRequest(ALREADY_ON_PLAN);
      const quote = quoteChange(currentTerms(s), target, s.now, s.taxRate);
      if (quote.movement === 'upgrade') throw badRequest('An upgrade takes effect now: it cannot be scheduled.');
      return this.schedule(tx, s, target);
    });
  }

  async cancelScheduled(tenantId: string): Promise<boolean> {
    return this.withAccount(tenantId, async (tx, s) => {
      requireBilling(s);
      const sub = activeSub(s);
      if (!sub?.scheduledPriceId) return false;
      await tx
        .update(subscriptions)
        .set({ scheduledPriceId: null, scheduledAt: null, updatedAt: s.now })
        .where(eq(subscriptions.id, sub.id));
      return true;
    });
  }

  async portalUrl(tenantId: string, returnUrl: string): Promise<string> {
    const [tenant] = await this.db
      .select({ stripeCustomerId: tenants.stripeCustomerId })
      .from(tenants)
      .where(eq(tenants.id, tenantId));
    if (!tenant) throw notFound('Tenant not found.');
    if (!tenant.stripeCustomerId) throw noBilling();
    const token = signPortalToken(this.config.jwtSecret, { tenantId, returnUrl }, this.clock().getTime());
    return `${this.config.onboarding.publicUrl}/billing/portal/${token}`;
  }

  async applyDueChanges(): Promise<number> {
    const due = await this.db
      .select({ tenantId: subscriptions.tenantId })
      .from(subscriptions)
      .where(and(eq(subscriptions.status, 'active'), lte(subscriptions.periodEnd, this.clock())));
    for (const { tenantId } of due) await this.withAccount(tenantId, async () => undefined);
    return due.length;
  }

  // The local portal's own operations (a Stripe portal does these on Stripe's side).

  async paymentMethod(tenantId: string): Promise<{ label: string; failing: boolean } | null> {
    const [account] = await this.db.select().from(billingAccounts).where(eq(billingAccounts.tenantId, tenantId));
    return account?.paymentMethodLabel
      ? { label: account.paymentMethodLabel, failing: account.paymentMethodFailing }
      : null;
  }

  async setPaymentMethod(tenantId: string, failing: boolean): Promise<void> {
    const values = { paymentMethodLabel: failing ? DECLINING_CARD : WORKING_CARD, paymentMethodFailing: failing };
    await this.db
      .insert(billingAccounts)
      .values({ tenantId, ...values })
      .onConflictDoUpdate({ target: billingAccounts.tenantId, set: { ...values, updatedAt: this.clock() } });
  }
}
