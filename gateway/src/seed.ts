import { count, eq, sql } from 'drizzle-orm';
import {
  PERIOD_LABELS,
  PERMISSIONS,
  PLAN_FEATURES,
  PLAN_KEYS,
  TENANT_PERMISSIONS,
  type Permission,
  type PlanKey,
  type Role,
  type TemplateStarter,
} from './contracts';
import { seedDemoAudience } from './audience/index';
import { hashPassword } from './auth/index';
import { createTenantCommunity } from './onboarding/index';
import { CATALOGUE, cataloguePriceRows, periodEnd, taxCents } from './billing/index';
import { createTemplate, updateTemplate } from './templates/index';
import type { Database } from './db/index';
import { type DemoChain, seedDemoContract } from './demo-chain/index';
import { applets, billingAccounts, invoices, planPrices, plans, subscriptions, tenants, users } from './db/schema';

const PLAN_NAMES: Record<PlanKey, { name: string; label: string }> = {
  basic: { name: 'BASIC', label: 'Kickstart your project' },
  startup: { name: 'START UP', label: 'For expanding projects' },
  growup: { name: 'GROW UP', label: 'Grow with confidence' },
  scaleup: { name: 'SCALE UP', label: 'Scale big communities' },
};

interface SeedUser {
  email: string;
  password: string;
  role: Role;
  permissions: readonly Permission[];
  firstName: string;
  lastName: string;
}

interface SeedTenant {
  name: string;
  plan: PlanKey;
  stripeCustomerId: string | null;
  users: SeedUser[];
  /** Seed a small demo audience (contacts, lists, custom attributes). */
  demoAudience?: boolean;
  /** Watches the local chain's demo token, when `npm start` runs one (src/demo-chain/). */
  watchesDemoToken?: boolean;
  /** Templates made from these starters, by name, so a first e-mail has a design to pick. */
  templates?: { name: string; starter: TemplateStarter }[];
  /** Transactional templates (sent through the API), with their subject and MJML. */
  transactional?: { name: string; subject: string; mjml: string }[];
  /** The postal address in the footer of marketing e-mails (merge tag community.postal_address). */
  postalAddress?: string;
  /** Billing (spec sections 3, 4 and 9): a monthly subscription that started `startedDaysAgo` days ago, its paid invoice, tax and card. */
  billing?: { priceId: string; startedDaysAgo: number; taxRate: number; paymentMethod: string };
}

const owner = (email: string, password: string, firstName: string, lastName: string): SeedUser => ({
  email,
  password,
  role: 'tenant_admin',
  permissions: TENANT_PERMISSIONS,
  firstName,
  lastName,
});

/** The demo data (the README lists these logins). */
export const SEED_TENANTS: SeedTenant[] = [
  {
    name: 'Console Platform',
    plan: 'scaleup',
    stripeCustomerId: null,
    users: [
      {
        email: 'admin@console.test',
        password: 'admin-pass-2026',
        role: 'super_admin',
        permissions: PERMISSIONS,
        firstName: 'Ada',
        lastName: 'Admin',
      },
    ],
  },
  {
    name: 'Acme DAO',
    plan: 'startup',
    stripeCustomerId: 'cus_acme_demo',
    demoAudience: true,
    watchesDemoToken: true,
    templates: [{ name: 'Monthly newsletter', starter: 'newsletter' }],
    transactional: [
      receipt(),
      {
        name: 'Claim link',
        subject: 'Claim your {{ reward }}',
        mjml: transactionalMjml('Your {{ reward }} is waiting: claim it at {{ claim_url }} before {{ expires_on }}.'),
      },
    ],
    postalAddress: 'Acme DAO, 1 Chain Street, 10115 Berlin, Germany',
    billing: { priceId: 'price_startup1_monthly', startedDaysAgo: 10, taxRate: 21, paymentMethod: 'Visa •••• 4242' },
    users: [
      owner('owner@acme.test', 'owner-pass-2026', 'Alice', 'Acme'),
      {
        email: 'staff@acme.test',
        password: 'staff-pass-2026',
        role: 'staff',
        permissions: ['manage_contacts', 'view_engagement_emails'],
        firstName: 'Sam',
        lastName: 'Staff',
      },
    ],
  },
  {
    name: 'Basic Guild',
    plan: 'basic',
    stripeCustomerId: null,
    users: [owner('owner@basic.test', 'basic-pass-2026', 'Bob', 'Basic')],
  },
  {
    name: 'Lab Rats',
    // GROW UP: the demo tenant of team features (Manage Users, invitations), API access and custom domains.
    plan: 'growup',
    stripeCustomerId: null,
    // So that a key made on API Access has a template to send (docs/transactional.md).
    transactional: [receipt()],
    users: [owner('owner@lab.test', 'lab-pass-2026', 'Lena', 'Lab')],
  },
];

