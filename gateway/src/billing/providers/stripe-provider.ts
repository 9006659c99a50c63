/**
 * The Stripe billing provider (spec sections 3, 4 and 9): the same BillingProvider as the local one, on the official
 * SDK. Chosen by create-provider.ts when STRIPE_SECRET_KEY is set.
 *
 * - The tenant's Stripe customer is tenants.stripe_customer_id; its subscription is the customer's
 *   active one (subscriptions.list, status active, limit 1), one item. The catalogue's price ids ARE
 *   the Stripe price ids: in production the catalogue's ids must be the Stripe account's price ids
 *   (admins edit them on /plans). Amounts of the catalogue decide upgrade vs downgrade (price per
 *   month, as the local provider); Stripe computes what is charged.
 * - Money arrives in integer cents and leaves as dollars (proration.ts `dollars`), two decimals.
 * - An upgrade updates the subscription item with proration_behavior always_invoice and
 *   payment_behavior error_if_incomplete: Stripe invoices and charges the prorated amount at once, and
 *   a declined card (card_error) leaves the subscription as it was (402 paymentFailed()). The
 *   tenant's plan (tenants.plan_id) changes at once so permissions follow on the next request. A
 *   downgrade scheduled before is released first (it would undo the upgrade at the period end).
 *   Idempotent: already on the price answers the same result without an update; the client's
 *   Idempotency-Key (hashed with the tenant) goes to Stripe, else a fresh one.
 * - A downgrade is a subscription schedule: the current price until the period end, then the new
 *   price; the schedule is released at its end (the subscription carries on on the new price).
 *   Nothing is recorded locally: the schedule is Stripe's and the webhook (billing/webhook-routes.ts,
 *   syncTenantPlan) moves tenants.plan_id when Stripe applies it.
 * - Errors of Stripe other than a declined card are logged and answered 502 (never Stripe's own
 *   status: a 4xx from Stripe is the gateway's or the account's problem, not the client's).
 */
