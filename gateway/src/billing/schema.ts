/**
 * Billing's tables (spec sections 3, 4 and 9): the price catalogue, the local billing provider's state,
 * and checkouts (a new customer's subscription, started without a session). The plans themselves are
 * shared (db/shared-schema.ts): every tenant has one.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  numeric,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { BillingPeriod } from '../contracts';
import { createdAt, updatedAt } from '../db/columns';
import { plans, tenants, users } from '../db/shared-schema';

/** One price of a plan's pricing option for one period (the catalogue of spec section 9, see billing/catalogue.ts). */
export const planPrices = pgTable(
  'plan_prices',
  {
    /** The payment provider's price id, e.g. price_startup3_monthly. */
    priceId: text('price_id').primaryKey(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    /** The pricing option, e.g. startup3. */
    optionKey: text('option_key').notNull(),
    /** 0-based order of the option within its plan. */
    position: integer('position').notNull(),
    /** The volume as the cards show it ('10.000'). */
    emails: text('emails').notNull(),
    emailLimit: integer('email_limit').notNull(),
    period: text('period').$type<BillingPeriod>().notNull(),
    /** Cents for the whole period. */
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [
    uniqueIndex('plan_prices_option_period_idx').on(t.optionKey, t.period),
    index('plan_prices_plan_idx').on(t.planId, t.position),
    check('plan_prices_period_check', sql`${t.period} in ('monthly', 'semiAnnual', 'yearly')`),
    check('plan_prices_amount_check', sql`${t.amountCents} >= 0`),
  ],
);

/** A tenant's billing settings: tax rate and payment method (local provider). */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    tenantId: uuid('tenant_id')
      .primaryKey()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Percent, e.g. 21.00. */
    taxRate: numeric('tax_rate', { precision: 5, scale: 2, mode: 'number' }).notNull().default(0),
    /** 'Visa •••• 4242'; null: no payment method. */
    paymentMethodLabel: text('payment_method_label'),
    /** A method that declines every charge (set from the local billing portal). */
    paymentMethodFailing: boolean('payment_method_failing').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [check('billing_accounts_tax_rate_check', sql`${t.taxRate} >= 0 and ${t.taxRate} <= 100`)],
);

/** One subscription per tenant: its current price and period, and a downgrade scheduled for the period end. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    priceId: text('price_id')
      .notNull()
      .references(() => planPrices.priceId),
    periodStart: timestamp('period_start', { withTimezone: true, mode: 'date' }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true, mode: 'date' }).notNull(),
    status: text('status').$type<'active' | 'canceled'>().notNull().default('active'),
    scheduledPriceId: text('scheduled_price_id').references(() => planPrices.priceId),
    /** When the scheduled change takes effect (the period end it was scheduled for). */
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_tenant_idx').on(t.tenantId),
    index('subscriptions_period_end_idx').on(t.periodEnd),
    check('subscriptions_status_check', sql`${t.status} in ('active', 'canceled')`),
    check('subscriptions_period_check', sql`${t.periodEnd} > ${t.periodStart}`),
  ],
);

export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** The price the invoice was for. */
    priceId: text('price_id').references(() => planPrices.priceId),
    description: text('description').notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    taxCents: integer('tax_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    status: text('status').$type<'paid' | 'failed'>().notNull(),
    /** A client's Idempotency-Key or a renewal's key: one charge per key and tenant. */
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invoices_tenant_idempotency_idx').on(t.tenantId, t.idempotencyKey),
    index('invoices_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    check('invoices_status_check', sql`${t.status} in ('paid', 'failed')`),
  ],
);

export type PlanPriceRow = typeof planPrices.$inferSelect;

export type SubscriptionRow = typeof subscriptions.$inferSelect;

export type InvoiceRow = typeof invoices.$inferSelect;

export const CHECKOUT_STATUSES = ['pending', 'paid', 'expired'] as const;

export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/**
 * A checkout started from /checkout/:price_id: the order and the future owner's account (the password
 * only as its argon2id hash, cleared once the account exists or the checkout expires). Paying creates
 * the tenant, its owner, billing account, subscription and invoice in one transaction and sets
 * `tenant_id`/`user_id`. `complete_secret_hash` (SHA-256) keys the one sign-in after payment to the
 * browser that started the checkout.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    priceId: text('price_id')
      .notNull()
      .references(() => planPrices.priceId),
    tenantName: text('tenant_name').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    completeSecretHash: text('complete_secret_hash').notNull(),
    status: text('status').$type<CheckoutStatus>().notNull().default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    /** When the one sign-in after payment was handed out. */
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('checkout_sessions_expires_idx').on(t.status, t.expiresAt),
    check('checkout_sessions_status_check', sql`${t.status} in ('pending', 'paid', 'expired')`),
  ],
);

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;