/**
 * The sample applet (applets/token-gate), registered with the demo data so a newcomer finds it under
 * "Apps": included in GROW UP (Lab Rats) but not START UP (Acme). `manifestUrl` is where it is served.
 */
export const SEED_APPLET = {
  name: 'Token Gate',
  slug: 'token-gate',
  description: "Token-gated content: your community's page and contact count, for holders of its token.",
  module: './Page',
  plans: ['growup'] as PlanKey[],
};

export const SEED_GLOBAL_ADMIN: SeedUser = {
  email: 'global@console.test',
  password: 'global-pass-2026',
  role: 'global_admin',
  permissions: ['admin_tenants', 'admin_plans', 'admin_applets'],
  firstName: 'Gloria',
  lastName: 'Global',
};

/** Plans and prices from billing/catalogue.ts on first start; later only names and granted features follow the code. */
export async function seedPlans(db: Database): Promise<Map<PlanKey, string>> {
  const ids = new Map<PlanKey, string>();
  for (const key of PLAN_KEYS) {
    const cardFeatures = CATALOGUE.find((p) => p.key === key)?.cardFeatures ?? [];
    const { name, label } = PLAN_NAMES[key];
    const features = [...PLAN_FEATURES[key]];
    // Label and card features are the admins' (PATCH /v1/plans/{id}): written once, never overwritten.
    const [row] = await db
      .insert(plans)
      .values({ key, name, label, features, cardFeatures: [...cardFeatures] })
      .onConflictDoUpdate({ target: plans.key, set: { name, features } })
      .returning({ id: plans.id });
    if (!row) throw new Error(`plan ${key} was not stored`);
    ids.set(key, row.id);
  }
  const prices = cataloguePriceRows().map(({ planKey, ...price }) => {
    const planId = ids.get(planKey);
    if (!planId) throw new Error(`unknown plan ${planKey}`);
    return { ...price, planId };
  });
  // Prices are the admins' once stored (amounts, volumes, even ids may have been edited): insert
  // what is missing, never overwrite (a renamed id must not come back as a duplicate option).
  await db.insert(planPrices).values(prices).onConflictDoNothing();
  return ids;
}

/**
 * Seed on first start: plans (always brought up to date) and, when there are no users yet, the demo
 * tenants and users. Safe to run on every start. `demoChain`: the local chain `npm start` runs (none:
 * no contract is watched).
 */