import { createHash, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { StripeConfig } from '../../config';
import {
  type BillingOverview,
  type BillingPeriod,
  type ChangeResult,
  type ChangeSummary,
  type Invoice,
  PERIOD_MONTHS,
  type Plan,
  PLAN_KEYS,
} from '../../contracts';
import type { Database } from '../../db/index';
import { plans, tenants } from '../../db/schema';
import { badRequest, conflict, HttpError, notFound } from '../../errors';
import { loadCatalogue, type LoadedCatalogue, type StoredPrice } from '../catalogue-store';
import { INVOICES_SHOWN } from './local-provider';
import { dollars, taxCents } from '../proration';
import {
  ALREADY_ON_PLAN,
  type BillingProvider,
  type ChangeOptions,
  noBilling,
  paymentFailed,
  unknownPrice,
} from './provider';
import { sessionChanged } from '../../auth';
import { emailAllowance, emailsSentBetween } from '../../campaigns/index';

export const NO_SUBSCRIPTION = 'There is no active subscription to change.';
export const UPGRADE_NOT_SCHEDULED = 'An upgrade takes effect now: it cannot be scheduled.';
export const PROVIDER_UNAVAILABLE = 'The payment provider could not handle the request, please try again later.';
export const IDEMPOTENCY_KEY_REUSED = 'This Idempotency-Key was already used for another request.';

const require = createRequire(import.meta.url);
let sdk: typeof Stripe | null = null;
/** The SDK, loaded when the Stripe provider is built: a gateway on the local provider never loads it. */
function stripeSdk(): typeof Stripe {
  sdk ??= require('stripe') as typeof Stripe;
  return sdk;
}

/** The Stripe client of the gateway: the SDK's pinned API version, no automatic retries. */
export function createStripeClient(config: StripeConfig): Stripe {
  const StripeSdk = stripeSdk();
  return new StripeSdk(config.secretKey, {
    maxNetworkRetries: 0,
    ...(config.host ? { host: config.host } : {}),
    ...(config.port ? { port: config.port } : {}),
    ...(config.protocol ? { protocol: config.protocol } : {}),
  });
}

/** A price's length as Stripe's recurring interval (schedule phases of one period). */
const STRIPE_INTERVALS: Record<BillingPeriod, { interval: 'month' | 'year'; interval_count: number }> = {
  monthly: { interval: 'month', interval_count: 1 },
  semiAnnual: { interval: 'month', interval_count: 6 },
  yearly: { interval: 'year', interval_count: 1 },
};

/** Cents per period and the period in months: what decides upgrade vs downgrade. */
interface Terms {
  amountCents: number;
  months: number;
}

interface Account {
  tenantId: string;
  customerId: string | null;
  plan: { key: Plan['key']; name: string; label: string };
  catalogue: LoadedCatalogue;
}

type BilledAccount = Account & { customerId: string };

interface Current {
  sub: Stripe.Subscription;
  item: Stripe.SubscriptionItem;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === 'string' ? value : value.id;
/** A tax percentage without the float noise of sums (8.875 stays 8.875). */
const percent = (value: number) => Math.round(value * 10_000) / 10_000;

function changed(price: StoredPrice, invoiceId: string | null): ChangeResult {
  return {
    status: 'changed',
    plan: { key: price.plan.key, name: price.plan.name },
    priceId: price.priceId,
    effectiveDate: null,
    invoiceId,
  };
}

function scheduled(price: StoredPrice, effectiveSeconds: number): ChangeResult {
  return {
    status: 'scheduled',
    plan: { key: price.plan.key, name: price.plan.name },
    priceId: price.priceId,
    effectiveDate: iso(effectiveSeconds),
    invoiceId: null,
  };
}

/** The price of a Stripe price id in a schedule phase item (string or expanded). */
const phasePriceId = (item: Stripe.SubscriptionSchedule.Phase.Item) => idOf(item.price);

export class StripeBillingProvider implements BillingProvider {
  constructor(
    private readonly db: Database,
    private readonly stripe: Stripe,
    private readonly log: Pick<FastifyBaseLogger, 'warn'> | null = null,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async catalogue(): Promise<Plan[]> {
    return (await loadCatalogue(this.db)).plans;
  }
  /** A webhook event from its exact bytes and Stripe-Signature header; throws when the signature is wrong. */
  webhookEvent(body: Buffer, signature: string, secret: string): Stripe.Event {
    return this.stripe.webhooks.constructEvent(body, signature, secret);
  }

  // ---------------------------------------------------------------------------------------------
  // Reading the tenant and its subscription
  // ---------------------------------------------------------------------------------------------

  private async account(tenantId: string): Promise<Account> {
    const [tenant] = await this.db
      .select({
        customerId: tenants.stripeCustomerId,
        plan: { key: plans.key, name: plans.name, label: plans.label },
      })
      .from(tenants)
      .innerJoin(plans, eq(plans.id, tenants.planId))
      .where(eq(tenants.id, tenantId));
    if (!tenant) throw notFound('Tenant not found.');
    return { tenantId, customerId: tenant.customerId, plan: tenant.plan, catalogue: await loadCatalogue(this.db) };
  }

  private async billedAccount(tenantId: string): Promise<BilledAccount> {
    const account = await this.account(tenantId);
    const { customerId } = account;
    if (!customerId) throw noBilling();
    return { ...account, customerId };
  }

  /** Runs a Stripe call; a declined card is paymentFailed(), anything else a logged 502. */
  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw this.translate(what, error);
    }
  }

  private translate(what: string, error: unknown): Error {
    if (error instanceof HttpError) return error;
    if (error instanceof stripeSdk().errors.StripeCardError) return paymentFailed();
    if (error instanceof stripeSdk().errors.StripeIdempotencyError) return conflict(IDEMPOTENCY_KEY_REUSED);
    if (error instanceof stripeSdk().errors.StripeError) {
      this.log?.warn(
        { stripe: { type: error.type, code: error.code, status: error.statusCode, requestId: error.requestId } },
        `stripe: ${what} failed: ${error.message}`,
      );
      return new HttpError(502, PROVIDER_UNAVAILABLE);
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  /** The customer's active subscription (schedule and payment method expanded), or null. */
  private async subscriptionOf(customerId: string): Promise<Stripe.Subscription | null> {
    const list = await this.call('list subscriptions', () =>
      this.stripe.subscriptions.list({
        customer: customerId,
        status: 'active',
        limit: 1,
        expand: ['data.schedule', 'data.default_payment_method'],
      }),
    );
    return list.data[0] ?? null;
  }

  /** The subscription's item of the catalogue (a subscription of the console has one item). */
  private itemOf(sub: Stripe.Subscription, catalogue: LoadedCatalogue): Stripe.SubscriptionItem | null {
    const items = sub.items.data;
    return items.find((i) => catalogue.prices.has(i.price.id)) ?? items[0] ?? null;
  }

  private async current(account: BilledAccount): Promise<Current> {
    const sub = await this.subscriptionOf(account.customerId);
    const item = sub ? this.itemOf(sub, account.catalogue) : null;
    if (!sub || !item) throw badRequest(NO_SUBSCRIPTION);
    return { sub, item };
  }

  private target(account: Account, priceId: string): StoredPrice {
    const price = account.catalogue.prices.get(priceId);
    if (!price) throw unknownPrice();
    return price;
  }

  /** The current item's terms: the catalogue's, else the Stripe price's own (a price outside the catalogue). */
  private termsOf(item: Stripe.SubscriptionItem, catalogue: LoadedCatalogue): Terms | null {
    const known = catalogue.prices.get(item.price.id);
    if (known) return { amountCents: known.amountCents, months: PERIOD_MONTHS[known.period] };
    const { unit_amount: unit, recurring } = item.price;
    if (unit === null || !recurring) return null;
    const months =
      recurring.interval === 'year'
        ? 12 * recurring.interval_count
        : recurring.interval === 'month'
          ? recurring.interval_count
          : null;
    return months ? { amountCents: unit * (item.quantity ?? 1), months } : null;
  }

  /** Higher price per month (cross-multiplied: no rounding); a current price we cannot compare counts as lower. */
  private isUpgrade(current: Current, account: Account, target: StoredPrice): boolean {
    const terms = this.termsOf(current.item, account.catalogue);
    if (!terms) return true;
    return target.amountCents * terms.months > terms.amountCents * PERIOD_MONTHS[target.period];
  }

  /** The subscription's tax rates (default ones, else the item's), summed in percent. */
  private subscriptionTaxRates(current: Current): Stripe.TaxRate[] {
    const defaults = current.sub.default_tax_rates ?? [];
    return defaults.length > 0 ? defaults : (current.item.tax_rates ?? []);
  }

  /** The percentage of the tax rates an invoice's taxes name (known from the subscription, else retrieved). */
  private async invoiceTaxRate(invoice: Stripe.Invoice, known: Stripe.TaxRate[]): Promise<number> {
    const ids = [
      ...new Set((invoice.total_taxes ?? []).flatMap((t) => (t.tax_rate_details ? [t.tax_rate_details.tax_rate] : []))),
    ];
    let sum = 0;
    for (const id of ids) {
      const rate =
        known.find((r) => r.id === id) ??
        (await this.call('retrieve a tax rate', () => this.stripe.taxRates.retrieve(id)));
      sum += rate.percentage;
    }
    return percent(sum);
  }

  private async scheduleOf(sub: Stripe.Subscription): Promise<Stripe.SubscriptionSchedule | null> {
    const { schedule } = sub;
    if (!schedule) return null;
    if (typeof schedule !== 'string') return schedule;
    return this.call('retrieve a subscription schedule', () => this.stripe.subscriptionSchedules.retrieve(schedule));
  }

  // ---------------------------------------------------------------------------------------------
  // BillingProvider
  // ---------------------------------------------------------------------------------------------

  async overview(tenantId: string): Promise<BillingOverview> {
    const account = await this.account(tenantId);
    const sub = account.customerId ? await this.subscriptionOf(account.customerId) : null;
    const item = sub ? this.itemOf(sub, account.catalogue) : null;
    const current = sub && item ? { sub, item } : null;
    const price = item ? (account.catalogue.prices.get(item.price.id) ?? null) : null;
    const customerId = account.customerId;

    let nextInvoice: BillingOverview['nextInvoice'] = null;
    let scheduledChange: BillingOverview['scheduledChange'] = null;
    let taxRate = 0;
    if (current && customerId) {
      const upcoming = await this.upcomingInvoice(customerId, current.sub.id);
      if (upcoming) nextInvoice = { date: iso(current.item.current_period_end), amount: dollars(upcoming.amount_due) };
      scheduledChange = await this.scheduledChangeOf(current, account.catalogue);
      taxRate = percent(this.subscriptionTaxRates(current).reduce((sum, r) => sum + r.percentage, 0));
    }
    const invoices = customerId ? await this.invoicesOf(customerId) : [];
    const allowance = await emailAllowance(this.db, tenantId, this.clock());

    return {
      // A blank id is no billing customer, as the console's upgrade decision reads it (spec section 4).
      billing: Boolean(customerId?.trim()),
      plan: account.plan,
      priceId: item?.price.id ?? null,
      period: price?.period ?? null,
      emailVolume: price?.emails ?? null,
      // Without a subscription the plan's smallest monthly volume over the calendar month (campaigns/usage.ts).
      emailLimit: price?.emailLimit ?? allowance.limit,
      emailsUsed: item
        ? await emailsSentBetween(
            this.db,
            tenantId,
            new Date(item.current_period_start * 1000),
            new Date(item.current_period_end * 1000),
          )
        : allowance.used,
      periodStart: item ? iso(item.current_period_start) : null,
      periodEnd: item ? iso(item.current_period_end) : null,
      nextInvoice,
      scheduledChange,
      paymentMethod: current ? paymentMethodOf(current.sub) : null,
      taxRate,
      invoices,
    };
  }

  /** The subscription's next regular invoice; null when Stripe has none (e.g. it ends at the period end). */
  private async upcomingInvoice(customerId: string, subscriptionId: string): Promise<Stripe.Invoice | null> {
    try {
      return await this.stripe.invoices.createPreview({ customer: customerId, subscription: subscriptionId });
    } catch (error) {
      if (error instanceof stripeSdk().errors.StripeInvalidRequestError) return null;
      throw this.translate('preview the upcoming invoice', error);
    }
  }

  /** A pending phase of the subscription's schedule with another price of the catalogue. */
  private async scheduledChangeOf(
    current: Current,
    catalogue: LoadedCatalogue,
  ): Promise<BillingOverview['scheduledChange']> {
    const schedule = await this.scheduleOf(current.sub);
    if (!schedule || (schedule.status !== 'active' && schedule.status !== 'not_started')) return null;
    const now = Math.floor(this.clock().getTime() / 1000);
    for (const phase of schedule.phases) {
      if (phase.start_date <= now) continue;
      const priceId = phase.items[0] ? phasePriceId(phase.items[0]) : null;
      const price = priceId ? catalogue.prices.get(priceId) : undefined;
      if (price && price.priceId !== current.item.price.id) {
        return {
          priceId: price.priceId,
          plan: price.plan.name,
          period: price.period,
          effectiveDate: iso(phase.start_date),
        };
      }
    }
    return null;
  }

  private async invoicesOf(customerId: string): Promise<Invoice[]> {
    const list = await this.call('list invoices', () =>
      this.stripe.invoices.list({ customer: customerId, limit: INVOICES_SHOWN }),
    );
    return list.data.flatMap((invoice): Invoice[] => {
      // The page lists what was charged: paid, or attempted and not paid. Drafts and voided ones are not bills.
      const status =
        invoice.status === 'paid'
          ? 'paid'
          : invoice.status === 'uncollectible' || (invoice.status === 'open' && invoice.attempted)
            ? 'failed'
            : null;
      if (!status || !invoice.id) return [];
      const tax = (invoice.total_taxes ?? []).reduce((sum, t) => sum + t.amount, 0);
      return [
        {
          _id: invoice.id,
          created_at: iso(invoice.created),
          description:
            invoice.description ?? invoice.lines.data[0]?.description ?? `Invoice ${invoice.number ?? invoice.id}`,
          subtotal: dollars(invoice.subtotal),
          tax: dollars(tax),
          total: dollars(invoice.total),
          status,
        },
      ];
    });
  }

  async previewChange(tenantId: string, priceId: string): Promise<ChangeSummary> {
    const account = await this.billedAccount(tenantId);
    const target = this.target(account, priceId);
    const current = await this.current(account);
    if (current.item.price.id === priceId) throw badRequest(ALREADY_ON_PLAN);
    const base = { newPlan: target.plan.name, currentPlan: account.plan.name };

    if (!this.isUpgrade(current, account, target)) {
      // Nothing is charged now: the new price per period from the period end on, with the subscription's tax.
      const taxRate = percent(this.subscriptionTaxRates(current).reduce((sum, r) => sum + r.percentage, 0));
      const tax = taxCents(target.amountCents, taxRate);
      return {
        movement: 'downgrade',
        ...base,
        subtotal: dollars(target.amountCents),
        taxRate,
        tax: dollars(tax),
        total: dollars(target.amountCents + tax),
        dueNow: 0,
        effectiveDate: iso(current.item.current_period_end),
      };
    }

    // The invoice the upgrade would create now (always_invoice, as applyChange does), prorated to now.
    const preview = await this.call('preview the change', () =>
      this.stripe.invoices.createPreview({
        customer: account.customerId,
        subscription: current.sub.id,
        subscription_details: {
          items: [{ id: current.item.id, price: priceId }],
          proration_behavior: 'always_invoice',
          proration_date: Math.floor(this.clock().getTime() / 1000),
        },
      }),
    );
    const tax = (preview.total_taxes ?? []).reduce((sum, t) => sum + t.amount, 0);
    return {
      movement: 'upgrade',
      ...base,
      subtotal: dollars(preview.subtotal),
      taxRate: await this.invoiceTaxRate(preview, this.subscriptionTaxRates(current)),
      tax: dollars(tax),
      total: dollars(preview.total),
      dueNow: dollars(preview.amount_due),
      effectiveDate: null,
    };
  }

  async applyChange(tenantId: string, priceId: string, options: ChangeOptions = {}): Promise<ChangeResult> {
    const account = await this.billedAccount(tenantId);
    const target = this.target(account, priceId);
    const current = await this.current(account);
    if (current.item.price.id === priceId) {
      // A duplicate (double click, retry): the change is done; answer it again, plan kept in step.
      await this.setPlan(tenantId, target.plan.id);
      return changed(target, idOf(current.sub.latest_invoice));
    }
    if (!this.isUpgrade(current, account, target)) return this.schedule(current, target);

    // A downgrade scheduled earlier would replace the upgrade at the period end: released first (as with
    // the local provider, an upgrade cancels it; also, the subscription is then no longer the schedule's).
    await this.releaseOtherSchedule(current, priceId);
    const updated = await this.call('update the subscription', () =>
      this.stripe.subscriptions.update(
        current.sub.id,
        {
          items: [{ id: current.item.id, price: priceId }],
          proration_behavior: 'always_invoice',
          payment_behavior: 'error_if_incomplete',
        },
        { idempotencyKey: stripeIdempotencyKey(tenantId, options.idempotencyKey) },
      ),
    );
    // The plan changes now: the next request's session (auth/session.ts) has the new plan's features.
    await this.setPlan(tenantId, target.plan.id);
    return changed(target, idOf(updated.latest_invoice));
  }

  /** Releases the subscription's schedule when one of its coming phases moves to another price than `priceId`. */
  private async releaseOtherSchedule(current: Current, priceId: string): Promise<void> {
    const schedule = await this.scheduleOf(current.sub);
    if (!schedule || (schedule.status !== 'active' && schedule.status !== 'not_started')) return;
    const now = Math.floor(this.clock().getTime() / 1000);
    const moves = schedule.phases.some(
      (phase) => phase.start_date > now && phase.items.some((item) => phasePriceId(item) !== priceId),
    );
    if (!moves) return;
    const scheduleId = schedule.id;
    await this.call('release the subscription schedule', () => this.stripe.subscriptionSchedules.release(scheduleId));
  }

  async scheduleChange(tenantId: string, priceId: string): Promise<ChangeResult> {
    const account = await this.billedAccount(tenantId);
    const target = this.target(account, priceId);
    const current = await this.current(account);
    if (current.item.price.id === priceId) throw badRequest(ALREADY_ON_PLAN);
    if (this.isUpgrade(current, account, target)) throw badRequest(UPGRADE_NOT_SCHEDULED);
    return this.schedule(current, target);
  }

  /**
   * The subscription's schedule (created from it unless it has one) becomes two phases: the current
   * price until the period end, then the new price; released when it ends. Idempotent: a schedule that
   * already moves to this price is left alone.
   */
  private async schedule({ sub, item }: Current, target: StoredPrice): Promise<ChangeResult> {
    const periodEnd = item.current_period_end;
    let schedule = await this.scheduleOf(sub);
    if (schedule && schedule.status !== 'active' && schedule.status !== 'not_started') schedule = null;
    const last = schedule?.phases.at(-1);
    if (schedule && schedule.phases.length >= 2 && last?.start_date === periodEnd) {
      const lastPrice = last.items[0] ? phasePriceId(last.items[0]) : null;
      if (lastPrice === target.priceId) return scheduled(target, periodEnd);
    }
    if (!schedule) {
      const subscriptionId = sub.id;
      schedule = await this.call('create a subscription schedule', () =>
        this.stripe.subscriptionSchedules.create({ from_subscription: subscriptionId }),
      );
    }
    const scheduleId = schedule.id;
    const phaseStart =
      schedule.current_phase?.start_date ?? schedule.phases[0]?.start_date ?? item.current_period_start;
    await this.call('update the subscription schedule', () =>
      this.stripe.subscriptionSchedules.update(scheduleId, {
        end_behavior: 'release',
        proration_behavior: 'none',
        phases: [
          {
            items: [{ price: item.price.id, quantity: item.quantity ?? 1 }],
            start_date: phaseStart,
            end_date: periodEnd,
          },
          {
            items: [{ price: target.priceId, quantity: 1 }],
            duration: STRIPE_INTERVALS[target.period],
          },
        ],
      }),
    );
    return scheduled(target, periodEnd);
  }

  async cancelScheduled(tenantId: string): Promise<boolean> {
    const account = await this.billedAccount(tenantId);
    const sub = await this.subscriptionOf(account.customerId);
    const scheduleId = sub ? idOf(sub.schedule) : null;
    if (!scheduleId) return false;
    await this.call('release the subscription schedule', () => this.stripe.subscriptionSchedules.release(scheduleId));
    return true;
  }

  async portalUrl(tenantId: string, returnUrl: string): Promise<string> {
    const account = await this.billedAccount(tenantId);
    const session = await this.call('create a billing portal session', () =>
      this.stripe.billingPortal.sessions.create({ customer: account.customerId, return_url: returnUrl }),
    );
    return session.url;
  }

  /** Stripe applies schedules and renewals itself; the webhook brings the plan along (syncTenantPlan). */
  async applyDueChanges(): Promise<number> {
    return 0;
  }

  // ---------------------------------------------------------------------------------------------
  // The webhook's side
  // ---------------------------------------------------------------------------------------------

  /**
   * Sets the plan of the customer's tenant from the price of its active subscription as Stripe has it
   * now (not from the event's copy: events can arrive late or out of order). Without an active
   * subscription the tenant falls back to the entry plan (BASIC). A price outside the catalogue
   * changes nothing. Returns what happened, for the log.
   */
  async syncTenantPlan(customerId: string): Promise<'no-tenant' | 'unknown-price' | Plan['key']> {
    const [tenant] = await this.db
      .select({ id: tenants.id })
      .from(tenants)
      .where(eq(tenants.stripeCustomerId, customerId));
    if (!tenant) return 'no-tenant';
    const catalogue = await loadCatalogue(this.db);
    const sub = await this.subscriptionOf(customerId);
    const item = sub ? this.itemOf(sub, catalogue) : null;
    if (item) {
      const price = catalogue.prices.get(item.price.id);
      if (!price) return 'unknown-price';
      await this.setPlan(tenant.id, price.plan.id);
      return price.plan.key;
    }
    const entry = PLAN_KEYS[0];
    const [plan] = await this.db.select({ id: plans.id }).from(plans).where(eq(plans.key, entry));
    if (!plan) return 'unknown-price';
    await this.setPlan(tenant.id, plan.id);
    return entry;
  }

  private async setPlan(tenantId: string, planId: string): Promise<void> {
    await this.db.update(tenants).set({ planId }).where(eq(tenants.id, tenantId));
    sessionChanged(this.db, `tenant:${tenantId}`);
  }
}

/** "Visa •••• 4242" from the subscription's (expanded) default payment method. */
function paymentMethodOf(sub: Stripe.Subscription): BillingOverview['paymentMethod'] {
  const method = sub.default_payment_method;
  if (!method || typeof method === 'string' || !method.card) return null;
  const brand = method.card.brand.charAt(0).toUpperCase() + method.card.brand.slice(1);
  return { label: `${brand} •••• ${method.card.last4}`, failing: false };
}

/**
 * The Idempotency-Key sent to Stripe for a plan change: the client's key (hashed with the tenant: keys
 * of different tenants never meet, and the length stays Stripe's) or a fresh one.
 */
export function stripeIdempotencyKey(tenantId: string, clientKey: string | null | undefined): string {
  if (!clientKey) return `plan-change-${randomUUID()}`;
  return `plan-change-${createHash('sha256').update(`${tenantId}\n${clientKey}`).digest('hex')}`;
}
