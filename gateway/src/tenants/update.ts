/**
 * A platform admin's edits of a tenant (spec section 7): PATCH /v1/tenants/{id} (name, plan: the
 * body never carries last_warning_sent_date or last_limit_sent_date, the strict contract makes them a
 * 400) and PATCH /v1/tenants/{id}/settings (tax rate, e-mail volume override, enabled applets, billing
 * customer id, sending paused). A plan change takes effect at once for the tenant's sessions.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { TenantSettingsBody, TenantUpdateBody } from '../contracts';
import type { Database } from '../db/index';
import { applets, billingAccounts, campaigns, plans, tenants } from '../db/schema';
import type { JobRunner } from '../jobs';
import { enqueueCampaign } from '../campaigns/index';
import { badRequest, INVALID_INPUT, notFound } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { sessionChanged } from '../auth';

export const TENANT_NOT_FOUND = 'Tenant not found.';

async function liveTenant(db: Database, id: string): Promise<void> {
  const [row] = isUuid(id)
    ? await db
        .select({ id: tenants.id })
        .from(tenants)
        .where(and(eq(tenants.id, id), isNull(tenants.deletedAt)))
    : [];
  if (!row) throw notFound(TENANT_NOT_FOUND);
}

export async function updateTenant(db: Database, id: string, body: TenantUpdateBody): Promise<void> {
  await liveTenant(db, id);
  const set: Partial<typeof tenants.$inferInsert> = {};
  if (body.name !== undefined) set.name = body.name.trim();
  if (body.plan_id !== undefined) {
    const [plan] = isUuid(body.plan_id)
      ? await db.select({ id: plans.id }).from(plans).where(eq(plans.id, body.plan_id))
      : [];
    if (!plan) throw badRequest(INVALID_INPUT, { plan_id: ['Choose a plan.'] });
    set.planId = plan.id;
  }
  if (Object.keys(set).length === 0) return;
  await db.update(tenants).set(set).where(eq(tenants.id, id));
  // The tenant's sessions read name and plan features from the session cache: drop them now.
  sessionChanged(db, `tenant:${id}`);
}

/** Field errors of a settings body that the contract cannot check alone. */
function settingsErrors(body: TenantSettingsBody): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (body.tax_rate !== undefined && !(body.tax_rate >= 0 && body.tax_rate <= 100)) {
    errors.tax_rate = ['Use a rate from 0 to 100.'];
  }
  if (body.email_volume_override != null && body.email_volume_override < 0) {
    errors.email_volume_override = ['Use 0 or more e-mails.'];
  }
  if (body.billing_customer_id != null && body.billing_customer_id.length > 200) {
    errors.billing_customer_id = ['Use at most 200 characters.'];
  }
  return errors;
}

export async function updateTenantSettings(
  db: Database,
  jobs: JobRunner,
  id: string,
  body: TenantSettingsBody,
): Promise<void> {
  const errors = settingsErrors(body);
  if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);
  await liveTenant(db, id);
  let enabled: string[] | undefined;
  if (body.enabled_applets !== undefined) {
    enabled = [...new Set(body.enabled_applets.map((a) => a.toLowerCase()))];
    const ids = enabled.filter(isUuid);
    const known = ids.length ? await db.select({ id: applets.id }).from(applets).where(inArray(applets.id, ids)) : [];
    if (known.length !== enabled.length) {
      throw badRequest(INVALID_INPUT, { enabled_applets: ['Choose applets that exist.'] });
    }
  }
  await db.transaction(async (tx) => {
    const set: Partial<typeof tenants.$inferInsert> = {};
    if (body.email_volume_override !== undefined) set.emailVolumeOverride = body.email_volume_override;
    if (body.sending_paused !== undefined) set.sendingPaused = body.sending_paused;
    if (enabled !== undefined) set.enabledApplets = enabled;
    if (body.billing_customer_id !== undefined) {
      const customer = body.billing_customer_id?.trim() ?? '';
      set.stripeCustomerId = customer === '' ? null : customer;
    }
    if (Object.keys(set).length > 0) await tx.update(tenants).set(set).where(eq(tenants.id, id));
    if (body.tax_rate !== undefined) {
      await tx
        .insert(billingAccounts)
        .values({ tenantId: id, taxRate: body.tax_rate })
        .onConflictDoUpdate({ target: billingAccounts.tenantId, set: { taxRate: body.tax_rate } });
    }
  });
  sessionChanged(db, `tenant:${id}`);
  if (body.sending_paused === false) await resumeCampaigns(db, jobs, id);
}

/** Sending unpaused: the tenant's campaigns that were held (status sending) are queued at once. */
async function resumeCampaigns(db: Database, jobs: JobRunner, tenantId: string): Promise<void> {
  const held = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.tenantId, tenantId), eq(campaigns.status, 'sending')));
  for (const c of held) await enqueueCampaign(jobs, c.id);
}