export async function seed(
  db: Database,
  options: { sampleAppletUrl?: string; demoChain?: DemoChain | null } = {},
): Promise<{ seeded: boolean }> {
  const planIds = await seedPlans(db);
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return { seeded: false };

  // Hash outside the transaction (argon2 is slow on purpose; PGlite would be held meanwhile).
  const everyone = [...SEED_TENANTS.flatMap((t) => t.users), SEED_GLOBAL_ADMIN];
  const hashes = new Map(
    await Promise.all(everyone.map(async (u) => [u.email, await hashPassword(u.password)] as const)),
  );
  const hashOf = (email: string) => {
    const h = hashes.get(email);
    if (!h) throw new Error(`no hash for ${email}`);
    return h;
  };
  const confirmedAt = new Date();
  // Distinct creation times (one second apart, in seed order) so "newest first" lists are stable.
  let tick = confirmedAt.getTime() - 60_000;
  const next = () => new Date((tick += 1000));

  await db.transaction(async (tx) => {
    // Another process may have seeded meanwhile (two gateways on one server).
    await tx.execute(sql`lock table ${users} in share row exclusive mode`);
    const [again] = await tx.select({ n: count() }).from(users);
    if ((again?.n ?? 0) > 0) return;
    for (const t of SEED_TENANTS) {
      const planId = planIds.get(t.plan);
      if (!planId) throw new Error(`unknown plan ${t.plan}`);
      const [tenant] = await tx
        .insert(tenants)
        .values({
          name: t.name,
          planId,
          stripeCustomerId: t.stripeCustomerId,
          postalAddress: t.postalAddress ?? null,
          createdAt: next(),
        })
        .returning({ id: tenants.id });
      if (!tenant) throw new Error(`tenant ${t.name} was not stored`);
      await createTenantCommunity(tx, tenant.id, t.name);
      for (const u of t.users) {
        await tx.insert(users).values({
          tenantId: tenant.id,
          email: u.email,
          passwordHash: hashOf(u.email),
          role: u.role,
          permissions: [...u.permissions],
          firstName: u.firstName,
          lastName: u.lastName,
          emailConfirmedAt: confirmedAt,
          createdAt: next(),
        });
      }
      if (t.demoAudience) await seedDemoAudience(tx, tenant.id, confirmedAt);
      if (t.watchesDemoToken && options.demoChain) await seedDemoContract(tx, tenant.id, options.demoChain);
      if (t.billing) {
        const b = t.billing;
        const start = new Date(confirmedAt.getTime() - b.startedDaysAgo * 24 * 60 * 60 * 1000);
        const [price] = await tx.select().from(planPrices).where(eq(planPrices.priceId, b.priceId));
        if (!price) throw new Error(`unknown price ${b.priceId}`);
        await tx.insert(billingAccounts).values({
          tenantId: tenant.id,
          taxRate: b.taxRate,
          paymentMethodLabel: b.paymentMethod,
        });
        await tx.insert(subscriptions).values({
          tenantId: tenant.id,
          priceId: b.priceId,
          periodStart: start,
          periodEnd: periodEnd(start, price.period),
        });
        const tax = taxCents(price.amountCents, b.taxRate);
        await tx.insert(invoices).values({
          tenantId: tenant.id,
          priceId: b.priceId,
          description: `${PLAN_NAMES[t.plan].name} (${price.emails} e-mails), ${PERIOD_LABELS[price.period]}`,
          subtotalCents: price.amountCents,
          taxCents: tax,
          totalCents: price.amountCents + tax,
          status: 'paid',
          createdAt: start,
        });
      }
    }
    // With the demo data only (first start): an applet an admin deleted later does not come back.
    await tx
      .insert(applets)
      .values({
        name: SEED_APPLET.name,
        slug: SEED_APPLET.slug,
        description: SEED_APPLET.description,
        manifestUrl: `${options.sampleAppletUrl ?? 'http://localhost:3006'}/mf-manifest.json`,
        module: SEED_APPLET.module,
        planIds: SEED_APPLET.plans.map((key) => {
          const id = planIds.get(key);
          if (!id) throw new Error(`unknown plan ${key}`);
          return id;
        }),
      })
      .onConflictDoNothing({ target: applets.slug });
    const g = SEED_GLOBAL_ADMIN;
    await tx.insert(users).values({
      tenantId: null,
      email: g.email,
      passwordHash: hashOf(g.email),
      role: g.role,
      permissions: [...g.permissions],
      firstName: g.firstName,
      lastName: g.lastName,
      emailConfirmedAt: confirmedAt,
      createdAt: next(),
    });
  });
  return { seeded: true };
}

/**
 * The demo tenants' templates (SEED_TENANTS `templates`), after `seed` stored them: each is compiled
 * like any template a person creates, which needs the gateway's public URL (the social icons), so it
 * runs outside the seed's transaction. Called once, when `seed` answered `seeded: true`.
 */
export async function seedTemplates(db: Database, publicUrl: string): Promise<void> {
  for (const t of SEED_TENANTS) {
    if (!t.templates && !t.transactional) continue;
    const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, t.name));
    if (!tenant) continue;
    for (const template of t.templates ?? []) {
      await createTemplate({ db, publicUrl }, tenant.id, null, { ...template, kind: 'marketing' });
    }
    for (const template of t.transactional ?? []) {
      const made = await createTemplate({ db, publicUrl }, tenant.id, null, {
        name: template.name,
        kind: 'transactional',
      });
      await updateTemplate({ db, publicUrl }, tenant.id, null, made._id, {
        subject: template.subject,
        mjml: template.mjml,
      });
    }
  }
}

/** The demo receipt: a transactional template with nested merge variables. */
function receipt(): { name: string; subject: string; mjml: string } {
  return {
    name: 'Receipt',
    subject: 'Your receipt for order {{ order.id }}',
    mjml: transactionalMjml(
      'Thank you for your order {{ order.id }}: {{ order.total }} paid with {{ order.currency }}. {{ community.name }}',
    ),
  };
}

/** A one-paragraph transactional body. */
function transactionalMjml(text: string): string {
  return `<mjml><mj-body><mj-section><mj-column><mj-text>${text}</mj-text></mj-column></mj-section></mj-body></mjml>`;
}
