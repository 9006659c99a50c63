import type { ReactNode } from 'react';
import { memberRoleName } from '@console/shared/access';
import type { Invitation } from '@console/shared/contracts';
import type { DataGridColumn } from '@console/shared/lists';
import { formatDate, formatDateTime } from '@console/shared/format';

const EXPIRED_BADGE =
  'inline-flex rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 ring-1 ring-slate-500/20 ring-inset';

function Moment({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatDate(iso)}
    </time>
  );
}

/** The invitations grid's columns: e-mail, role, who invited, sent, expires (or 'Expired'), then `actions`. */
export function invitationColumns(actions: (invitation: Invitation) => ReactNode): DataGridColumn<Invitation>[] {
  return [
    { key: 'email', header: 'E-mail', render: (i) => <span className="font-medium text-slate-900">{i.email}</span> },
    { key: 'role', header: 'Role', render: (i) => memberRoleName(i) },
    { key: 'invited_by', header: 'Invited by', render: (i) => i.invited_by?.email ?? '—' },
    { key: 'sent', header: 'Sent', className: 'whitespace-nowrap', render: (i) => <Moment iso={i.sent_at} /> },
    {
      key: 'expires',
      header: 'Expires',
      className: 'whitespace-nowrap',
      render: (i) =>
        i.status === 'expired' ? <span className={EXPIRED_BADGE}>Expired</span> : <Moment iso={i.expires_at} />,
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right whitespace-nowrap',
      render: actions,
    },
  ];
}
