import type { DataGridColumn } from '@console/shared/lists';
import type { Widget } from '@console/shared/contracts';

export type WidgetSortField = 'created_at' | 'type' | 'url' | 'count';

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');
const ACTION = 'rounded-sm text-sm font-medium hover:underline focus-visible:outline-2 focus-visible:outline-brand-600';

/** Widget Type, Website / URL, Signups (sortable), and Actions: view code, edit, delete. */
export function widgetColumns({
  onViewCode,
  onEdit,
  onDelete,
}: {
  onViewCode: (widget: Widget) => void;
  onEdit: (widget: Widget) => void;
  onDelete: (widget: Widget) => void;
}): DataGridColumn<Widget, WidgetSortField>[] {
  return [
    {
      key: 'type',
      header: 'Widget Type',
      sortField: 'type',
      render: (row) => (
        <span>
          <span className="block font-medium text-slate-900">{row.type}</span>
          <span className="block text-xs text-slate-500">{row.target_name}</span>
        </span>
      ),
    },
    {
      key: 'url',
      header: 'Website / URL',
      sortField: 'url',
      className: 'max-w-md break-all',
      render: (row) => row.url,
    },
    {
      key: 'count',
      header: 'Signups',
      sortField: 'count',
      className: 'tabular-nums',
      render: (row) => NUMBER_FORMAT.format(row.count),
    },
    {
      key: 'actions',
      header: 'Actions',
      className: 'whitespace-nowrap',
      render: (row) => (
        <span className="inline-flex gap-3">
          <button
            type="button"
            aria-label={`View code of the ${row.type} on ${row.url}`}
            onClick={() => onViewCode(row)}
            className={`${ACTION} text-brand-700`}
          >
            View code
          </button>
          <button
            type="button"
            aria-label={`Edit the ${row.type} on ${row.url}`}
            onClick={() => onEdit(row)}
            className={`${ACTION} text-slate-700`}
          >
            Edit
          </button>
          <button
            type="button"
            aria-label={`Delete the ${row.type} on ${row.url}`}
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
