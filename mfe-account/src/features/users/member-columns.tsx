import type { ReactNode } from 'react';
import { memberRoleName } from '@console/shared/access';
import type { TEAM_SORT_FIELDS, TeamMember } from '@console/shared/contracts';
import type { DataGridColumn } from '@console/shared/lists';
import { formatDateTime } from '@console/shared/format';
import { compactPermissions } from './access-choice';

export type MemberSortField = (typeof TEAM_SORT_FIELDS)[number];

const BADGE = 'inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset whitespace-nowrap';
const STATUS = {
  active: { text: 'Active', className: `${BADGE} bg-emerald-50 text-emerald-800 ring-emerald-600/20` },
  unconfirmed: { text: 'Unconfirmed', className: `${BADGE} bg-amber-50 text-amber-800 ring-amber-600/20` },
} as const;

/** The team grid's columns; `actions` renders the last (unlabelled) column. `meId` marks the signed-in user's row. */
export function memberColumns(
  meId: string,
  actions: (member: TeamMember) => ReactNode,
): DataGridColumn<TeamMember, MemberSortField>[] {
  return [
    {
      key: 'name',
      header: 'Name',
      render: (m) => (
        <span className="font-medium text-slate-900">
          {`${m.first_name} ${m.last_name}`.trim() || '—'}
          {m._id === meId && <span className="ml-1 font-normal text-slate-500">(you)</span>}
        </span>
      ),
    },
    { key: 'email', header: 'E-mail', sortField: 'email', render: (m) => m.email },
    { key: 'role', header: 'Role', render: (m) => memberRoleName(m) },
    {
      key: 'permissions',
      header: 'Permissions',
      render: (m) => {
        const { text, full } = compactPermissions(m);
        return (
          <span title={full} className="text-slate-600">
            {text}
          </span>
        );
      },
    },
    {
      key: 'last_sign_in',
      header: 'Last sign-in',
      sortField: 'last_sign_in_at',
      className: 'whitespace-nowrap',
      render: (m) =>
        m.last_sign_in_at ? <time dateTime={m.last_sign_in_at}>{formatDateTime(m.last_sign_in_at)}</time> : '—',
    },
    {
      key: 'status',
      header: 'Status',
      render: (m) => <span className={STATUS[m.status].className}>{STATUS[m.status].text}</span>,
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right whitespace-nowrap',
      render: actions,
    },
  ];
}
