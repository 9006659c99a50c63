import { Link } from '@console/shared/router';
import type { DataGridColumn } from '@console/shared/lists';
import type { List } from '@console/shared/contracts';
import { ListBadges } from './list-badges';

export type ListSortField = 'created_at' | 'name' | 'member_count';

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

export function formatListDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : DATE_FORMAT.format(time);
}

export function formatMembers(count: number): string {
  return NUMBER_FORMAT.format(count);
}

const ACTION = 'rounded-sm text-sm font-medium hover:underline focus-visible:outline-2 focus-visible:outline-brand-600';

/** Name (link to the list), description, members, created, and Edit / Delete. */
export function listColumns({
  onEdit,
  onDelete,
}: {
  onEdit: (list: List) => void;
  onDelete: (list: List) => void;
}): DataGridColumn<List, ListSortField>[] {
  return [
    {
      key: 'name',
      header: 'Name',
      sortField: 'name',
      render: (row) => (
        <span className="flex flex-wrap items-center gap-2">
          <Link
            to={`/engagement/lists/${encodeURIComponent(row._id)}`}
            className="font-medium text-brand-700 hover:underline"
          >
            {row.name}
          </Link>
          <ListBadges list={row} />
        </span>
      ),
    },
    {
      key: 'description',
      header: 'Description',
      className: 'max-w-md truncate',
      render: (row) => row.description || <span className="text-slate-400">—</span>,
    },
    {
      key: 'members',
      header: 'Members',
      sortField: 'member_count',
      className: 'tabular-nums',
      render: (row) => formatMembers(row.member_count),
    },
    {
      key: 'created',
      header: 'Created',
      sortField: 'created_at',
      className: 'whitespace-nowrap',
      render: (row) => formatListDate(row.created_at),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'whitespace-nowrap text-right',
      render: (row) => (
        <span className="inline-flex gap-3">
          <button
            type="button"
            aria-label={`Edit ${row.name}`}
            onClick={() => onEdit(row)}
            className={`${ACTION} text-brand-700`}
          >
            Edit
          </button>
          <button
            type="button"
            aria-label={`Delete ${row.name}`}
            onClick={() => onDelete(row)}
            className={`${ACTION} text-red-700`}
          >
            Delete
          </button>
        </span>
      ),
    },
  ];
}
