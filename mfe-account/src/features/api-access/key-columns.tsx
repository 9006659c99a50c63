import type { ReactNode } from 'react';
import type { ApiKey } from '@console/shared/contracts';
import { formatDateTime } from '@console/shared/format';
import type { DataGridColumn } from '@console/shared/lists';
import { STATUS_LABELS, scopeLabel } from './key-texts';

export type KeySortField = 'created_at' | 'name' | 'last_used_at';

const STATUS_CLASS: Record<ApiKey['status'], string> = {
  active: 'bg-emerald-50 text-emerald-800',
  expired: 'bg-amber-50 text-amber-900',
  revoked: 'bg-slate-100 text-slate-700',
};

/** The keys grid: name, scope, prefix, created by and when, expiry, last use and its address, status, actions. */
export function keyColumns(actions: (key: ApiKey) => ReactNode): DataGridColumn<ApiKey, KeySortField>[] {
  return [
    { key: 'name', header: 'Name', sortField: 'name', render: (k) => <span className="font-medium">{k.name}</span> },
    { key: 'scope', header: 'Scope', render: (k) => scopeLabel(k.scope) },
    { key: 'prefix', header: 'Key', render: (k) => <code className="text-xs">{k.prefix}…</code> },
    {
      key: 'created',
      header: 'Created',
      sortField: 'created_at',
      render: (k) => (
        <span>
          <span className="block whitespace-nowrap">{formatDateTime(k.created_at)}</span>
          <span className="block text-xs text-slate-500">{k.created_by?.email ?? '—'}</span>
        </span>
      ),
    },
    {
      key: 'expires',
      header: 'Expires',
      className: 'whitespace-nowrap',
      render: (k) => (k.expires_at ? formatDateTime(k.expires_at) : 'Never'),
    },
    {
      key: 'last_used',
      header: 'Last used',
      sortField: 'last_used_at',
      render: (k) =>
        k.last_used_at ? (
          <span>
            <span className="block whitespace-nowrap">{formatDateTime(k.last_used_at)}</span>
            <span className="block text-xs text-slate-500">{k.last_used_ip ?? ''}</span>
          </span>
        ) : (
          'Never'
        ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (k) => (
        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[k.status]}`}>
          {STATUS_LABELS[k.status]}
        </span>
      ),
    },
    { key: 'actions', header: <span className="sr-only">Actions</span>, render: actions },
  ];
}
