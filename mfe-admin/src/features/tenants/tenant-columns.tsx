import { ImpersonateButton } from '@console/shared/layout';
import type { DataGridColumn } from '@console/shared/lists';
import type { Tenant } from '@console/shared/contracts';
import { formatCount, formatDate } from '@console/shared/format';
import { BILLING_STATE_LABELS, personName, sentOfVolume } from './tenant-format';

export type TenantSortField = 'created_at' | 'name' | 'contacts' | 'emails_sent' | 'plan';

function UsageCell({ sent, volume }: { sent: number; volume: number }) {
  const share = volume > 0 ? Math.min(1, sent / volume) : 0;
  return (
    <div className="min-w-32">
      <span className="tabular-nums">{sentOfVolume(sent, volume)}</span>
      <div className="mt-1 h-1.5 rounded bg-slate-100" aria-hidden="true">
        <div
          className={`h-1.5 rounded ${sent >= volume && volume > 0 ? 'bg-red-600' : 'bg-brand-600'}`}
          style={{ width: `${Math.round(share * 100)}%` }}
        />
      </div>
    </div>
  );
}

/** The tenants grid's columns; the name opens the tenant's detail, the owner's cell impersonates the owner. */
export function tenantColumns(onOpen: (tenant: Tenant) => void): DataGridColumn<Tenant, TenantSortField>[] {
  return [
    {
      key: 'name',
      header: 'Name',
      sortField: 'name',
      render: (row) => (
        <button
          type="button"
          className="text-left font-medium text-brand-700 hover:underline"
          onClick={() => onOpen(row)}
        >
          {row.name}
        </button>
      ),
    },
    { key: 'plan', header: 'Plan', sortField: 'plan', render: (row) => row.plan.name },
    {
      key: 'owner',
      header: 'Owner',
      render: (row) =>
        row.owner ? (
          <span className="flex items-center gap-3">
            <span className="min-w-0">
              <span className="block text-slate-900">{personName(row.owner)}</span>
              <span className="block text-xs text-slate-500">{row.owner.email}</span>
            </span>
            <ImpersonateButton user={row.owner} />
          </span>
        ) : (
          '—'
        ),
    },
    {
      key: 'contacts',
      header: 'Contacts',
      sortField: 'contacts',
      className: 'tabular-nums',
      render: (row) => (row.admin ? formatCount(row.admin.contacts) : '—'),
    },
    {
      key: 'emails_sent',
      header: 'E-mails this period',
      sortField: 'emails_sent',
      render: (row) => (row.admin ? <UsageCell sent={row.admin.emails_sent} volume={row.admin.email_volume} /> : '—'),
    },
    { key: 'created_at', header: 'Created', sortField: 'created_at', render: (row) => formatDate(row.created_at) },
    {
      key: 'billing_state',
      header: 'Billing',
      render: (row) => (row.admin ? BILLING_STATE_LABELS[row.admin.billing_state] : '—'),
    },
  ];
}
