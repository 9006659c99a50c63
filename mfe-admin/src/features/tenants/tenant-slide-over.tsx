import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import type { Tenant } from '@console/shared/contracts';
import { formatCount, formatDate } from '@console/shared/format';
import { SlideOver } from '@console/shared/overlays';
import { Button, notify } from '@console/shared/ui';
import { fetchPlans, fetchTenant, resendWelcomeEmail, tenantKeys } from './api';
import { BILLING_STATE_LABELS, sentOfVolume } from './tenant-format';
import { TenantEditForm } from './tenant-edit-form';
import { TenantSettingsForm } from './tenant-settings-form';
import { TenantUsers } from './tenant-users';

function Figures({ tenant }: { tenant: Tenant }) {
  const admin = tenant.admin;
  return (
    <dl className="grid grid-cols-2 gap-3 text-sm">
      <div>
        <dt className="text-slate-500">Plan</dt>
        <dd className="font-medium text-slate-900">{tenant.plan.name}</dd>
      </div>
      <div>
        <dt className="text-slate-500">Created</dt>
        <dd className="font-medium text-slate-900">{formatDate(tenant.created_at)}</dd>
      </div>
      {admin && (
        <>
          <div>
            <dt className="text-slate-500">Contacts</dt>
            <dd className="font-medium text-slate-900">{formatCount(admin.contacts)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">E-mails this period</dt>
            <dd className="font-medium text-slate-900">{sentOfVolume(admin.emails_sent, admin.email_volume)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Billing</dt>
            <dd className="font-medium text-slate-900">{BILLING_STATE_LABELS[admin.billing_state]}</dd>
          </div>
        </>
      )}
    </dl>
  );
}

function ResendWelcome({ tenant }: { tenant: Tenant }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const resend = async () => {
    setBusy(true);
    setError(null);
    try {
      await resendWelcomeEmail(tenant._id);
      notify.success('The welcome e-mail has been sent again.');
    } catch (failure) {
      setError(messageOf(failure, 'The welcome e-mail could not be sent.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <Button variant="secondary" busy={busy} onClick={() => void resend()}>
        Resend welcome e-mail
      </Button>
      {error && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * One tenant's detail (GET /v1/tenants/{id}): its figures, users (impersonate the owner or anyone),
 * name and plan, settings, resend the welcome e-mail, and delete (the confirm dialog is the screen's).
 */
export function TenantSlideOver({
  tenantId,
  open,
  onClose,
  onDelete,
}: {
  tenantId: string | null;
  open: boolean;
  onClose: () => void;
  onDelete: (tenant: Tenant) => void;
}) {
  const tenant = useQuery({
    queryKey: tenantKeys.one(tenantId ?? ''),
    queryFn: () => fetchTenant(tenantId ?? ''),
    enabled: open && tenantId !== null,
  });
  const plans = useQuery({ queryKey: tenantKeys.plans, queryFn: fetchPlans, enabled: open });
  const data = tenant.data;
  return (
    <SlideOver
      open={open}
      onClose={onClose}
      title={data?.name ?? 'Tenant'}
      description={data?.owner ? `Owner: ${data.owner.email}` : undefined}
      size="lg"
      testId="tenant-slide-over"
    >
      {tenant.isPending && <p className="text-sm text-slate-500">Loading the tenant…</p>}
      {tenant.isError && (
        <div role="alert" className="space-y-2 text-sm text-red-700">
          <p>{messageOf(tenant.error, 'The tenant could not be loaded.')}</p>
          <Button variant="secondary" size="sm" onClick={() => void tenant.refetch()}>
            Retry
          </Button>
        </div>
      )}
      {data && (
        <div className="space-y-6">
          <Figures tenant={data} />
          <TenantUsers users={data.users ?? []} ownerId={data.owner?._id} />
          <TenantEditForm key={`${data._id}-edit`} tenant={data} plans={plans.data ?? []} />
          {data.admin && (
            <TenantSettingsForm key={`${data._id}-settings`} tenant={data} settings={data.admin.settings} />
          )}
          <section
            aria-label="Other actions"
            className="flex flex-wrap items-start justify-between gap-3 border-t pt-4"
          >
            <ResendWelcome tenant={data} />
            <Button variant="danger" onClick={() => onDelete(data)}>
              Delete tenant
            </Button>
          </section>
        </div>
      )}
    </SlideOver>
  );
}
