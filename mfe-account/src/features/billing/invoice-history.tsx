import { useId, useMemo } from 'react';
import { DataGrid } from '@console/shared/lists';
import type { Invoice } from '@console/shared/contracts';
import { INVOICE_COLUMNS, newestFirst } from './invoice-columns';

/** Every invoice, newest first. */
export function InvoiceHistory({ invoices }: { invoices: readonly Invoice[] }) {
  const headingId = useId();
  const rows = useMemo(() => newestFirst(invoices), [invoices]);
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <h2 id={headingId} className="px-5 pt-5 pb-3 text-base font-semibold text-slate-900">
        Invoice history
      </h2>
      <DataGrid
        label="Invoices"
        columns={INVOICE_COLUMNS}
        rows={rows}
        rowKey={(row) => row._id}
        empty="No invoices yet."
      />
    </section>
  );
}
