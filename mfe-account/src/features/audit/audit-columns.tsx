import { formatDateTime } from '@console/shared/format';
import type { DataGridColumn } from '@console/shared/lists';

/** What an audit row has: when, who (null when the system acted), and an id. */
export interface AuditRow {
  _id: string;
  created_at: string;
  actor?: { email: string } | null;
}

/**
 * The columns of an audit list (team activity, key activity): When (sortable), Who, What. `textOf` says
 * what happened in the row's own words.
 */
export function auditColumns<Row extends AuditRow>(textOf: (row: Row) => string): DataGridColumn<Row, 'created_at'>[] {
  return [
    {
      key: 'when',
      header: 'When',
      sortField: 'created_at',
      className: 'whitespace-nowrap',
      render: (e) => formatDateTime(e.created_at),
    },
    { key: 'who', header: 'Who', render: (e) => e.actor?.email ?? '—' },
    { key: 'what', header: 'What', render: textOf },
  ];
}
