import type { DataGridColumn } from '@console/shared/lists';
import type { Invoice } from '@console/shared/contracts';
import { formatDay, formatMoney } from '@console/shared/format';

const MONEY_CELL = 'text-right tabular-nums whitespace-nowrap';
const BADGE = 'inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset';
const STATUS = {
  paid: { text: 'Paid', className: `${BADGE} bg-emerald-50 text-emerald-800 ring-emerald-600/20` },
  failed: { text: 'Failed', className: `${BADGE} bg-red-50 text-red-800 ring-red-600/20` },
} as const;

/** Newest first, whatever order the server sent. */
export function newestFirst(invoices: readonly Invoice[]): Invoice[] {
  const time = (invoice: Invoice) => {
    const parsed = Date.parse(invoice.created_at);
    return Number.isNaN(parsed) ? 0 : parsed;
  };
  return [...invoices].sort((a, b) => time(b) - time(a));
}

export function StatusBadge({ status }: { status: Invoice['status'] }) {
  const { text, className } = STATUS[status];
  return <span className={className}>{text}</span>;
}

export const INVOICE_COLUMNS: readonly DataGridColumn<Invoice>[] = [
  {
    key: 'date',
    header: 'Date',
    className: 'whitespace-nowrap',
    render: (row) => <time dateTime={row.created_at}>{formatDay(row.created_at)}</time>,
  },
  { key: 'description', header: 'Description', render: (row) => row.description },
  { key: 'subtotal', header: 'Subtotal', className: MONEY_CELL, render: (row) => formatMoney(row.subtotal) },
  { key: 'tax', header: 'Tax', className: MONEY_CELL, render: (row) => formatMoney(row.tax) },
  {
    key: 'total',
    header: 'Total',
    className: `${MONEY_CELL} font-medium text-slate-900`,
    render: (row) => formatMoney(row.total),
  },
  { key: 'status', header: 'Status', render: (row) => <StatusBadge status={row.status} /> },
];
