import type { DataGridColumn } from '@console/shared/lists';
import type { Applet, AppletSortField } from '@console/shared/contracts';
import { formatDate } from '@console/shared/format';
import { Link } from '@console/shared/router';

const ACTION = 'rounded-sm text-sm font-medium hover:underline focus-visible:outline-2 focus-visible:outline-brand-600';

/** Name (and slug), module, plans, enabled, updated (sortable where the query allows), and Edit / Delete. */
export function appletColumns({
  planNames,
  onDelete,
}: {
  /** Plan names by id (plans the catalogue no longer has are left out). */
  planNames: ReadonlyMap<string, string>;
  onDelete: (applet: Applet) => void;
}): DataGridColumn<Applet, AppletSortField>[] {
  return [
    {
      key: 'name',
      header: 'Name',
      sortField: 'name',
      render: (row) => (
        <span>
          <span className="block font-medium text-slate-900">{row.name}</span>
          <span className="block text-xs text-slate-500">{row.slug}</span>
        </span>
      ),
    },
    { key: 'module', header: 'Module', render: (row) => <code className="text-xs">{row.module}</code> },
    {
      key: 'plans',
      header: 'Plans',
      render: (row) =>
        row.plan_ids
          .map((id) => planNames.get(id))
          .filter(Boolean)
          .join(', ') || '—',
    },
    { key: 'enabled', header: 'Enabled', sortField: 'enabled', render: (row) => (row.enabled ? 'Yes' : 'No') },
    {
      key: 'updated_at',
      header: 'Updated',
      sortField: 'updated_at',
      className: 'whitespace-nowrap',
      render: (row) => formatDate(row.updated_at),
    },
    {
      key: 'actions',
      header: 'Actions',
      className: 'whitespace-nowrap',
      render: (row) => (
        <span className="inline-flex gap-3">
          <Link
            to={`/applets/${encodeURIComponent(row._id)}`}
            aria-label={`Edit ${row.name}`}
            className={`${ACTION} text-slate-700`}
          >
            Edit
          </Link>
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
