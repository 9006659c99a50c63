/**
 * POST /v1/tenants (spec section 7): the tenant, its community (the same code as seed and checkout,
 * onboarding's createTenantCommunity) and its owner — role tenant_admin with the owner's permissions,
 * an unusable password — in one transaction; then the welcome e-mail with a link to set a password.
 * An e-mail that already has an account is a field error on owner_email.
 */
import { eq } from 'drizzle-orm';
import { TENANT_PERMISSIONS, type TenantCreateBody } from '../contracts';
import type { Deps } from '../deps';
import { plans, tenants, users } from '../db/schema';
import { badRequest, INVALID_INPUT } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { lockAddress, sameAddress } from '../auth';
import { createTenantCommunity } from '../onboarding';
import { sendWelcome, UNSET_PASSWORD } from './welcome';

export const EMAIL_TAKEN = 'This e-mail address already has an account.';

export async function createTenant(deps: Deps, body: TenantCreateBody): Promise<string> {
  const { db } = deps;
  const email = body.owner_email.trim();
  const [plan] = isUuid(body.plan_id)
    ? await db.select({ id: plans.id }).from(plans).where(eq(plans.id, body.plan_id))
    : [];
  if (!plan) throw badRequest(INVALID_INPUT, { plan_id: ['Choose a plan.'] });
  const taken = () => badRequest(INVALID_INPUT, { owner_email: [EMAIL_TAKEN] });
  const name = body.name.trim();
  // Two creations with one e-mail at once: the second waits for the first's lock, then finds its owner.
  const created = await db.transaction(async (tx) => {
    await lockAddress(tx, email);
    const [exists] = await tx.select({ id: users.id }).from(users).where(sameAddress(email)).limit(1);
    if (exists) throw taken();
    const [tenant] = await tx.insert(tenants).values({ name, planId: plan.id }).returning({ id: tenants.id });
    if (!tenant) throw new Error('tenant was not stored');
    await createTenantCommunity(tx, tenant.id, name);
    const [owner] = await tx
      .insert(users)
      .values({
        tenantId: tenant.id,
        email,
        passwordHash: UNSET_PASSWORD,
        role: 'tenant_admin',
        permissions: [...TENANT_PERMISSIONS],
        firstName: body.owner_first_name.trim(),
        lastName: body.owner_last_name.trim(),
      })
      .returning({ id: users.id });
    if (!owner) throw new Error('owner was not stored');
    return { tenantId: tenant.id, ownerId: owner.id };
  });
  await sendWelcome(deps, { id: created.ownerId, email, firstName: body.owner_first_name.trim() }, name);
  return created.tenantId;
}
